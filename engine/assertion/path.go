package assertion

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"

	"reconcile/engine/api"
)

// Path is a field path over an object's JSON, as an expect names it:
//
//	status.availableReplicas
//	status.conditions[type=Progressing].reason     the element whose type is Progressing
//	spec.template.spec.containers[0].image         the first element
//	metadata.labels.app                            a map key
//	metadata.annotations[deployment.kubernetes.io/revision]   a key with dots or slashes
type Path []PathStep

// PathStep is one step of a Path: a field (or map key), an index, or a
// selection of the list element whose MatchKey field equals MatchValue.
type PathStep struct {
	Field      string
	Index      int // -1 unless the step is [N]
	MatchKey   string
	MatchValue string
}

func (s PathStep) isIndex() bool { return s.Index >= 0 }
func (s PathStep) isMatch() bool { return s.MatchKey != "" }
func (s PathStep) isField() bool { return !s.isIndex() && !s.isMatch() }

// String renders p as written.
func (p Path) String() string {
	var b strings.Builder
	for i, s := range p {
		switch {
		case s.isIndex():
			fmt.Fprintf(&b, "[%d]", s.Index)
		case s.isMatch():
			fmt.Fprintf(&b, "[%s=%s]", s.MatchKey, s.MatchValue)
		case strings.ContainsAny(s.Field, ".[]= "):
			fmt.Fprintf(&b, "[%s]", s.Field)
		default:
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.Field)
		}
	}
	return b.String()
}

// ParsePath parses a field path. The error's Offset is a byte offset in s.
func ParsePath(s string) (Path, error) {
	var p Path
	i := 0
	expectName := true
	for i < len(s) {
		switch c := s[i]; {
		case c == '.':
			if expectName || i+1 == len(s) {
				return nil, &Error{Offset: i, Msg: fmt.Sprintf("bad path %q: a field name is missing", s)}
			}
			expectName = true
			i++
		case c == '[':
			end := strings.IndexByte(s[i:], ']')
			if end < 0 {
				return nil, &Error{Offset: i, Msg: fmt.Sprintf("bad path %q: %q is not closed", s, "[")}
			}
			inner := s[i+1 : i+end]
			step, err := bracketStep(inner)
			if err != nil {
				return nil, &Error{Offset: i, Msg: fmt.Sprintf("bad path %q: %v", s, err)}
			}
			if len(p) == 0 {
				return nil, &Error{Offset: i, Msg: fmt.Sprintf("bad path %q: start with a field name", s)}
			}
			p = append(p, step)
			expectName = false
			i += end + 1
		default:
			if !expectName {
				return nil, &Error{Offset: i, Msg: fmt.Sprintf("bad path %q: want '.' or '[' before %q", s, s[i:])}
			}
			end := strings.IndexAny(s[i:], ".[")
			if end < 0 {
				end = len(s) - i
			}
			name := s[i : i+end]
			if strings.ContainsAny(name, "]=\"' ") {
				return nil, &Error{Offset: i, Msg: fmt.Sprintf("bad path %q: %q is not a field name", s, name)}
			}
			p = append(p, PathStep{Field: name, Index: -1})
			expectName = false
			i += end
		}
	}
	if len(p) == 0 {
		return nil, &Error{Msg: "empty path"}
	}
	return p, nil
}

func bracketStep(inner string) (PathStep, error) {
	unq := func(v string) string {
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
			return v[1 : len(v)-1]
		}
		return v
	}
	if inner == "" {
		return PathStep{}, fmt.Errorf("empty []")
	}
	if n, err := strconv.Atoi(inner); err == nil {
		if n < 0 {
			return PathStep{}, fmt.Errorf("index %d is negative", n)
		}
		return PathStep{Index: n}, nil
	}
	if k, v, ok := strings.Cut(inner, "="); ok && !strings.HasPrefix(inner, "\"") && !strings.HasPrefix(inner, "'") {
		if k == "" {
			return PathStep{}, fmt.Errorf("[%s] names no field to match", inner)
		}
		return PathStep{Index: -1, MatchKey: k, MatchValue: unq(v)}, nil
	}
	return PathStep{Field: unq(inner), Index: -1}, nil
}

type jsonFieldSet struct {
	fields map[string]api.TaggedField
	names  []string
}

var jsonFieldCache sync.Map // reflect.Type → jsonFieldSet

// jsonFields returns the fields of a struct by JSON name, and the names
// sorted. Callers must not change them.
func jsonFields(t reflect.Type) (map[string]api.TaggedField, []string) {
	if c, ok := jsonFieldCache.Load(t); ok {
		set := c.(jsonFieldSet)
		return set.fields, set.names
	}
	fields, names := api.TaggedFields(t, "json")
	sort.Strings(names)
	jsonFieldCache.Store(t, jsonFieldSet{fields, names})
	return fields, names
}

var (
	timeType        = reflect.TypeOf(api.Time(0))
	quantityType    = reflect.TypeOf(api.Quantity(""))
	intOrStringType = reflect.TypeOf(api.IntOrString{})
	anyType         = reflect.TypeOf((*any)(nil)).Elem()
)

// isLeaf reports whether values of t are compared whole (a time, a
// quantity, an int-or-string), though Go sees a number or a struct.
func isLeaf(t reflect.Type) bool {
	return t == timeType || t == quantityType || t == intOrStringType
}

