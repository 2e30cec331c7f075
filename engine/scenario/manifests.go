package scenario

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"reconcile/engine/api"
	"reconcile/engine/validation"
)

// simulatedKind is a kind the engine decodes into its own struct.
type simulatedKind struct {
	apiVersion string
	new        func() api.Object
}

// simulatedKinds maps a kind to its API version and struct. Every other kind
// is kept as *api.Unstructured: stored and listed, "not simulated".
var simulatedKinds = map[string]simulatedKind{
	"Deployment":    {"apps/v1", func() api.Object { return &api.Deployment{} }},
	"ReplicaSet":    {"apps/v1", func() api.Object { return &api.ReplicaSet{} }},
	"Pod":           {"v1", func() api.Object { return &api.Pod{} }},
	"Node":          {"v1", func() api.Object { return &api.Node{} }},
	"Event":         {"v1", func() api.Object { return &api.Event{} }},
	"Lease":         {"coordination.k8s.io/v1", func() api.Object { return &api.Lease{} }},
	"Job":           {"batch/v1", func() api.Object { return &api.Job{} }},
	"ResourceQuota": {"v1", func() api.Object { return &api.ResourceQuota{} }},
	"ValidatingWebhookConfiguration": {"admissionregistration.k8s.io/v1", func() api.Object {
		return &api.ValidatingWebhookConfiguration{}
	}},
}

// DecodeManifests decodes multi-document Kubernetes YAML, as `kubectl apply
// -f` reads it. file names the file in errors; line and col are where text
// starts in that file (1, 1 for a file of its own), so that positions point
// into it. For a `manifests: |` block that is the line after the key, at the
// block's indentation.
//
// Deployments, ReplicaSets, Pods and Nodes (and Events and Leases) decode
// into their api structs; every other kind into *api.Unstructured. Objects
// are as written, except that namespaced ones get the namespace "default"
// when they name none; the API server's other defaults come later.
//
// Unknown fields are warnings, kept in each Manifest's Warnings. Malformed
// YAML, a wrong type, a missing apiVersion or kind, or a broken limit is an
// ErrorList naming file:line:column, and nothing is returned.
func DecodeManifests(file string, text string, line, col int) ([]Manifest, error) {
	ds, err := decodeManifests(text, posMap{file: file, line: line, col: col}, newBudget())
	if err != nil {
		return nil, err
	}
	out := make([]Manifest, len(ds))
	for i, d := range ds {
		out[i] = d.Manifest
	}
	return out, nil
}

// decoded is a manifest with the YAML it came from, so later checks can point
// at a field.
type decoded struct {
	Manifest
	node *yaml.Node
	pm   posMap
}

func decodeManifests(text string, pm posMap, b *budget) ([]decoded, error) {
	if len(text) > MaxFileSize {
		return nil, ErrorList{{Pos: pm.at(1, 1), Msg: sizeMsg(len(text))}}
	}
	docs, err := parseDocs(text, pm, b)
	if err != nil {
		return nil, err
	}
	return manifestsFromDocs(docs, pm, b)
}

func sizeMsg(n int) string {
	return fmt.Sprintf("file too large: %d bytes; the limit is %d bytes (MaxFileSize, 1 MiB)", n, MaxFileSize)
}

func manifestsFromDocs(docs []*yaml.Node, pm posMap, b *budget) ([]decoded, error) {
	var out []decoded
	var errs ErrorList
	for _, doc := range docs {
		n := content(doc)
		if isNull(n) {
			continue // an empty document, as between two "---"
		}
		errs = append(errs, decodeObjectOrList(n, pm, b, &out)...)
		if b.objects < 0 {
			break
		}
	}
	if err := errs.err(); err != nil {
		return nil, err
	}
	return out, nil
}

func decodeObjectOrList(n *yaml.Node, pm posMap, b *budget, out *[]decoded) ErrorList {
	if n.Kind == yaml.MappingNode && scalarAt(n, "kind") == "List" && scalarAt(n, "apiVersion") == "v1" {
		items := lookup(n, "items")
		if items == nil || isNull(items) {
			return nil
		}
		if items.Kind != yaml.SequenceNode {
			return ErrorList{{Pos: pm.of(items), Msg: fmt.Sprintf("List.items: invalid type: got %q, expected \"array\"", typeName(items))}}
		}
		var errs ErrorList
		for _, it := range items.Content {
			if it = resolve(it); it.Kind == yaml.MappingNode && scalarAt(it, "kind") == "List" {
				errs = append(errs, &Error{Pos: pm.of(it), Msg: "a List may not hold another List"})
				continue
			}
			errs = append(errs, decodeObject(it, pm, b, out)...)
		}
		return errs
	}
	return decodeObject(n, pm, b, out)
}

func scalarAt(n *yaml.Node, key string) string {
	if v := lookup(n, key); v != nil && v.Kind == yaml.ScalarNode && !isNull(v) {
		return v.Value
	}
	return ""
}

