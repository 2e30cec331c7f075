package api

import (
	"reflect"
	"strings"
)

// TaggedField is a struct field reached by its name under a struct tag.
type TaggedField struct {
	// Index is the field's index sequence, for reflect.Value.FieldByIndex.
	Index []int
	Type  reflect.Type
}

// TaggedFields returns the fields of a struct type by their names under tag
// ("json" or "yaml"), and the names in declaration order. Embedded structs
// that are inline (no name of their own, or the yaml ",inline" option) are
// flattened into it; fields tagged "-" are left out. It is how the manifest
// decoder and the expect language find a field by the name a manifest
// writes.
func TaggedFields(t reflect.Type, tag string) (map[string]TaggedField, []string) {
	fields := map[string]TaggedField{}
	var names []string
	var walk func(t reflect.Type, prefix []int)
	walk = func(t reflect.Type, prefix []int) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			index := append(append([]int(nil), prefix...), i)
			name, opts, _ := strings.Cut(f.Tag.Get(tag), ",")
			if name == "-" {
				continue
			}
			if ft := f.Type; f.Anonymous && (ft.Kind() == reflect.Struct || ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Struct) &&
				(name == "" || strings.Contains(","+opts+",", ",inline,")) {
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem() // a pod's rare fields, out of line
				}
				walk(ft, index)
				continue
			}
			if name == "" {
				name = f.Name
				if tag == "yaml" {
					name = strings.ToLower(name)
				}
			}
			fields[name] = TaggedField{Index: index, Type: f.Type}
			names = append(names, name)
		}
	}
	walk(t, nil)
	return fields, names
}

// FieldByIndex returns the field of struct v at index (a TaggedField's),
// through embedded pointers: a nil one gives the field's zero value (not
// settable) when alloc is false, and is allocated when alloc is true (v
// must then be settable).
func FieldByIndex(v reflect.Value, index []int, alloc bool) reflect.Value {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				if !alloc {
					return reflect.Zero(v.Type().Elem().FieldByIndex(index[i:]).Type)
				}
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v
}
