package session

import (
	"slices"
	"strings"

	"reconcile/engine/api"
)

// objectKey is the store's key of an object: namespace/name.
func objectKey(o api.Object) string {
	m := o.Meta()
	if m.Namespace == "" {
		return m.Name
	}
	return m.Namespace + "/" + m.Name
}

// compareKeys orders two objects as the store lists them (by their key,
// namespace/name) without building the keys.
func compareKeys(a, b api.Object) int {
	am, bm := a.Meta(), b.Meta()
	as, bs := [3]string{am.Namespace, "/", am.Name}, [3]string{bm.Namespace, "/", bm.Name}
	if am.Namespace == "" {
		as = [3]string{am.Name}
	}
	if bm.Namespace == "" {
		bs = [3]string{bm.Name}
	}
	// Compare the concatenations piece by piece.
	i, j, ai, bi := 0, 0, 0, 0
	for {
		for i < 3 && ai >= len(as[i]) {
			i, ai = i+1, 0
		}
		for j < 3 && bi >= len(bs[j]) {
			j, bi = j+1, 0
		}
		switch {
		case i == 3 && j == 3:
			return 0
		case i == 3:
			return -1
		case j == 3:
			return 1
		}
		// The longest run both pieces still have.
		n := min(len(as[i])-ai, len(bs[j])-bi)
		if c := strings.Compare(as[i][ai:ai+n], bs[j][bi:bi+n]); c != 0 {
			return c
		}
		ai, bi = ai+n, bi+n
	}
}

// diffSorted walks two listings of one kind, both sorted by key, and calls
// add for each object only cur has, remove for each only prev has, and
// update for each stored again since prev. The same stored version in
// both costs one comparison.
func diffSorted(prev, cur []api.Object, add, remove func(api.Object), update func(old, new api.Object)) {
	i, j := 0, 0
	for i < len(prev) && j < len(cur) {
		if prev[i] == cur[j] {
			i, j = i+1, j+1
			continue
		}
		switch c := compareKeys(prev[i], cur[j]); {
		case c == 0:
			update(prev[i], cur[j])
			i, j = i+1, j+1
		case c < 0:
			remove(prev[i])
			i++
		default:
			add(cur[j])
			j++
		}
	}
	for ; i < len(prev); i++ {
		remove(prev[i])
	}
	for ; j < len(cur); j++ {
		add(cur[j])
	}
}

// insertSorted inserts k into the sorted keys.
func insertSorted(keys []string, k string) []string {
	i, ok := slices.BinarySearch(keys, k)
	if ok {
		return keys
	}
	return slices.Insert(keys, i, k)
}
