package kubectl

import (
	"encoding/json"
	"errors"
	"fmt"
	"reconcile/engine/kinds"
	"reconcile/engine/merge"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"reconcile/engine/api"
	"reconcile/engine/limits"
	"reconcile/engine/yamlpos"
)

// patch changes objects with a patch (kubectl patch TYPE/NAME -p PATCH):
// --type=strategic (the default: lists of containers, env, ports and
// volumes merge by their key), merge (RFC 7386) or json (RFC 6902).
func (k *cmd) patch() (string, error) {
	payload := k.in.String("patch", "")
	if payload == "" {
		return "", errors.New("error: must specify --patch or --patch-file containing the contents of the patch")
	}
	typ := k.in.String("type", "strategic")
	switch typ {
	case "json", "merge", "strategic":
	default:
		return "", fmt.Errorf("error: --type must be one of [json merge strategic], not %q", typ)
	}
	sub := k.in.String("subresource", "")
	if sub != "" && sub != "status" && sub != "scale" {
		return "", fmt.Errorf("error: invalid subresource value: %q. Must be one of [status scale]", sub)
	}
	p, err := parsePatchPayload(payload)
	if err != nil {
		return "", err
	}
	pr, err := k.newPrinter(printFormats)
	if err != nil {
		return "", err
	}
	if len(k.in.Args) == 0 {
		return "", errNoResources
	}
	objs, errs, err := k.resolve(k.in.Args, false)
	if err != nil {
		return "", err
	}
	if len(objs) == 0 && len(errs) == 0 {
		return "", errors.New("error: no objects passed to patch")
	}
	var b strings.Builder
	for _, f := range objs {
		var out api.Object
		var changed bool
		if sub == "scale" {
			out, changed, err = k.patchScale(f, typ, p)
			f.kind = scaleKind // kubectl names what the server returned
		} else {
			out, changed, err = k.patchOne(f, typ, p, sub == "status")
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		what := "patched"
		if !changed {
			what = "patched (no change)"
		}
		s, _ := k.done(pr, f.kind, out, what)
		b.WriteString(s)
	}
	return b.String(), errorsText(errs)
}

func (k *cmd) patchOne(f found, typ string, p any, status bool) (api.Object, bool, error) {
	next, err := patchDoc(toJSON(f.obj), typ, p)
	if err != nil {
		return nil, false, err
	}
	raw, _ := json.Marshal(next)
	fresh := reflect.New(reflect.TypeOf(f.obj).Elem()).Interface().(api.Object)
	if err := json.Unmarshal(raw, fresh); err != nil {
		return nil, false, fmt.Errorf("error: the patch does not fit a %s: %v", f.kind.Name, err)
	}
	// The API server's checkName: the patched object names the one patched.
	if n := fresh.Meta().Name; n != f.obj.Meta().Name {
		return nil, false, statusError("BadRequest", "the name of the object (%s) does not match the name on the URL (%s)", n, f.obj.Meta().Name)
	}
	if ns := fresh.Meta().Namespace; ns != "" && f.obj.Meta().Namespace != "" && ns != f.obj.Meta().Namespace {
		return nil, false, statusError("BadRequest", "the namespace of the object (%s) does not match the namespace on the URL (%s)", ns, f.obj.Meta().Namespace)
	}
	if r := kinds.Replicas(fresh); r != nil {
		if err := checkReplicas(api.Deref(*r, 1)); err != nil {
			return nil, false, err
		}
	}
	fresh.Meta().ResourceVersion = ""
	var out api.Object
	if status {
		out, err = k.st.UpdateStatus(fresh)
	} else {
		out, err = k.write(fresh)
	}
	if err != nil {
		return nil, false, err
	}
	return out, out.Meta().ResourceVersion != f.obj.Meta().ResourceVersion, nil
}

func jsonType(v any) string {
	switch v.(type) {
	case []any:
		return "array"
	case string:
		return "string"
	case json.Number, float64:
		return "number"
	case bool:
		return "bool"
	}
	return "object"
}

// mergePatch applies a JSON merge patch: objects merge, null deletes,
// everything else replaces. With strategic, a list the Kubernetes API
// declares with patchStrategy "merge" (merge.Strategy, the table apply's
// three-way merge reads too) merges item by item on its key, and an item
// {"$patch": "delete", KEY: ...} removes one, and $retainKeys clears the
// fields of cur it does not name; path is the field path of cur.
func mergePatch(path string, cur, patch map[string]any, strategic bool) map[string]any {
	if cur == nil {
		cur = map[string]any{}
	}
	for _, key := range sortedKeys(patch) {
		if strategic && strings.HasPrefix(key, "$") {
			// A directive of the strategic merge patch: the values a
			// $deleteFromPrimitiveList/FIELD lists leave FIELD's list
			// (before FIELD's own patch: "$" sorts first); the order
			// $setElementOrder/FIELD asks for and $retainKeys are not
			// kept as fields.
			if field, ok := strings.CutPrefix(key, "$deleteFromPrimitiveList/"); ok {
				if cv, ok := cur[field].([]any); ok {
					del, _ := patch[key].([]any)
					cur[field] = slices.DeleteFunc(slices.Clone(cv), func(v any) bool {
						return slices.ContainsFunc(del, func(d any) bool { return reflect.DeepEqual(d, v) })
					})
				}
			}
			if key != "$patch" {
				continue
			}
		}
		at := key
		if path != "" {
			at = path + "." + key
		}
		switch pv := patch[key].(type) {
		case nil:
			delete(cur, key)
		case map[string]any:
			cv, _ := cur[key].(map[string]any)
			cur[key] = mergePatch(at, cv, pv, strategic)
		case []any:
			mk, _, ok := merge.Strategy(at)
			cv, isList := cur[key].([]any)
			if !strategic || !ok || !isList {
				cur[key] = pv
				continue
			}
			cur[key] = mergeList(at, cv, pv, mk)
		default:
			cur[key] = pv
		}
	}
	if keep, ok := patch["$retainKeys"].([]any); ok && strategic {
		// the fields $retainKeys does not name are cleared
		for _, k := range sortedKeys(cur) {
			if !slices.Contains(keep, any(k)) {
				delete(cur, k)
			}
		}
	}
	return cur
}

func mergeList(path string, cur, patch []any, key string) []any {
	out := append([]any(nil), cur...)
	for _, item := range patch {
		pm, ok := item.(map[string]any)
		if !ok {
			continue
		}
		at := -1
		for i, c := range out {
			if cm, ok := c.(map[string]any); ok && fmt.Sprint(cm[key]) == fmt.Sprint(pm[key]) {
				at = i
			}
		}
		if pm["$patch"] == "delete" {
			if at >= 0 {
				out = append(out[:at], out[at+1:]...)
			}
			continue
		}
		if at >= 0 {
			cm, _ := out[at].(map[string]any)
			out[at] = mergePatch(path, cm, pm, true)
		} else {
			out = append(out, pm)
		}
	}
	return patchOrder(out, cur, patch, key)
}

// patchOrder orders a list a strategic merge patch without
// $setElementOrder merged, as the API server does (normalizeElementOrder):
// the patch's items in the patch's order, the live list's other items put
// among them where the live order puts them before one of them (an item
// the live list lacks goes first).
func patchOrder(merged, live, patch []any, key string) []any {
	keyOf := func(v any) string { m, _ := v.(map[string]any); return fmt.Sprint(m[key]) }
	index := func(l []any, v any) int {
		return slices.IndexFunc(l, func(x any) bool { return keyOf(x) == keyOf(v) })
	}
	var ours, theirs []any
	for _, patched := range patch {
		if at := index(merged, patched); at >= 0 && !slices.ContainsFunc(ours, func(x any) bool { return keyOf(x) == keyOf(patched) }) {
			ours = append(ours, merged[at])
		}
	}
	for _, it := range merged {
		if index(ours, it) < 0 {
			theirs = append(theirs, it)
		}
	}
	return merge.Interleave(theirs, ours, func(it any) int { return index(live, it) })
}

// jsonPatch applies RFC 6902 operations: add, remove, replace, move, copy
// and test, with JSON pointers.
func jsonPatch(doc any, ops []any) (any, error) {
	for _, o := range ops {
		op, _ := o.(map[string]any)
		path, _ := op["path"].(string)
		var err error
		switch op["op"] {
		case "add", "replace":
			if op["op"] == "replace" {
				if _, err = pointerGet(doc, path); err != nil {
					return nil, fmt.Errorf("the server rejected our request due to an error in our request")
				}
			}
			doc, err = pointerSet(doc, path, op["value"], op["op"] == "add")
		case "remove":
			doc, err = pointerRemove(doc, path)
		case "move", "copy":
			from, _ := op["from"].(string)
			var v any
			if v, err = pointerGet(doc, from); err == nil {
				if op["op"] == "move" {
					doc, err = pointerRemove(doc, from)
				}
				if err == nil {
					doc, err = pointerSet(doc, path, v, true)
				}
			}
		case "test":
			var v any
			if v, err = pointerGet(doc, path); err == nil && !reflect.DeepEqual(toJSON(v), toJSON(op["value"])) {
				err = fmt.Errorf("testing value %s failed: test failed", path)
			}
		default:
			err = fmt.Errorf("Unexpected kind: %v", op["op"])
		}
		if err != nil {
			return nil, err
		}
	}
	return doc, nil
}

func pointer(path string) []string {
	if path == "" {
		return nil
	}
	parts := strings.Split(strings.TrimPrefix(path, "/"), "/")
	for i, p := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(p, "~1", "/"), "~0", "~")
	}
	return parts
}

