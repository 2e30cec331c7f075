package pmap

// Diff calls f, in key order, for every key whose value in m differs from
// its value in old (by eq), or that only one of them holds: was and had are
// old's value and whether it holds the key, now and has m's.
//
// The subtrees the two maps share (old a clone of m, or m of old, or both
// of a third, with few writes since) are skipped without being looked at:
// the diff costs the leaves the writes since touched and their paths, not
// what the maps hold. Two maps that share nothing are compared entry by
// entry.
func (m *Map[V]) Diff(old *Map[V], eq func(a, b V) bool, f func(key string, was V, had bool, now V, has bool)) {
	d := differ[V]{eq: eq, f: f}
	if height(old.root) != height(m.root) {
		d.flat([]*node[V]{old.root}, []*node[V]{m.root})
		return
	}
	d.nodes(old.root, m.root)
}

// height is the number of levels of the tree under n (0 for none).
func height[V any](n *node[V]) int {
	h := 0
	for ; n != nil; h++ {
		if n.leaf() {
			return h + 1
		}
		n = n.kids[0]
	}
	return h
}

type differ[V any] struct {
	eq func(a, b V) bool
	f  func(key string, was V, had bool, now V, has bool)
}

// nodes compares two subtrees of the same height that cover the same keys.
func (d *differ[V]) nodes(a, b *node[V]) {
	switch {
	case a == b:
		return
	case a == nil || b == nil || a.leaf() || b.leaf():
		d.flat([]*node[V]{a}, []*node[V]{b})
		return
	}
	// Group the kids of a and b between the bounds both have: a group of
	// one kid on each side is compared as a subtree (skipped when shared);
	// a group where a kid was split or merged, entry by entry.
	i, j := 0, 0
	for i < len(a.kids) || j < len(b.kids) {
		i0, j0 := i, j
		i, j = i+1, j+1
		for {
			ba, aEnd := bound(a, i)
			bb, bEnd := bound(b, j)
			if aEnd && bEnd || !aEnd && !bEnd && ba == bb {
				break
			}
			if bEnd || !aEnd && ba < bb {
				i++
			} else {
				j++
			}
		}
		if i-i0 == 1 && j-j0 == 1 {
			d.nodes(a.kids[i0], b.kids[j0])
		} else {
			d.flat(a.kids[i0:i], b.kids[j0:j])
		}
	}
}

// bound is the smallest key of kid i of n, where the keys of the kids
// before it end; end reports there is no kid i.
func bound[V any](n *node[V], i int) (string, bool) {
	if i >= len(n.kids) {
		return "", true
	}
	return n.kids[i].lo, false
}

// flat compares the entries under the subtrees as and bs (nil ones are
// empty), which cover the same keys, one by one.
func (d *differ[V]) flat(as, bs []*node[V]) {
	var ea, eb []entry[V]
	for _, n := range as {
		ea = appendEntries(ea, n)
	}
	for _, n := range bs {
		eb = appendEntries(eb, n)
	}
	var zero V
	i, j := 0, 0
	for i < len(ea) || j < len(eb) {
		switch {
		case j == len(eb) || i < len(ea) && ea[i].key < eb[j].key:
			d.f(ea[i].key, ea[i].val, true, zero, false)
			i++
		case i == len(ea) || eb[j].key < ea[i].key:
			d.f(eb[j].key, zero, false, eb[j].val, true)
			j++
		default:
			if !d.eq(ea[i].val, eb[j].val) {
				d.f(ea[i].key, ea[i].val, true, eb[j].val, true)
			}
			i, j = i+1, j+1
		}
	}
}

func appendEntries[V any](out []entry[V], n *node[V]) []entry[V] {
	if n == nil {
		return out
	}
	if n.leaf() {
		for i, k := range n.keys {
			out = append(out, entry[V]{k, n.vals[i]})
		}
		return out
	}
	for _, k := range n.kids {
		out = appendEntries(out, k)
	}
	return out
}
