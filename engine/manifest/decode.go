package manifest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"reconcile/engine/api"
	"reconcile/engine/yamlpos"
)

// objDecoder decodes YAML nodes into the api structs through their yaml:
// tags, the way the API server decodes a request: every mistake is reported
// with its position and field path, and decoding goes on so that one pass
// finds every problem.
type objDecoder struct {
	pm yamlpos.Source
	// root prefixes field paths in type errors: "Deployment.spec.replicas".
	root string
	// strict makes unknown fields errors listing the fields that exist
	// (the scenario format); manifests use unknown (strict decoding) or
	// warnings instead.
	strict bool
	// top lists the top-level fields a kind the engine does not simulate
	// may have beyond apiVersion, kind and metadata (see storedFields); nil
	// for other kinds.
	top []string
	// unknown collects the unknown fields of a manifest when it is
	// validated strictly (kubectl's --validate=strict, the default).
	unknown *[]unknownField
	errs    *yamlpos.ErrorList
	warns   *[]string
}

// unknownField is a field a manifest has that its kind does not.
type unknownField struct {
	path string
	key  *yaml.Node
}

var (
	intOrStringType = reflect.TypeOf(api.IntOrString{})
	quantityType    = reflect.TypeOf(api.Quantity(""))
)

func (d *objDecoder) fail(n *yaml.Node, format string, args ...any) {
	*d.errs = append(*d.errs, &yamlpos.Error{Pos: d.pm.Of(n), Msg: fmt.Sprintf(format, args...)})
}

func (d *objDecoder) where(path string) string {
	switch {
	case d.root == "":
		return path
	case path == "":
		return d.root
	}
	return d.root + "." + path
}

func (d *objDecoder) typeError(n *yaml.Node, path, want string) {
	d.fail(n, "%s: invalid type: got %q, expected %q", d.where(path), yamlpos.TypeName(n), want)
}

func join(path, field string) string {
	if path == "" {
		return field
	}
	return path + "." + field
}

// decode fills v from n. path is the field path so far ("spec.replicas").
func (d *objDecoder) decode(n *yaml.Node, v reflect.Value, path string) {
	n = yamlpos.Resolve(n)
	t := v.Type()
	if yamlpos.IsNull(n) {
		v.Set(reflect.Zero(t))
		return
	}
	switch {
	case t == intOrStringType:
		d.intOrString(n, v, path)
		return
	case t.Kind() == reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(t.Elem()))
		}
		d.decode(n, v.Elem(), path)
		return
	}
	switch t.Kind() {
	case reflect.Interface:
		if d.checkMappings(n) {
			if x := freeForm(n); x != nil {
				v.Set(reflect.ValueOf(x))
			}
		}
	case reflect.Struct:
		d.object(n, v, path)
	case reflect.Map:
		ps, ok := d.mapping(n, path)
		if !ok {
			return
		}
		m := reflect.MakeMapWithSize(t, len(ps))
		for _, p := range ps {
			key := yamlpos.Resolve(p.Key).Value
			elem := reflect.New(t.Elem()).Elem()
			d.decode(p.Value, elem, path+"["+key+"]")
			m.SetMapIndex(reflect.ValueOf(key).Convert(t.Key()), elem)
		}
		v.Set(m)
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			d.typeError(n, path, "array")
			return
		}
		s := reflect.MakeSlice(t, len(n.Content), len(n.Content))
		for i, c := range n.Content {
			d.decode(c, s.Index(i), path+"["+strconv.Itoa(i)+"]")
		}
		v.Set(s)
	default:
		d.scalar(n, v, path)
	}
}

// scalar decodes strings, booleans and numbers. Like the API server, it
// does not turn a number into a string: `version: 1.0` in labels is an
// error, and quoting it is the fix. Quantities are the exception, as in
// Kubernetes: `cpu: 2` is a quantity.
func (d *objDecoder) scalar(n *yaml.Node, v reflect.Value, path string) {
	t := v.Type()
	tag := n.ShortTag()
	if n.Kind != yaml.ScalarNode {
		tag = ""
	}
	switch t.Kind() {
	case reflect.String:
		if tag == "!!str" || tag == "!!timestamp" || tag == "!!binary" ||
			(t == quantityType && (tag == "!!int" || tag == "!!float")) {
			v.SetString(n.Value)
			return
		}
		d.typeError(n, path, "string")
	case reflect.Bool:
		if tag != "!!bool" {
			d.typeError(n, path, "boolean")
			return
		}
		v.SetBool(strings.EqualFold(n.Value, "true"))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if tag != "!!int" {
			d.typeError(n, path, "integer")
			return
		}
		i, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, t.Bits())
		if err != nil {
			d.fail(n, "%s: invalid value: %s is out of range for an %s", d.where(path), n.Value, t.Kind())
			return
		}
		v.SetInt(i)
	case reflect.Float32, reflect.Float64:
		if tag != "!!int" && tag != "!!float" {
			d.typeError(n, path, "number")
			return
		}
		f, err := strconv.ParseFloat(n.Value, t.Bits())
		if err != nil {
			d.fail(n, "%s: invalid value: %s is not a number", d.where(path), n.Value)
			return
		}
		v.SetFloat(f)
	default:
		panic("manifest: no YAML decoding for " + t.String()) // an api type the decoder does not know
	}
}

func (d *objDecoder) intOrString(n *yaml.Node, v reflect.Value, path string) {
	if n.Kind == yaml.ScalarNode {
		switch n.ShortTag() {
		case "!!int":
			i, err := strconv.ParseInt(n.Value, 0, 32)
			if err != nil {
				d.fail(n, "%s: invalid value: %s is out of range for an int32", d.where(path), n.Value)
				return
			}
			v.Set(reflect.ValueOf(api.FromInt(int32(i))))
			return
		case "!!str":
			v.Set(reflect.ValueOf(api.FromString(n.Value)))
			return
		}
	}
	d.typeError(n, path, "integer or string")
}

