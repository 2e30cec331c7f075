package api

import (
	"fmt"
	"reflect"
	"testing"
)

// fill sets every field reachable from v (settable): pointers point,
// slices and maps hold two elements, interfaces hold nested JSON-like
// data, scalars are non-zero.
func fill(v reflect.Value, depth int) {
	if depth > 16 {
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(p.Elem(), depth+1)
		v.Set(p)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if f := v.Field(i); f.CanSet() {
				fill(f, depth+1)
			}
		}
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := 0; i < 2; i++ {
			fill(s.Index(i), depth+1)
		}
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		for i := 0; i < 2; i++ {
			k := reflect.New(v.Type().Key()).Elem()
			k.SetString(fmt.Sprintf("k%d", i))
			e := reflect.New(v.Type().Elem()).Elem()
			fill(e, depth+1)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Interface:
		v.Set(reflect.ValueOf(map[string]any{"a": []any{"b", map[string]any{"c": int64(1)}}}))
	case reflect.String:
		v.SetString("s")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(7)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1.5)
	}
}

// shared returns the path of the first pointer, slice or map that a and
// b (a deep copy of a) have in common, or "".
func shared(a, b reflect.Value, path string) string {
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return ""
		}
		if a.Pointer() == b.Pointer() && a.Type().Elem().Size() > 0 {
			return path
		}
		return shared(a.Elem(), b.Elem(), path)
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return ""
		}
		return shared(a.Elem(), b.Elem(), path)
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if p := shared(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); p != "" {
				return p
			}
		}
	case reflect.Slice:
		if a.Len() > 0 && b.Len() > 0 && a.Pointer() == b.Pointer() {
			return path
		}
		for i := 0; i < a.Len() && i < b.Len(); i++ {
			if p := shared(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); p != "" {
				return p
			}
		}
	case reflect.Map:
		if a.IsNil() || b.IsNil() {
			return ""
		}
		if a.Pointer() == b.Pointer() {
			return path
		}
		for _, k := range a.MapKeys() { // a check: order cannot matter
			if e := b.MapIndex(k); e.IsValid() {
				if p := shared(a.MapIndex(k), e, fmt.Sprintf("%s[%v]", path, k)); p != "" {
					return p
				}
			}
		}
	}
	return ""
}

// TestDeepCopiesAreWholeAndIndependent fills every field of the pod types
// (and of the other kinds whose copies reach them) and checks each deep
// copy: equal to the original, and sharing no pointer, slice or map with
// it. A field added to a type and forgotten by its copy fails here.
func TestDeepCopiesAreWholeAndIndependent(t *testing.T) {
	cases := []struct {
		name string
		new  func() any
		copy func(any) any
	}{
		{"Pod", func() any { return &Pod{} }, func(v any) any { return v.(*Pod).DeepCopy() }},
		{"PodSpec", func() any { return &PodSpec{} }, func(v any) any { c := v.(*PodSpec).DeepCopy(); return &c }},
		{"PodTemplateSpec", func() any { return &PodTemplateSpec{} }, func(v any) any { c := v.(*PodTemplateSpec).DeepCopy(); return &c }},
		{"PodSpecMore", func() any { return &PodSpecMore{} }, func(v any) any { c := v.(*PodSpecMore).DeepCopy(); return &c }},
		{"ContainerMore", func() any { return &ContainerMore{} }, func(v any) any { c := v.(*ContainerMore).DeepCopy(); return &c }},
		{"Probe", func() any { return &Probe{} }, func(v any) any { return copyProbe(v.(*Probe)) }},
		{"PodAffinity", func() any { return &PodAffinity{} }, func(v any) any { return v.(*PodAffinity).DeepCopy() }},
		{"JobSpecMore", func() any { return &JobSpecMore{} }, func(v any) any { c := v.(*JobSpecMore).DeepCopy(); return &c }},
		{"PodStatus", func() any { return &PodStatus{} }, func(v any) any { c := v.(*PodStatus).DeepCopy(); return &c }},
		{"Job", func() any { return &Job{} }, func(v any) any { return v.(*Job).DeepCopy() }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			orig := c.new()
			fill(reflect.ValueOf(orig).Elem(), 0)
			cp := c.copy(orig)
			if !reflect.DeepEqual(orig, cp) {
				t.Fatalf("the copy differs from the original:\n%+v\n%+v", orig, cp)
			}
			if p := shared(reflect.ValueOf(orig), reflect.ValueOf(cp), c.name); p != "" {
				t.Fatalf("the copy shares %s with the original", p)
			}
		})
	}
}

// TestDeepCopyKeepsEmptyLists checks that an empty list of the rare fields
// stays empty (not nil) in a copy, as decoding wrote it.
func TestDeepCopyKeepsEmptyLists(t *testing.T) {
	m := PodSpecMore{Volumes: []Volume{}, SchedulingGates: []PodSchedulingGate{}, InitContainers: []Container{}}
	c := m.DeepCopy()
	if c.Volumes == nil || c.SchedulingGates == nil || c.InitContainers == nil {
		t.Fatalf("empty lists became nil: %+v", c)
	}
	var zero PodSpecMore
	if z := zero.DeepCopy(); !reflect.DeepEqual(z, zero) {
		t.Fatalf("the zero value's copy is not zero: %+v", z)
	}
}