// decodeObject decodes one Kubernetes object.
func decodeObject(n *yaml.Node, pm posMap, b *budget, out *[]decoded) ErrorList {
	if b.objects--; b.objects < 0 {
		return ErrorList{{Pos: pm.of(n), Msg: fmt.Sprintf("too many objects: the limit is %d objects per file (MaxObjects)", MaxObjects)}}
	}
	if n.Kind != yaml.MappingNode {
		return ErrorList{{Pos: pm.of(n), Msg: fmt.Sprintf("want a Kubernetes object (a mapping with apiVersion, kind and metadata), got %s", article(typeName(n)))}}
	}
	var errs ErrorList
	for _, f := range []struct{ key, name string }{{"apiVersion", "apiVersion"}, {"kind", "Kind"}} {
		v := lookup(n, f.key)
		if v == nil || isNull(v) || (v.Kind == yaml.ScalarNode && v.Value == "") {
			return ErrorList{{Pos: pm.of(n), Msg: fmt.Sprintf("Object '%s' is missing in '%s'", f.name, compactJSON(n))}}
		}
		if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!str" {
			errs = append(errs, &Error{Pos: pm.of(v), Msg: fmt.Sprintf("%s: invalid type: got %q, expected \"string\"", f.key, typeName(v))})
		}
	}
	if len(errs) > 0 {
		return errs
	}
	apiVersion, kind := scalarAt(n, "apiVersion"), scalarAt(n, "kind")
	var warns []string
	d := &objDecoder{pm: pm, root: kind, errs: &errs, warns: &warns}
	var obj api.Object
	if sk, ok := simulatedKinds[kind]; ok {
		if apiVersion != sk.apiVersion {
			return ErrorList{{Pos: pm.of(lookup(n, "apiVersion")), Msg: fmt.Sprintf(
				"no matches for kind %q in version %q (%ss are %s)", kind, apiVersion, kind, sk.apiVersion)}}
		}
		obj = sk.new()
	} else {
		obj = &api.Unstructured{}
		d.looseTop = true
	}
	d.decode(n, reflect.ValueOf(obj).Elem(), "")
	if len(errs) > 0 {
		return errs
	}
	if m := obj.Meta(); m.Namespace == "" && validation.Namespaced(kind) {
		m.Namespace = validation.DefaultNamespace
	}
	if r := workloadReplicas(obj); r > MaxReplicas {
		at := nodeAt(n, "spec.replicas")
		errs = append(errs, &Error{Pos: pm.of(at), Msg: fmt.Sprintf(
			"%s %q: spec.replicas is %d; the limit is %d replicas per workload (MaxReplicas)", kind, obj.Meta().Name, r, MaxReplicas)})
		return errs
	}
	*out = append(*out, decoded{Manifest: Manifest{Pos: pm.of(n), Object: obj, Warnings: warns}, node: n, pm: pm})
	return nil
}

func workloadReplicas(obj api.Object) int32 {
	switch o := obj.(type) {
	case *api.Deployment:
		return api.Deref(o.Spec.Replicas, 1)
	case *api.ReplicaSet:
		return api.Deref(o.Spec.Replicas, 1)
	}
	return 0
}

func article(s string) string {
	if strings.ContainsRune("aeiou", rune(s[0])) {
		return "an " + s
	}
	return "a " + s
}

// compactJSON renders a node as one line of JSON, shortened when long, for
// messages that quote an object.
func compactJSON(n *yaml.Node) string {
	b, err := json.Marshal(jsonable(generic(n)))
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

// nodeAt returns the node of a field path such as
// "spec.template.spec.containers[0].resources.requests[cpu]" in an object,
// or the deepest node on the way when the path goes further than the YAML.
func nodeAt(n *yaml.Node, path string) *yaml.Node {
	cur := resolve(n)
	for _, seg := range splitFieldPath(path) {
		var next *yaml.Node
		if i, err := strconv.Atoi(seg); err == nil && cur.Kind == yaml.SequenceNode {
			if i >= 0 && i < len(cur.Content) {
				next = resolve(cur.Content[i])
			}
		} else if cur.Kind == yaml.MappingNode {
			ps, _ := pairs(cur, posMap{})
			for _, p := range ps {
				if resolve(p.key).Value == seg {
					next = resolve(p.value)
					if next.Kind == yaml.ScalarNode || isNull(next) {
						// Point at the key when the value is a plain scalar:
						// "replicas: -1" reads best from its start.
						if next.Line != p.key.Line {
							next = p.key
						}
					}
				}
			}
		}
		if next == nil {
			break
		}
		cur = next
	}
	return cur
}

// splitFieldPath splits "a.b[0].c[key.with.dots]" into a, b, 0, c, key.with.dots.
func splitFieldPath(path string) []string {
	var out []string
	for path != "" {
		switch path[0] {
		case '.':
			path = path[1:]
		case '[':
			end := strings.IndexByte(path, ']')
			if end < 0 {
				return append(out, path[1:])
			}
			out = append(out, path[1:end])
			path = path[end+1:]
		default:
			end := strings.IndexAny(path, ".[")
			if end < 0 {
				end = len(path)
			}
			out = append(out, path[:end])
			path = path[end:]
		}
	}
	return out
}
