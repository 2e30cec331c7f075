package merge

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
)

// ThreeWay merges modified (the manifest applied now) into current (the
// live object), removing what original (the manifest applied last time)
// set and modified no longer does. It returns the merged object, a new
// value sharing nothing with its arguments, and whether kubectl's patch
// would hold anything: false means kubectl prints "unchanged" and sends
// nothing. original may be nil (an object no apply has written yet).
func ThreeWay(original, modified, current map[string]any) (map[string]any, bool) {
	return mergeMap("", original, modified, current, false)
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// mergeMap merges one object level. retain applies the retainKeys
// strategy to it (it is an item of a list that has it, or a field that
// has it: RetainsKeys).
func mergeMap(path string, orig, mod, cur map[string]any, retain bool) (map[string]any, bool) {
	out := make(map[string]any, len(cur)+len(mod))
	for _, k := range sortedKeys(cur) {
		out[k] = deepCopy(cur[k])
	}
	patched := false
	for _, k := range sortedKeys(mod) {
		mv := mod[k]
		cv, inCur := cur[k]
		if mv == nil { // an explicit null asks for the field's removal
			if !inCur || cv != nil {
				delete(out, k)
				patched = true
			}
			continue
		}
		if !inCur {
			out[k] = clean(mv)
			patched = true
			continue
		}
		p := false
		switch m := mv.(type) {
		case map[string]any:
			c, isMap := cv.(map[string]any)
			if !isMap {
				out[k], p = clean(mv), true
				break
			}
			o, _ := orig[k].(map[string]any)
			out[k], p = mergeMap(join(path, k), o, m, c, RetainsKeys(join(path, k)))
		case []any:
			c, isList := cv.([]any)
			key, ret, ok := Strategy(join(path, k))
			if !isList || !ok || !keyed(m, key) || !keyed(c, key) {
				if !reflect.DeepEqual(cv, mv) {
					out[k], p = clean(mv), true
				}
				break
			}
			o, _ := orig[k].([]any)
			if !keyed(o, key) {
				o = nil
			}
			out[k], p = mergeList(join(path, k), key, ret, o, m, c)
		default:
			if !reflect.DeepEqual(cv, mv) {
				out[k], p = mv, true
			}
		}
		patched = patched || p
	}
	// What the last apply set and this one does not is removed, whoever
	// changed it since; the patch names it even when it is gone already.
	for _, k := range sortedKeys(orig) {
		if _, kept := mod[k]; !kept {
			delete(out, k)
			patched = true
		}
	}
	if retain && (patched || hasOthers(cur, mod)) {
		for _, k := range sortedKeys(out) {
			if mod[k] == nil {
				delete(out, k)
			}
		}
		patched = true
	}
	return out, patched
}

// hasOthers reports whether cur has a field mod does not give.
func hasOthers(cur, mod map[string]any) bool {
	for _, k := range sortedKeys(cur) {
		if _, ok := mod[k]; !ok && cur[k] != nil {
			return true
		}
	}
	return false
}

// mergeList merges a list whose items are identified by key.
func mergeList(path, key string, retain bool, orig, mod, cur []any) ([]any, bool) {
	inMod := map[string]bool{}
	for _, m := range mod {
		inMod[keyOf(m, key)] = true
	}
	deleted := map[string]bool{}
	for _, o := range orig {
		if k := keyOf(o, key); !inMod[k] {
			deleted[k] = true
		}
	}
	patched := len(deleted) > 0
	if len(cur) == 0 {
		if len(mod) > 0 {
			return clean(mod).([]any), true
		}
		return deepCopy(cur).([]any), patched
	}
	items := make([]any, 0, len(cur)+len(mod))
	for _, c := range cur {
		if !deleted[keyOf(c, key)] {
			items = append(items, deepCopy(c))
		}
	}
	for _, m := range mod {
		k := keyOf(m, key)
		at := find(items, key, k)
		if at < 0 {
			items = append(items, clean(m))
			patched = true
			continue
		}
		var om map[string]any
		if o := find(orig, key, k); o >= 0 {
			om, _ = orig[o].(map[string]any)
		}
		merged, p := mergeMap(path, om, m.(map[string]any), items[at].(map[string]any), retain)
		items[at] = merged
		patched = patched || p
	}
	if len(mod) == 0 {
		return items, patched
	}
	if !patched && sameOrder(cur, mod, key) {
		return items, false
	}
	// The manifest's items go in the manifest's order; the items only the
	// live list has keep their place among them as far as the live order
	// tells (the API server's $setElementOrder merge).
	var ours, theirs []any
	for _, it := range items {
		if inMod[keyOf(it, key)] {
			ours = append(ours, it)
		} else {
			theirs = append(theirs, it)
		}
	}
	sort.SliceStable(ours, func(i, j int) bool {
		return find(mod, key, keyOf(ours[i], key)) < find(mod, key, keyOf(ours[j], key))
	})
	order := liveOrder(cur, mod, deleted, key)
	return Interleave(theirs, ours, func(it any) int { return find(order, key, keyOf(it, key)) }), true
}

// Interleave puts the live list's own items (theirs, in the live order)
// among the items a manifest or a patch gives (ours, in its order), as the
// API server's normalizeElementOrder does: at each step the next of theirs
// goes first only when the live order (live: an item's place in it, -1
// when it is not there) puts it before the next of ours.
func Interleave(theirs, ours []any, live func(any) int) []any {
	out := make([]any, 0, len(theirs)+len(ours))
	i, j := 0, 0
	for i < len(theirs) || j < len(ours) {
		switch {
		case i >= len(theirs):
			out, j = append(out, ours[j]), j+1
		case j >= len(ours):
			out, i = append(out, theirs[i]), i+1
		default:
			ti, oi := live(theirs[i]), live(ours[j])
			if ti >= 0 && oi >= 0 && ti < oi {
				out, i = append(out, theirs[i]), i+1
			} else {
				out, j = append(out, ours[j]), j+1
			}
		}
	}
	return out
}

// liveOrder is the order the API server compares items by when it
// interleaves the live list's own items with the manifest's: the live list
// as its merge leaves it in place, which is the live list with the deleted
// items shifted out and, in the slots that frees, the manifest's new items
// in the manifest's order. Only keys matter.
func liveOrder(cur, mod []any, deleted map[string]bool, key string) []any {
	order := append([]any(nil), cur...)
	n := len(order)
	for i := 0; i < n; {
		if deleted[keyOf(order[i], key)] {
			copy(order[i:], order[i+1:n])
			n--
			continue
		}
		i++
	}
	for _, m := range mod {
		if n < len(order) && find(order[:n], key, keyOf(m, key)) < 0 {
			order[n] = m
			n++
		}
	}
	return order
}

// sameOrder reports whether cur and mod hold the same keys in the same order.
func sameOrder(cur, mod []any, key string) bool {
	if len(cur) != len(mod) {
		return false
	}
	for i := range cur {
		if keyOf(cur[i], key) != keyOf(mod[i], key) {
			return false
		}
	}
	return true
}

// keyed reports whether every item of l is an object that has key.
func keyed(l []any, key string) bool {
	for _, it := range l {
		m, ok := it.(map[string]any)
		if !ok {
			return false
		}
		if _, ok := m[key]; !ok {
			return false
		}
	}
	return true
}

func keyOf(item any, key string) string {
	m, _ := item.(map[string]any)
	return fmt.Sprint(m[key])
}

func find(l []any, key, k string) int {
	for i, it := range l {
		if keyOf(it, key) == k {
			return i
		}
	}
	return -1
}

// clean copies a value of the manifest, leaving out its nulls (a null in
// a field the live object lacks asks for nothing).
func clean(v any) any { return copyValue(v, true) }

// deepCopy copies a JSON-shaped value.
func deepCopy(v any) any { return copyValue(v, false) }

func copyValue(v any, dropNulls bool) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for _, k := range sortedKeys(t) {
			if t[k] != nil || !dropNulls {
				out[k] = copyValue(t[k], dropNulls)
			}
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = copyValue(e, dropNulls)
		}
		return out
	}
	return v
}

func sortedKeys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }
