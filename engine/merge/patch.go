package merge

import (
	"reflect"
	"sort"
)

// Patch returns the strategic merge patch kubectl apply sends for the same
// three documents as ThreeWay, as kubectl writes it (its JSON, with
// json.Marshal's sorted keys, is what kubectl prints when the API server
// refuses it): the fields modified sets that current lacks or holds
// otherwise, a null for each field original set and modified dropped, and
// for merged lists the changed items (with their key), a
// {"$patch": "delete"} item per dropped one and the manifest's order as
// "$setElementOrder/<list>". An empty map means nothing to send.
func Patch(original, modified, current map[string]any) map[string]any {
	delta := diff("", current, modified, false, true, false)
	deletions := diff("", original, modified, true, false, false)
	return union(deletions, delta)
}

// diff is the API machinery's two-way diff of a to b at one object level.
// ignoreChanges leaves out what b adds or changes; ignoreDeletions leaves
// out what b drops; retain builds a "$retainKeys" list (b is an item of a
// list with the retainKeys strategy).
func diff(path string, a, b map[string]any, ignoreChanges, ignoreDeletions, retain bool) map[string]any {
	p := map[string]any{}
	var keep []string
	for _, k := range sortedKeys(b) {
		bv := b[k]
		if retain && bv != nil {
			keep = append(keep, k)
		}
		av, ok := a[k]
		if !ok || reflect.TypeOf(av) != reflect.TypeOf(bv) {
			if !ignoreChanges {
				p[k] = bv
			}
			continue
		}
		switch at := av.(type) {
		case map[string]any:
			if sub := diff(join(path, k), at, bv.(map[string]any), ignoreChanges, ignoreDeletions, RetainsKeys(join(path, k))); len(sub) > 0 {
				p[k] = sub
			}
		case []any:
			bl := bv.([]any)
			key, ret, ok := Strategy(join(path, k))
			if !ok || !keyed(at, key) || !keyed(bl, key) {
				if !ignoreChanges && !reflect.DeepEqual(av, bv) {
					p[k] = bv
				}
				continue
			}
			items, order := diffList(join(path, k), key, ret, at, bl, ignoreChanges, ignoreDeletions)
			if len(items) > 0 {
				p[k] = items
			}
			if len(order) > 0 {
				p["$setElementOrder/"+k] = order
			}
		default:
			if !ignoreChanges && !reflect.DeepEqual(av, bv) {
				p[k] = bv
			}
		}
	}
	if !ignoreDeletions {
		for _, k := range sortedKeys(a) {
			if _, ok := b[k]; !ok {
				p[k] = nil
			}
		}
	}
	if len(keep) > 0 && (len(p) > 0 || hasOthers(a, b)) {
		l := make([]any, len(keep))
		for i, k := range keep {
			l[i] = k
		}
		p["$retainKeys"] = l
	}
	return p
}

// diffList diffs two lists merged by key: the changed and added items of
// b (in b's order), then a delete directive per item of a that b lacks
// (in key order), and the order of b when anything changed.
func diffList(path, key string, retain bool, a, b []any, ignoreChanges, ignoreDeletions bool) ([]any, []any) {
	if len(a) == 0 {
		if len(b) == 0 || ignoreChanges {
			return nil, nil
		}
		return b, nil
	}
	var items, dels []any
	for _, bi := range b {
		k := keyOf(bi, key)
		at := find(a, key, k)
		if at < 0 {
			if !ignoreChanges {
				items = append(items, bi)
			}
			continue
		}
		bm := bi.(map[string]any)
		if sub := diff(path, a[at].(map[string]any), bm, ignoreChanges, ignoreDeletions, retain); len(sub) > 0 {
			sub[key] = bm[key]
			items = append(items, sub)
		}
	}
	if !ignoreDeletions {
		gone := append([]any(nil), a...)
		sort.SliceStable(gone, func(i, j int) bool { return keyOf(gone[i], key) < keyOf(gone[j], key) })
		for _, ai := range gone {
			if find(b, key, keyOf(ai, key)) < 0 {
				dels = append(dels, map[string]any{"$patch": "delete", key: ai.(map[string]any)[key]})
			}
		}
	}
	items = append(items, dels...)
	var order []any
	if (!ignoreChanges && (len(items) > 0 || !sameOrder(a, b, key))) || (!ignoreDeletions && len(items) > 0) {
		for _, bi := range b {
			order = append(order, map[string]any{key: bi.(map[string]any)[key]})
		}
	}
	return items, order
}

// union joins the deletions patch and the changes patch into one, as
// kubectl does: objects field by field, merged lists item by item (the
// changed items in the manifest's order, then the delete directives).
func union(dels, delta map[string]any) map[string]any {
	out := make(map[string]any, len(dels)+len(delta))
	for _, k := range sortedKeys(dels) {
		out[k] = dels[k]
	}
	for _, k := range sortedKeys(delta) {
		dv := delta[k]
		cur, ok := out[k]
		if !ok {
			out[k] = dv
			continue
		}
		switch d := dv.(type) {
		case map[string]any:
			if c, isMap := cur.(map[string]any); isMap {
				out[k] = union(c, d)
				continue
			}
		case []any:
			if c, isList := cur.([]any); isList && k[0] != '$' {
				order, _ := delta["$setElementOrder/"+k].([]any)
				if order == nil {
					order, _ = dels["$setElementOrder/"+k].([]any)
				}
				out[k] = unionList(c, d, order)
				continue
			}
		}
		out[k] = dv
	}
	return out
}

// unionList joins two lists of patch items by their key, which the order
// list (the manifest's keys, in its order) names: the items in that order,
// then the delete directives.
func unionList(dels, delta, order []any) []any {
	key := ""
	if len(order) > 0 {
		for _, k := range sortedKeys(order[0].(map[string]any)) {
			key = k
		}
	}
	var items, directives []any
	for _, d := range dels {
		if m, ok := d.(map[string]any); ok && m["$patch"] == "delete" {
			directives = append(directives, d)
		} else {
			items = append(items, d)
		}
	}
	for _, d := range delta {
		if at := find(items, key, keyOf(d, key)); at >= 0 {
			items[at] = union(items[at].(map[string]any), d.(map[string]any))
			continue
		}
		items = append(items, d)
	}
	sort.SliceStable(items, func(i, j int) bool {
		return find(order, key, keyOf(items[i], key)) < find(order, key, keyOf(items[j], key))
	})
	return append(items, directives...)
}
