package kubectl

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/merge"
	"reconcile/engine/store"
)

// LastAppliedAnnotation is where kubectl apply keeps the manifest it
// applied, so that the next apply knows which fields it set.
const LastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"

// Apply is `kubectl apply -f` (client-side apply, kubectl's default) of one
// object. config is the object as written (manifest.Manifest.Config); nil
// means obj's own fields.
//
// A new object is created with the last-applied-configuration annotation:
// the manifest as compact JSON, the annotation itself left out. An
// existing one gets the three-way merge of package merge: what the
// manifest sets wins, what it dropped since the last apply is removed,
// what other writers set stays. It returns kubectl's word for what
// happened ("created", "configured", "unchanged"), the warning kubectl
// prints first when the live object has no annotation, and the API
// server's error, if any. A metadata.resourceVersion in the manifest is a
// precondition: when it is not the live one, the write is a Conflict.
func Apply(st *store.Store, obj api.Object, config map[string]any) (result, warning string, err error) {
	if config == nil {
		config = configOf(obj)
	}
	applied, modified := lastApplied(config)
	kind := obj.GetTypeMeta().Kind
	m := obj.Meta()
	live := st.Get(kind, m.Namespace, m.Name)
	if live == nil {
		o := obj.DeepCopyObject()
		if o.Meta().Annotations == nil {
			o.Meta().Annotations = map[string]string{}
		}
		o.Meta().Annotations[LastAppliedAnnotation] = applied
		if _, err := st.Create(o); err != nil {
			return "", "", err
		}
		return "created", "", nil
	}
	var original map[string]any
	if last, ok := live.Meta().Annotations[LastAppliedAnnotation]; ok {
		json.Unmarshal([]byte(last), &original)
	} else {
		k, _ := api.KindOf(kind)
		warning = fmt.Sprintf("Warning: resource %s/%s is missing the %s annotation which is required by kubectl apply. "+
			"kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. "+
			"The missing annotation will be patched automatically.\n", k.Resource, m.Name, LastAppliedAnnotation)
	}
	t := reflect.TypeOf(live).Elem()
	current, _ := toJSON(live).(map[string]any)
	current = plainNumbers(current).(map[string]any)
	// Fields the engine does not simulate were dropped from the live
	// object (the decoder warned of them); they are left out of the
	// comparison too, or every apply would say "configured".
	original, _ = known(original, t).(map[string]any)
	modified, _ = known(modified, t).(map[string]any)
	merged, patched := merge.ThreeWay(original, modified, current)
	if !patched {
		return "unchanged", warning, nil
	}
	raw, err := json.Marshal(merged)
	if err != nil {
		return "", warning, err
	}
	next := reflect.New(t).Interface().(api.Object)
	if err := json.Unmarshal(raw, next); err != nil {
		return "", warning, fmt.Errorf("error: the merged %s does not decode: %v", kind, err)
	}
	if _, err := st.Update(next); err != nil {
		patch, _ := json.Marshal(merge.Patch(original, modified, current))
		k, _ := api.KindOf(kind)
		return "", warning, &PatchError{Patch: string(patch), Kind: k, Name: m.Name, Namespace: m.Namespace, Err: err}
	}
	return "configured", warning, nil
}

// PatchError is the API server's refusal of the patch kubectl apply sent
// for an existing object. Its text is kubectl's: the patch, the object it
// was for, and the server's message.
type PatchError struct {
	// Patch is the strategic merge patch, as kubectl sends it.
	Patch     string
	Kind      api.Kind
	Name      string
	Namespace string
	Err       error
}

func (e *PatchError) Unwrap() error { return e.Err }

