package manifest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"reconcile/engine/api"
	"reconcile/engine/kinds"
	"reconcile/engine/limits"
	"reconcile/engine/validation"
	"reconcile/engine/yamlpos"
)

// Manifest is one Kubernetes object of a YAML text, decoded.
type Manifest struct {
	// Pos is where the object starts in its file.
	Pos    yamlpos.Pos
	Object api.Object
	// Warnings are the unknown fields of this document when decoded with
	// Warn, as kubectl warns ("file:line:col: Warning: unknown field
	// \"spec.replica\"").
	Warnings []string
	// Config is the object as written, JSON-shaped (objects, lists,
	// strings, float64 numbers, bools), with the namespace filled in as
	// kubectl fills it: what kubectl apply records in the
	// last-applied-configuration annotation and merges into the live
	// object.
	Config map[string]any
	// Refused, decoded with RefuseEach, is the API server's strict
	// decoding error for this object as kubectl apply prints it; the
	// object is not to be applied.
	Refused string
}

// Decode decodes multi-document Kubernetes YAML, as `kubectl apply -f`
// reads it. file names the file in errors; line and col are where text
// starts in that file (1, 1 for a file of its own), so that positions point
// into it. For a `manifests: |` block that is the line after the key, at the
// block's indentation.
//
// The kinds the engine simulates (api.Kind.Simulated) decode into their api
// structs; every other kind into *api.Unstructured. Objects
// are as written, except that namespaced ones get the namespace "default"
// when they name none; the API server's other defaults come later.
//
// Unknown fields are refused (Strict, see DecodeTextAs for Warn, which
// keeps them as each Manifest's Warnings). Malformed
// YAML, a wrong type, a missing apiVersion or kind, or a broken limit is an
// ErrorList naming file:line:column, and nothing is returned.
func Decode(file string, text string, line, col int) ([]Manifest, error) {
	ds, err := DecodeText(text, yamlpos.Source{File: file, Line: line, Col: col}, yamlpos.NewBudget())
	if err != nil {
		return nil, err
	}
	out := make([]Manifest, len(ds))
	for i, d := range ds {
		out[i] = d.Manifest
	}
	return out, nil
}

// Decoded is a manifest with the YAML it came from, so that later checks
// (the API server's validation, at load time) can point at a field.
type Decoded struct {
	Manifest
	// Node is the object's mapping.
	Node *yaml.Node
	// Source places Node's positions in the file.
	Source yamlpos.Source
}

// At returns the position of a field path ("spec.replicas") of the object,
// or of the deepest part of it the YAML has.
func (d Decoded) At(path string) yamlpos.Pos { return d.Source.Of(yamlpos.NodeAt(d.Node, path)) }

// DecodeText decodes a YAML text that sits at src in its file, charging
// what it holds to b (one budget per file, shared by every text in it).
func DecodeText(text string, src yamlpos.Source, b *yamlpos.Budget) ([]Decoded, error) {
	return DecodeTextAs(text, src, b, Strict)
}

// DecodeTextAs is DecodeText with unknown fields treated as v says.
func DecodeTextAs(text string, src yamlpos.Source, b *yamlpos.Budget, v Validation) ([]Decoded, error) {
	if len(text) > limits.MaxFileSize {
		return nil, yamlpos.ErrorList{{Pos: src.At(1, 1), Msg: SizeMessage(len(text))}}
	}
	docs, err := yamlpos.Parse(text, src, b)
	if err != nil {
		return nil, err
	}
	return DecodeDocsAs(docs, src, b, v)
}

// SizeMessage refuses a file of n bytes, naming the limit.
func SizeMessage(n int) string {
	return fmt.Sprintf("file too large: %d bytes; the limit is %d bytes (MaxFileSize, 1 MiB)", n, limits.MaxFileSize)
}

// DecodeDocs decodes parsed YAML documents (a List is its items; empty
// documents are skipped).
func DecodeDocs(docs []*yaml.Node, src yamlpos.Source, b *yamlpos.Budget) ([]Decoded, error) {
	return DecodeDocsAs(docs, src, b, Strict)
}

