package merge

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"reconcile/engine/api"
)

// LastApplied is the annotation where kubectl apply keeps the manifest it
// applied, so that the next apply knows which fields it set.
const LastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// Config is an object's own fields as a manifest would give them, for an
// object that comes without the text it was written as: no status, none
// of the fields the API server sets.
func Config(obj api.Object) map[string]any {
	cfg, _ := jsonOf(obj).(map[string]any)
	delete(cfg, "status")
	if meta, ok := cfg["metadata"].(map[string]any); ok {
		for _, k := range []string{"creationTimestamp", "uid", "resourceVersion", "generation"} {
			delete(meta, k)
		}
	}
	return cfg
}

// Modified returns the last-applied annotation's value for a manifest
// (compact JSON with the annotation itself removed, "annotations" kept
// even when empty, a newline at the end, as kubectl encodes it) and the
// manifest with the annotation set to it: what kubectl merges.
func Modified(config map[string]any) (string, map[string]any) {
	cfg, _ := jsonOf(config).(map[string]any)
	if cfg == nil {
		cfg = map[string]any{}
	}
	meta, ok := cfg["metadata"].(map[string]any)
	if !ok {
		meta = map[string]any{}
		cfg["metadata"] = meta
	}
	annotations, ok := meta["annotations"].(map[string]any)
	if !ok {
		annotations = map[string]any{}
	}
	delete(annotations, LastApplied)
	meta["annotations"] = annotations
	var b strings.Builder
	json.NewEncoder(&b).Encode(cfg)
	applied := b.String()
	annotations[LastApplied] = applied
	return applied, cfg
}

// Annotated returns a copy of obj carrying the annotation value applied.
func Annotated(obj api.Object, applied string) api.Object {
	o := obj.DeepCopyObject()
	if o.Meta().Annotations == nil {
		o.Meta().Annotations = map[string]string{}
	}
	o.Meta().Annotations[LastApplied] = applied
	return o
}

// Result is what an apply makes of a live object.
type Result struct {
	// Next is the merged object to write; nil when Patch is empty.
	Next api.Object
	// Patch is the strategic merge patch kubectl would send; empty means
	// nothing to send ("unchanged").
	Patch map[string]any
	// Live and Want are the live object and the manifest, JSON-shaped and
	// trimmed to the fields the engine keeps, for describing the patch.
	Live, Want map[string]any
	// Unannotated reports that the live object had no last-applied
	// annotation (kubectl warns, and merges with nothing to remove).
	Unannotated bool
}

// Object merges a modified configuration (from Modified) into the live
// object, with the live object's annotation as the original. Fields the
// engine's types do not hold (the manifest decoder warned of them) are
// left out of the comparison, or every apply would find them missing.
func Object(live api.Object, modified map[string]any) (Result, error) {
	var original map[string]any
	last, annotated := live.Meta().Annotations[LastApplied]
	if annotated {
		json.Unmarshal([]byte(last), &original)
	}
	t := reflect.TypeOf(live).Elem()
	current, _ := jsonOf(live).(map[string]any)
	original, _ = known(original, t).(map[string]any)
	modified, _ = known(modified, t).(map[string]any)
	merged, patched := ThreeWay(original, modified, current)
	r := Result{Live: current, Want: modified, Unannotated: !annotated}
	if !patched {
		return r, nil
	}
	r.Patch = Patch(original, modified, current)
	raw, err := json.Marshal(merged)
	if err != nil {
		return r, err
	}
	next := reflect.New(t).Interface().(api.Object)
	if err := json.Unmarshal(raw, next); err != nil {
		return r, fmt.Errorf("error: the merged %s does not decode: %v", live.GetTypeMeta().Kind, err)
	}
	r.Next = next
	return r, nil
}

// jsonOf is v as encoding/json decodes its JSON (numbers float64).
func jsonOf(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
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
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem() // a pod's rare fields, out of line
			}
			if ft, ok := jsonField(et, name); ok {
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