// checkMappings reports repeated keys anywhere under n.
func (d *objDecoder) checkMappings(n *yaml.Node) bool {
	n = yamlpos.Resolve(n)
	ok := true
	if n.Kind == yaml.MappingNode {
		if _, err := yamlpos.Pairs(n, d.pm); err != nil {
			*d.errs = append(*d.errs, err)
			return false
		}
	}
	for _, c := range n.Content {
		ok = d.checkMappings(c) && ok
	}
	return ok
}

// mapping returns the entries of a mapping node, or reports what n is instead.
func (d *objDecoder) mapping(n *yaml.Node, path string) ([]yamlpos.Pair, bool) {
	if n.Kind != yaml.MappingNode {
		d.typeError(n, path, "object")
		return nil, false
	}
	ps, err := yamlpos.Pairs(n, d.pm)
	if err != nil {
		*d.errs = append(*d.errs, err)
		return nil, false
	}
	return ps, true
}

// object decodes a mapping into a struct, field by field.
func (d *objDecoder) object(n *yaml.Node, v reflect.Value, path string) {
	ps, ok := d.mapping(n, path)
	if !ok {
		return
	}
	fields := fieldsOf(v.Type())
	for _, p := range ps {
		key := yamlpos.Resolve(p.Key).Value
		f, ok := fields.byName[key]
		if path == "" && d.top != nil && key != "apiVersion" && key != "kind" && key != "metadata" {
			// A kind the engine stores but does not simulate: its own
			// top-level fields, spec and data decoded loosely.
			switch {
			case !slices.Contains(d.top, key):
				d.unknownField(p.Key, key)
			case ok && f.index != nil:
				d.decode(p.Value, api.FieldByIndex(v, f.index, true), key)
			case key != "status":
				if u, isU := v.Addr().Interface().(*api.Unstructured); isU && d.checkMappings(p.Value) {
					if u.Fields == nil {
						u.Fields = map[string]any{}
					}
					u.Fields[key] = freeForm(p.Value)
				}
			}
			continue
		}
		switch {
		case ok && f.index == nil:
			// A field Kubernetes knows but the engine sets itself (timestamps).
		case ok:
			d.decode(p.Value, api.FieldByIndex(v, f.index, true), join(path, key))
		case d.strict:
			in := ""
			if path != "" {
				in = " in " + path
			}
			d.fail(p.Key, "unknown field %q%s; expected one of %s", key, in, strings.Join(fields.names, ", "))
		default:
			d.unknownField(p.Key, join(path, key))
		}
	}
}

// unknownField records a field the object's kind does not have: an error
// when validating strictly, else a warning, as kubectl prints them.
func (d *objDecoder) unknownField(key *yaml.Node, path string) {
	if d.unknown != nil {
		*d.unknown = append(*d.unknown, unknownField{path: path, key: key})
		return
	}
	*d.warns = append(*d.warns, fmt.Sprintf("%s: Warning: unknown field %q", d.pm.Of(key), path))
}

// structFields are the YAML field names of a struct type.
type structFields struct {
	byName map[string]fieldInfo
	names  []string // in declaration order, for "expected one of"
}

type fieldInfo struct {
	index []int // nil: known but not decoded (yaml:"-")
}

var fieldCache sync.Map // reflect.Type → *structFields

// fieldsOf returns the YAML fields of a struct type. A field Kubernetes
// knows that the YAML decoding skips (yaml:"-", such as timestamps the
// engine sets) is known by its JSON name, with a nil index.
func fieldsOf(t reflect.Type) *structFields {
	if f, ok := fieldCache.Load(t); ok {
		return f.(*structFields)
	}
	sf := &structFields{byName: map[string]fieldInfo{}}
	yamlFields, names := api.TaggedFields(t, "yaml")
	for name, f := range yamlFields { // a map copied into a map: order cannot matter
		sf.byName[name] = fieldInfo{index: f.Index}
	}
	sf.names = names
	known, _ := api.TaggedFields(t, "json")
	for name := range known { // lookups and inserts only: order cannot matter
		if _, ok := sf.byName[name]; !ok {
			sf.byName[name] = fieldInfo{}
		}
	}
	fieldCache.Store(t, sf)
	return sf
}

// DecodeValue decodes n into the value dst points to (a field of the
// scenario format that holds api types: a node's labels, its taints),
// strictly: unknown fields are errors. Problems are added to errs at their
// place; path names the field in them ("cluster.nodes[0].taints").
func DecodeValue(n *yaml.Node, dst any, path string, src yamlpos.Source, errs *yamlpos.ErrorList) {
	var warns []string
	d := &objDecoder{pm: src, strict: true, errs: errs, warns: &warns}
	d.decode(n, reflect.ValueOf(dst).Elem(), path)
}

// freeForm is a free-form value (a field the engine keeps as any or
// map[string]any: a probe's httpGet, a volume's hostPath, an unsimulated
// kind's spec) as the API server holds it: what JSON gives, numbers
// float64. A manifest's object is then the same Go value as the same object
// read back from JSON (an apply's three-way merge, a patch), so that
// comparing the two (a Deployment's template with its ReplicaSet's) finds
// no difference where the text has none.
func freeForm(n *yaml.Node) any {
	v := yamlpos.Generic(n)
	if i, ok := v.(int64); ok {
		return float64(i)
	}
	box := map[string]any{"": v}
	if jsonShape(box) {
		return box[""]
	}
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	if json.Unmarshal(b, &out) != nil {
		return v
	}
	return out
}