// DecodeDocsAs is DecodeDocs with unknown fields treated as v says.
func DecodeDocsAs(docs []*yaml.Node, src yamlpos.Source, b *yamlpos.Budget, v Validation) ([]Decoded, error) {
	var out []Decoded
	var errs yamlpos.ErrorList
	for _, doc := range docs {
		n := yamlpos.Content(doc)
		if yamlpos.IsNull(n) {
			continue // an empty document, as between two "---"
		}
		errs = append(errs, decodeObjectOrList(n, src, b, v, &out)...)
		if b.Objects < 0 {
			break
		}
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

func decodeObjectOrList(n *yaml.Node, pm yamlpos.Source, b *yamlpos.Budget, v Validation, out *[]Decoded) yamlpos.ErrorList {
	if n.Kind == yaml.MappingNode && scalarAt(n, "kind") == "List" && scalarAt(n, "apiVersion") == "v1" {
		items := yamlpos.Lookup(n, "items")
		if items == nil || yamlpos.IsNull(items) {
			return nil
		}
		if items.Kind != yaml.SequenceNode {
			return yamlpos.ErrorList{{Pos: pm.Of(items), Msg: fmt.Sprintf("List.items: invalid type: got %q, expected \"array\"", yamlpos.TypeName(items))}}
		}
		var errs yamlpos.ErrorList
		for _, it := range items.Content {
			if it = yamlpos.Resolve(it); it.Kind == yaml.MappingNode && scalarAt(it, "kind") == "List" {
				errs = append(errs, &yamlpos.Error{Pos: pm.Of(it), Msg: "a List may not hold another List"})
				continue
			}
			errs = append(errs, decodeObject(it, pm, b, v, out)...)
		}
		return errs
	}
	return decodeObject(n, pm, b, v, out)
}

func scalarAt(n *yaml.Node, key string) string {
	if v := yamlpos.Lookup(n, key); v != nil && v.Kind == yaml.ScalarNode && !yamlpos.IsNull(v) {
		return v.Value
	}
	return ""
}

// decodeObject decodes one Kubernetes object.
func decodeObject(n *yaml.Node, pm yamlpos.Source, b *yamlpos.Budget, v Validation, out *[]Decoded) yamlpos.ErrorList {
	if b.Objects--; b.Objects < 0 {
		return yamlpos.ErrorList{{Pos: pm.Of(n), Msg: fmt.Sprintf("too many objects: the limit is %d objects per file (MaxObjects)", limits.MaxObjects)}}
	}
	if n.Kind != yaml.MappingNode {
		return yamlpos.ErrorList{{Pos: pm.Of(n), Msg: fmt.Sprintf("want a Kubernetes object (a mapping with apiVersion, kind and metadata), got %s", yamlpos.Article(yamlpos.TypeName(n)))}}
	}
	var errs yamlpos.ErrorList
	for _, f := range []struct{ key, name string }{{"apiVersion", "apiVersion"}, {"kind", "Kind"}} {
		v := yamlpos.Lookup(n, f.key)
		if v == nil || yamlpos.IsNull(v) || (v.Kind == yaml.ScalarNode && v.Value == "") {
			return yamlpos.ErrorList{{Pos: pm.Of(n), Msg: fmt.Sprintf("Object '%s' is missing in '%s'", f.name, compactJSON(n))}}
		}
		if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!str" {
			errs = append(errs, &yamlpos.Error{Pos: pm.Of(v), Msg: fmt.Sprintf("%s: invalid type: got %q, expected \"string\"", f.key, yamlpos.TypeName(v))})
		}
	}
	if len(errs) > 0 {
		return errs
	}
	apiVersion, kind := scalarAt(n, "apiVersion"), scalarAt(n, "kind")
	var warns []string
	d := &objDecoder{pm: pm, root: kind, errs: &errs, warns: &warns}
	var unknown []unknownField
	if v == Strict || v == RefuseEach {
		d.unknown = &unknown
	}
	k, known := api.KindOf(kind)
	if !known || !served(k, apiVersion) {
		at := yamlpos.Lookup(n, "kind")
		if known {
			at = yamlpos.Lookup(n, "apiVersion")
		}
		return yamlpos.ErrorList{{Pos: pm.Of(at), Msg: noMatch(n, pm.File, kind, apiVersion)}}
	}
	var obj api.Object
	if k.Simulated() {
		obj = k.New()
	} else {
		obj = &api.Unstructured{}
		d.top = storedFields(kind)
	}
	body := n
	if kind == "HorizontalPodAutoscaler" && apiVersion == "autoscaling/v1" {
		var v1only []unknownField
		body, v1only = hpaV1(n)
		for _, f := range v1only {
			d.unknownField(f.key, f.path)
		}
	}
	d.decode(body, reflect.ValueOf(obj).Elem(), "")
	if !k.Simulated() {
		d.checkPodTemplate(n, kind)
		d.checkStringMaps(n, kind)
	}
	refused := ""
	if len(unknown) > 0 && v == RefuseEach {
		refused = strictError("STDIN", kind, apiVersion, unknown)
	} else if len(unknown) > 0 {
		errs = append(errs, &yamlpos.Error{Pos: pm.Of(unknown[0].key), Msg: strictError(pm.File, kind, apiVersion, unknown)})
	}
	if len(errs) > 0 {
		return errs
	}
	if m := obj.Meta(); m.Namespace == "" && validation.Namespaced(kind) {
		m.Namespace = validation.DefaultNamespace
	}
	if r := workloadReplicas(obj); r > limits.MaxReplicas {
		at := yamlpos.NodeAt(n, "spec.replicas")
		errs = append(errs, &yamlpos.Error{Pos: pm.Of(at), Msg: fmt.Sprintf(
			"%s %q: spec.replicas is %d; the limit is %d replicas per workload (MaxReplicas)", kind, obj.Meta().Name, r, limits.MaxReplicas)})
		return errs
	}
	*out = append(*out, Decoded{Manifest: Manifest{Pos: pm.Of(n), Object: obj, Warnings: warns, Config: configOf(n, obj), Refused: refused}, Node: n, Source: pm})
	return nil
}

// configOf renders an object's mapping as JSON-shaped data, with obj's
// namespace when the mapping names none.
func configOf(n *yaml.Node, obj api.Object) map[string]any {
	data := jsonable(yamlpos.Generic(n))
	cfg, ok := jsonShaped(data)
	if !ok {
		cfg = jsonRoundTrip(data)
	}
	if cfg == nil {
		return nil
	}
	if ns := obj.Meta().Namespace; ns != "" {
		meta, ok := cfg["metadata"].(map[string]any)
		if !ok {
			meta = map[string]any{}
			cfg["metadata"] = meta
		}
		if _, named := meta["namespace"]; !named {
			meta["namespace"] = ns
		}
	}
	return cfg
}

func workloadReplicas(obj api.Object) int32 {
	if r := kinds.Replicas(obj); r != nil {
		return api.Deref(*r, 1)
	}
	return 0
}

// compactJSON renders a node as one line of JSON, shortened when long, for
// messages that quote an object.
func compactJSON(n *yaml.Node) string {
	b, err := json.Marshal(jsonable(yamlpos.Generic(n)))
	if err != nil {
		return "?"
	}
	const max = 120
	if s := string(b); len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return s[:cut] + "..."
	}
	return string(b)
}

// jsonable makes generic YAML data encodable (NaN and infinities are not).
func jsonable(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t { // each value replaced in place: order cannot matter
			t[k] = jsonable(e)
		}
	case []any:
		for i, e := range t {
			t[i] = jsonable(e)
		}
	case float64:
		if t != t || t > 1e308 || t < -1e308 {
			return strconv.FormatFloat(t, 'g', -1, 64)
		}
	}
	return v
}