func pointerGet(doc any, path string) (any, error) {
	cur := doc
	for _, p := range pointer(path) {
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[p]
			if !ok {
				return nil, fmt.Errorf("jsonpatch: the path %q does not exist", path)
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(c) {
				return nil, fmt.Errorf("jsonpatch: the path %q does not exist", path)
			}
			cur = c[i]
		default:
			return nil, fmt.Errorf("jsonpatch: the path %q does not exist", path)
		}
	}
	return cur, nil
}

// pointerSet sets (or, with insert, adds into a list at) path.
func pointerSet(doc any, path string, v any, insert bool) (any, error) {
	parts := pointer(path)
	if len(parts) == 0 {
		return v, nil
	}
	parent, err := pointerGet(doc, "/"+strings.Join(escape(parts[:len(parts)-1]), "/"))
	if len(parts) == 1 {
		parent, err = doc, nil
	}
	if err != nil {
		return nil, fmt.Errorf("add operation does not apply: doc is missing path: %q", path)
	}
	last := parts[len(parts)-1]
	switch p := parent.(type) {
	case map[string]any:
		p[last] = v
	case []any:
		i := len(p)
		if last != "-" {
			if i, err = strconv.Atoi(last); err != nil || i < 0 || i > len(p) {
				return nil, fmt.Errorf("add operation does not apply: doc is missing path: %q", path)
			}
		}
		var list []any
		if insert {
			list = append(append(append([]any(nil), p[:i]...), v), p[i:]...)
		} else {
			list = append([]any(nil), p...)
			list[i] = v
		}
		return pointerSet(doc, "/"+strings.Join(escape(parts[:len(parts)-1]), "/"), list, false)
	default:
		return nil, fmt.Errorf("add operation does not apply: doc is missing path: %q", path)
	}
	return doc, nil
}