// Check follows p through the type t (a struct type such as api.Deployment)
// and returns the type it reaches: nil when the path enters free-form data
// (an unsimulated kind's spec), which can only be checked against an object.
func (p Path) Check(t reflect.Type) (reflect.Type, error) {
	for i, s := range p {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		here := p[:i].String()
		switch {
		case t.Kind() == reflect.Interface:
			return nil, nil
		case isLeaf(t) || (t.Kind() != reflect.Struct && t.Kind() != reflect.Map && t.Kind() != reflect.Slice):
			return nil, fmt.Errorf("%s is a single value; it has no %s", here, Path{s})
		case t.Kind() == reflect.Struct:
			if !s.isField() {
				return nil, fmt.Errorf("%s is an object, not a list: write %s.FIELD", here, here)
			}
			fields, names := jsonFields(t)
			f, ok := fields[s.Field]
			if !ok {
				where := here
				if where == "" {
					where = "the object"
				}
				return nil, fmt.Errorf("unknown field %q in %s; expected one of %s", s.Field, where, strings.Join(names, ", "))
			}
			t = f.Type
		case t.Kind() == reflect.Map:
			if !s.isField() {
				return nil, fmt.Errorf("%s is a map: write %s.KEY or %s[KEY]", here, here, here)
			}
			t = t.Elem()
		case t.Kind() == reflect.Slice:
			if s.isField() {
				return nil, fmt.Errorf("%s is a list: pick an element with %s[0] or %s[FIELD=VALUE]", here, here, here)
			}
			t = t.Elem()
			if s.isMatch() {
				e := t
				for e.Kind() == reflect.Pointer {
					e = e.Elem()
				}
				if e.Kind() == reflect.Struct {
					if fields, names := jsonFields(e); fields[s.MatchKey].Index == nil {
						return nil, fmt.Errorf("unknown field %q in the elements of %s; expected one of %s", s.MatchKey, here, strings.Join(names, ", "))
					}
				}
			}
		}
	}
	return t, nil
}

// Lookup follows p through obj and returns the value it reaches (for
// dynamic data, the Go value inside the interface). The error says which
// step found nothing.
func (p Path) Lookup(obj any) (reflect.Value, error) {
	v := reflect.ValueOf(obj)
	for i, s := range p {
		here := p[:i].String()
		for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
			if v.IsNil() {
				return reflect.Value{}, fmt.Errorf("%s is not set", here)
			}
			v = v.Elem()
		}
		switch v.Kind() {
		case reflect.Struct:
			if !s.isField() || isLeaf(v.Type()) {
				return reflect.Value{}, fmt.Errorf("%s has no %s", here, Path{s})
			}
			fields, _ := jsonFields(v.Type())
			f, ok := fields[s.Field]
			if !ok {
				return reflect.Value{}, fmt.Errorf("%s has no field %q", here, s.Field)
			}
			v = api.FieldByIndex(v, f.Index, false)
		case reflect.Map:
			if !s.isField() || v.Type().Key().Kind() != reflect.String {
				return reflect.Value{}, fmt.Errorf("%s is a map; it has no %s", here, Path{s})
			}
			e := v.MapIndex(reflect.ValueOf(s.Field).Convert(v.Type().Key()))
			if !e.IsValid() {
				return reflect.Value{}, fmt.Errorf("%s has no key %q", here, s.Field)
			}
			v = e
		case reflect.Slice, reflect.Array:
			switch {
			case s.isIndex():
				if s.Index >= v.Len() {
					return reflect.Value{}, fmt.Errorf("%s has %d elements; there is no [%d]", here, v.Len(), s.Index)
				}
				v = v.Index(s.Index)
			case s.isMatch():
				found := false
				for j := 0; j < v.Len(); j++ {
					if got, err := (Path{{Field: s.MatchKey, Index: -1}}).Lookup(v.Index(j).Interface()); err == nil && Render(got) == s.MatchValue {
						v, found = v.Index(j), true
						break
					}
				}
				if !found {
					return reflect.Value{}, fmt.Errorf("%s has no element with %s=%s", here, s.MatchKey, s.MatchValue)
				}
			default:
				return reflect.Value{}, fmt.Errorf("%s is a list; it has no field %q", here, s.Field)
			}
		default:
			return reflect.Value{}, fmt.Errorf("%s is a single value; it has no %s", here, Path{s})
		}
	}
	for v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	if (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && v.IsNil() {
		return reflect.Value{}, fmt.Errorf("%s is not set", p)
	}
	return v, nil
}

// Render formats a value the way an expect writes it: numbers and words
// plainly, durations as "1m30s", quantities as written, and lists and
// objects as JSON.
func Render(v reflect.Value) string {
	if !v.IsValid() {
		return "null"
	}
	switch {
	case v.Type() == timeType:
		return api.FormatDuration(api.Duration(v.Int()))
	case v.Type() == intOrStringType:
		return v.Interface().(api.IntOrString).String()
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return "null"
		}
		return Render(v.Elem())
	case reflect.String:
		return v.String()
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.FormatUint(v.Uint(), 10)
	case reflect.Float32, reflect.Float64:
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	}
	return jsonText(v.Interface())
}