// Error renders the refusal as kubectl prints it. An invalid object is
// reported as kubectl reports any ("The Pod "x" is invalid: …"); every
// other refusal names the patch and the object:
//
//	Error from server (Conflict): error when applying patch:
//	{"spec":{"replicas":5}}
//	to:
//	Resource: "apps/v1, Resource=deployments", GroupVersionKind: "apps/v1, Kind=Deployment"
//	Name: "web", Namespace: "default"
//	for: "STDIN": error when patching "STDIN": Operation cannot be fulfilled on …
func (e *PatchError) Error() string {
	msg := e.Err.Error()
	if strings.HasPrefix(msg, "The ") {
		return msg
	}
	reason := "InternalError"
	if se, ok := e.Err.(*store.StatusError); ok {
		reason = se.Reason
	}
	return fmt.Sprintf("Error from server (%s): error when applying patch:\n%s\nto:\nResource: %q, GroupVersionKind: %q\nName: %q, Namespace: %q\nfor: %q: error when patching %q: %s",
		reason, e.Patch, e.Kind.Group+"/"+e.Kind.Version+", Resource="+e.Kind.Resource, e.Kind.Group+"/"+e.Kind.Version+", Kind="+e.Kind.Name,
		e.Name, e.Namespace, "STDIN", "STDIN", msg)
}

// lastApplied returns the annotation's value for config (compact JSON,
// the annotation itself removed, "annotations" kept even when empty, a
// newline at the end, as kubectl encodes it) and config with the
// annotation set to it: the modified configuration kubectl merges.
func lastApplied(config map[string]any) (string, map[string]any) {
	cfg := plainCopy(config).(map[string]any)
	meta, ok := cfg["metadata"].(map[string]any)
	if !ok {
		meta = map[string]any{}
		cfg["metadata"] = meta
	}
	annotations, ok := meta["annotations"].(map[string]any)
	if !ok {
		annotations = map[string]any{}
	}
	delete(annotations, LastAppliedAnnotation)
	meta["annotations"] = annotations
	var b strings.Builder
	json.NewEncoder(&b).Encode(cfg)
	applied := b.String()
	annotations[LastAppliedAnnotation] = applied
	return applied, cfg
}

// configOf is an object's own fields as a manifest would give them: no
// status, no fields the API server sets.
func configOf(obj api.Object) map[string]any {
	cfg, _ := plainNumbers(toJSON(obj)).(map[string]any)
	delete(cfg, "status")
	if meta, ok := cfg["metadata"].(map[string]any); ok {
		for _, k := range []string{"creationTimestamp", "uid", "resourceVersion", "generation"} {
			delete(meta, k)
		}
	}
	return cfg
}

// plainNumbers turns toJSON's json.Number values into float64, as
// encoding/json decodes numbers by default.
func plainNumbers(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t { // each value replaced in place: order cannot matter
			t[k] = plainNumbers(e)
		}
	case []any:
		for i, e := range t {
			t[i] = plainNumbers(e)
		}
	case json.Number:
		f, _ := t.Float64()
		return f
	}
	return v
}

// plainCopy copies JSON-shaped data.
func plainCopy(v any) any {
	b, _ := json.Marshal(v)
	var out any
	json.Unmarshal(b, &out)
	return out
}

// known returns a copy of v without the fields Go type t has no place
// for. Free-form parts (map[string]any, any) are kept whole.
func known(v any, t reflect.Type) any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch x := v.(type) {
	case map[string]any:
		switch t.Kind() {
		case reflect.Map:
			out := make(map[string]any, len(x))
			for k, e := range x { // each key copied: order cannot matter
				out[k] = known(e, t.Elem())
			}
			return out
		case reflect.Struct:
			out := make(map[string]any, len(x))
			for k, e := range x { // each key copied: order cannot matter
				if f, ok := jsonField(t, k); ok {
					out[k] = known(e, f)
				}
			}
			return out
		}
	case []any:
		if t.Kind() == reflect.Slice {
			out := make([]any, len(x))
			for i, e := range x {
				out[i] = known(e, t.Elem())
			}
			return out
		}
	}
	return v
}

// jsonField finds the type of the field of struct t named name in JSON,
// looking into inlined (embedded) structs.
func jsonField(t reflect.Type, name string) (reflect.Type, bool) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && tag == "" {
			if ft, ok := jsonField(f.Type, name); ok {
				return ft, true
			}
			continue
		}
		if tag == name || (tag == "" && f.Name == name) {
			return f.Type, true
		}
	}
	return nil, false
}