func pointerRemove(doc any, path string) (any, error) {
	parts := pointer(path)
	if _, err := pointerGet(doc, path); err != nil || len(parts) == 0 {
		return nil, fmt.Errorf("remove operation does not apply: doc is missing path: %q", path)
	}
	parentPath := "/" + strings.Join(escape(parts[:len(parts)-1]), "/")
	parent := doc
	if len(parts) > 1 {
		parent, _ = pointerGet(doc, parentPath)
	}
	last := parts[len(parts)-1]
	switch p := parent.(type) {
	case map[string]any:
		delete(p, last)
	case []any:
		i, _ := strconv.Atoi(last)
		list := append(append([]any(nil), p[:i]...), p[i+1:]...)
		if len(parts) == 1 {
			return list, nil
		}
		return pointerSet(doc, parentPath, list, false)
	}
	return doc, nil
}

func escape(parts []string) []string {
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = strings.ReplaceAll(strings.ReplaceAll(p, "~", "~0"), "/", "~1")
	}
	return out
}

// parsePatchPayload reads a patch's payload, JSON or YAML, held to
// limits.MaxDepth before anything walks it.
func parsePatchPayload(payload string) (any, error) {
	if err := limits.CheckJSONDepth([]byte(payload)); err != nil {
		return nil, fmt.Errorf("error: unable to parse the patch: %v", err)
	}
	var p any
	if err := json.Unmarshal([]byte(payload), &p); err != nil {
		if derr := yamlpos.CheckNesting(payload); derr != nil {
			return nil, fmt.Errorf("error: unable to parse the patch: %v", derr)
		}
		var y any
		if yerr := yaml.Unmarshal([]byte(payload), &y); yerr != nil {
			return nil, fmt.Errorf("error: unable to parse %q: %v", payload, yerr)
		}
		if deeperThan(y, limits.MaxDepth) {
			return nil, fmt.Errorf("error: unable to parse the patch: %s", limits.DepthMessage())
		}
		p = toJSON(y)
	}
	return p, nil
}

// deeperThan says whether a decoded value nests mappings and lists more
// than n levels deep; it never walks deeper than n+1 levels itself.
func deeperThan(v any, n int) bool {
	var kids []any
	switch v := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(v) {
			kids = append(kids, v[k])
		}
	case []any:
		kids = v
	default:
		return false
	}
	if n == 0 {
		return true
	}
	for _, x := range kids {
		if deeperThan(x, n-1) {
			return true
		}
	}
	return false
}

// patchDoc applies a patch of type typ (json, merge, strategic) to the
// JSON document cur.
func patchDoc(doc any, typ string, p any) (any, error) {
	cur, _ := doc.(map[string]any)
	var next any
	var err error
	switch typ {
	case "merge":
		pm, ok := p.(map[string]any)
		if !ok {
			return nil, statusError("BadRequest", "error decoding patch: json: cannot unmarshal %s into Go value of type map[string]interface {}", jsonType(p))
		}
		next = mergePatch("", cur, pm, false)
	case "strategic":
		pm, ok := p.(map[string]any)
		if !ok {
			return nil, statusError("BadRequest", "error decoding patch: json: cannot unmarshal %s into Go value of type map[string]interface {}", jsonType(p))
		}
		next = mergePatch("", cur, pm, true)
	case "json":
		ops, ok := p.([]any)
		if !ok {
			return nil, statusError("BadRequest", "json: cannot unmarshal %s into Go value of type jsonpatch.Patch", jsonType(p))
		}
		if next, err = jsonPatch(cur, ops); err != nil {
			return nil, statusError("UnprocessableEntity", "%v", err)
		}
	}
	return next, nil
}
