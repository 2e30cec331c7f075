// Package pmap is a sorted map from strings to values whose copies share
// structure: Clone costs O(1), and after it each copy pays for what it
// changes, not for what it holds.
//
// It is a B+ tree. Every node is tagged with the map that may change it in
// place; Clone gives both maps new tags, so the nodes they share are
// copied before either writes to them (copy on write, per node). A write
// to a map that has not been cloned since changes its own nodes in place.
//
// Each node also remembers a hash of its contents once asked (Hash), so the
// hash of a map that changed in a few keys since the last Hash costs a
// few leaves and their paths.
//
// What a write after a clone copies is kept small, since checkpoints keep
// every copy: a node is 80 bytes, an interior node's children are 8 bytes
// each (every node keeps its smallest key for its parent's search), and a
// leaf copied to change values copies the values only, sharing its keys
// with the leaf it copies until a key is inserted or removed.
//
// A Map and the maps cloned from it must be used from one goroutine: Hash
// writes its memo into nodes they share.
package pmap

import (
	"crypto/sha256"
	"iter"
	"sync/atomic"
)

const (
	maxLeaf = 16 // entries in a leaf
	maxKids = 32 // children of an interior node
	minFill = 4  // a node with fewer is merged with a sibling
)

// owner tags the nodes a map may change in place: a number no other map
// has had (0 is none yet). A number, not a pointer to a struct of its own,
// so that a Clone, which gives both maps new tags, allocates nothing.
type owner uint64

// owners counts the tags given, in every map of the process (maps of
// several runs may be used from several goroutines: atomic). Tags are only
// compared for equality, so their values reach no output.
var owners atomic.Uint64

func newOwner() owner { return owner(owners.Add(1)) }

type entry[V any] struct {
	key string
	val V
}

type node[V any] struct {
	own owner
	// lo is the smallest key under the node, which its parent's search
	// reads: kept here rather than beside each kid in the parent, so that
	// a copy of an interior node copies 8 bytes a kid, not 24.
	lo string
	// keys and vals are a leaf's entries, apart: a copy of a leaf made to
	// change values copies vals and shares keys with the leaf it copies
	// (sharedKeys), until it inserts or removes a key (ownKeys).
	keys       []string
	vals       []V
	sharedKeys bool
	kids       []*node[V] // interior
	// memo holds the hashes of a node that was hashed (nil for one never
	// hashed). It is apart so that maps never hashed copy 80-byte nodes.
	memo *memo
}

// memo is what Hash remembers of a node: the hash of its subtree, when has,
// and, for a leaf, the hashes of its entries (all zero bytes for one not
// known yet). A node's memo is its own: a copy of the node copies it.
type memo struct {
	sum  [32]byte
	has  bool
	sums [][32]byte
}

func (n *node[V]) leaf() bool { return n.kids == nil }

func (n *node[V]) size() int {
	if n.leaf() {
		return len(n.keys)
	}
	return len(n.kids)
}

func (n *node[V]) min() string { return n.lo }

// fix sets lo after a change to n (which m owns).
func (n *node[V]) fix() {
	switch {
	case len(n.keys) > 0:
		n.lo = n.keys[0]
	case len(n.kids) > 0:
		n.lo = n.kids[0].lo
	}
}

// sums returns the entries' hashes a leaf remembers, or nil.
func (n *node[V]) sums() [][32]byte {
	if n.memo == nil {
		return nil
	}
	return n.memo.sums
}

// Map is a persistent sorted map. The zero Map is empty and ready to use.
type Map[V any] struct {
	root *node[V]
	n    int
	own  owner
}

// Len returns the number of keys.
func (m *Map[V]) Len() int { return m.n }

// Clone returns a copy of m. Both share every node until one of them
// writes to it.
func (m *Map[V]) Clone() Map[V] {
	m.own = newOwner()
	return Map[V]{root: m.root, n: m.n, own: newOwner()}
}

// Get returns the value at key and whether it is there.
func (m *Map[V]) Get(key string) (V, bool) {
	n := m.root
	if n == nil {
		var zero V
		return zero, false
	}
	for !n.leaf() {
		n = n.kids[childFor(n, key)]
	}
	i, ok := search(n.keys, key)
	if !ok {
		var zero V
		return zero, false
	}
	return n.vals[i], true
}

// childFor returns the index of the kid whose range holds key.
func childFor[V any](n *node[V], key string) int {
	// the last kid whose smallest key is ≤ key (the first if none is)
	kids := n.kids
	lo, hi := 1, len(kids) // kid 0 is taken when no other is ≤ key
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if kids[h].lo <= key {
			lo = h + 1
		} else {
			hi = h
		}
	}
	return lo - 1
}

// search returns where key is in keys, or where it would go.
func search(keys []string, key string) (int, bool) {
	lo, hi := 0, len(keys)
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if keys[h] < key {
			lo = h + 1
		} else {
			hi = h
		}
	}
	return lo, lo < len(keys) && keys[lo] == key
}

// mutable returns n itself if m owns it, or m's copy of it.
func (m *Map[V]) mutable(n *node[V]) *node[V] { return m.mutableFor(n, false) }

// mutableFor is mutable; a leaf copied to insert or remove a key (keyed)
// gets keys of its own at once.
func (m *Map[V]) mutableFor(n *node[V], keyed bool) *node[V] {
	if n.own == m.own {
		if n.memo != nil {
			n.memo.has = false
		}
		return n
	}
	var c *node[V]
	if n.leaf() {
		if keyed {
			c = &node[V]{own: m.own, lo: n.lo}
			c.keys, c.sharedKeys = n.keys, true
			c.vals = n.vals
			c.ownKeys()
		} else {
			c = leafWithVals[V](len(n.vals))
			c.own, c.lo = m.own, n.lo
			c.keys, c.sharedKeys = n.keys, true
			copy(c.vals, n.vals)
		}
		if sums := n.sums(); sums != nil {
			c.memo = &memo{sums: make([][32]byte, len(sums), cap(c.vals))}
			copy(c.memo.sums, sums)
		}
	} else {
		c = interiorWithKids[V](len(n.kids))
		c.own, c.lo = m.own, n.lo
		copy(c.kids, n.kids)
	}
	return c
}

// A node copied to change it, its values (a leaf) or kids (an interior
// node) come in the same allocation: one object for the collector where
// there were two, and these copies are most of what checkpoints keep.
// The slices point into the arrays, whose lengths step by 2 values and 4
// kids so that little is allocated unused; one that outgrows its array
// (an insert) moves out of it, and the array stays with the node unused.
type (
	leaf2[V any] struct {
		n node[V]
		v [2]V
	}
	leaf4[V any] struct {
		n node[V]
		v [4]V
	}
	leaf6[V any] struct {
		n node[V]
		v [6]V
	}
	leaf8[V any] struct {
		n node[V]
		v [8]V
	}
	leaf10[V any] struct {
		n node[V]
		v [10]V
	}
	leaf12[V any] struct {
		n node[V]
		v [12]V
	}
	leaf14[V any] struct {
		n node[V]
		v [14]V
	}
	leaf16[V any] struct {
		n node[V]
		v [16]V
	}
	leaf17[V any] struct {
		n node[V]
		v [17]V
	}
	interior4[V any] struct {
		n node[V]
		k [4]*node[V]
	}
	interior8[V any] struct {
		n node[V]
		k [8]*node[V]
	}
	interior12[V any] struct {
		n node[V]
		k [12]*node[V]
	}
	interior16[V any] struct {
		n node[V]
		k [16]*node[V]
	}
	interior20[V any] struct {
		n node[V]
		k [20]*node[V]
	}
	interior24[V any] struct {
		n node[V]
		k [24]*node[V]
	}
	interior28[V any] struct {
		n node[V]
		k [28]*node[V]
	}
	interior33[V any] struct {
		n node[V]
		k [33]*node[V]
	}
)

// leafWithVals returns a new node whose vals (length n ≤ maxLeaf+1) share
// its allocation.
func leafWithVals[V any](n int) *node[V] {
	switch {
	case n <= 2:
		b := new(leaf2[V])
		b.n.vals = b.v[:n:n]
		return &b.n
	case n <= 4:
		b := new(leaf4[V])
		b.n.vals = b.v[:n:n]
		return &b.n
	case n <= 6:
		b := new(leaf6[V])
		b.n.vals = b.v[:n:n]
		return &b.n
	case n <= 8:
		b := new(leaf8[V])
		b.n.vals = b.v[:n:n]
		return &b.n
	case n <= 10:
		b := new(leaf10[V])
		b.n.vals = b.v[:n:n]
		return &b.n
	case n <= 12:
		b := new(leaf12[V])
		b.n.vals = b.v[:n:n]
		return &b.n
	case n <= 14:
		b := new(leaf14[V])
		b.n.vals = b.v[:n:n]
		return &b.n
	case n <= 16:
		b := new(leaf16[V])
		b.n.vals = b.v[:n:n]
		return &b.n
	default:
		b := new(leaf17[V])
		b.n.vals = b.v[:n:n]
		return &b.n
	}
}

// interiorWithKids returns a new node whose kids (length n ≤ maxKids+1,
// with room for one more where it fits) share its allocation.
func interiorWithKids[V any](n int) *node[V] {
	switch {
	case n < 4:
		b := new(interior4[V])
		b.n.kids = b.k[:n]
		return &b.n
	case n < 8:
		b := new(interior8[V])
		b.n.kids = b.k[:n]
		return &b.n
	case n < 12:
		b := new(interior12[V])
		b.n.kids = b.k[:n]
		return &b.n
	case n < 16:
		b := new(interior16[V])
		b.n.kids = b.k[:n]
		return &b.n
	case n < 20:
		b := new(interior20[V])
		b.n.kids = b.k[:n]
		return &b.n
	case n < 24:
		b := new(interior24[V])
		b.n.kids = b.k[:n]
		return &b.n
	case n < 28:
		b := new(interior28[V])
		b.n.kids = b.k[:n]
		return &b.n
	default:
		b := new(interior33[V])
		b.n.kids = b.k[:n]
		return &b.n
	}
}

// ownKeys gives a leaf (which m owns) keys of its own to insert into or
// remove from, with room for one more entry.
func (n *node[V]) ownKeys() {
	if !n.sharedKeys {
		return
	}
	// keys and vals in one allocation: room for half a leaf and one
	// more, three quarters and one more, or a full leaf's.
	var keys []string
	var vals []V
	switch {
	case len(n.keys) < maxLeaf/2+1:
		b := new(halfBlock[V])
		keys, vals = b.keys[:len(n.keys)], b.vals[:len(n.vals)]
	case len(n.keys) < maxLeaf*3/4+1:
		b := new(threeQuarterBlock[V])
		keys, vals = b.keys[:len(n.keys)], b.vals[:len(n.vals)]
	default:
		b := new(block[V])
		keys, vals = b.keys[:len(n.keys)], b.vals[:len(n.vals)]
	}
	copy(keys, n.keys)
	copy(vals, n.vals)
	n.keys, n.vals, n.sharedKeys = keys, vals, false
}

// halfBlock and threeQuarterBlock hold the keys and values of a leaf
// half or three quarters full, and one more.
type halfBlock[V any] struct {
	keys [maxLeaf/2 + 1]string
	vals [maxLeaf/2 + 1]V
}

type threeQuarterBlock[V any] struct {
	keys [maxLeaf*3/4 + 1]string
	vals [maxLeaf*3/4 + 1]V
}

// Set puts val at key.
func (m *Map[V]) Set(key string, val V) { m.put(key, val, nil) }

// Swap puts val at key and returns the value it replaced, if any: a Get
// and a Set in one walk down the tree.
func (m *Map[V]) Swap(key string, val V) (old V, had bool) {
	had = !m.put(key, val, &old)
	return old, had
}

// put puts val at key, setting *old (when old is not nil) to the value it
// replaces; it reports whether key was added.
func (m *Map[V]) put(key string, val V, old *V) bool {
	if m.own == 0 {
		m.own = newOwner()
	}
	if m.root == nil {
		m.root = &node[V]{own: m.own, lo: key, keys: []string{key}, vals: []V{val}}
		m.n = 1
		return true
	}
	root, split, added := m.set(m.root, key, val, old)
	if split != nil {
		root = &node[V]{own: m.own, lo: root.lo, kids: []*node[V]{root, split}}
	}
	m.root = root
	if added {
		m.n++
	}
	return added
}

func (m *Map[V]) set(n *node[V], key string, val V, old *V) (out, split *node[V], added bool) {
	if n.leaf() {
		i, found := search(n.keys, key)
		n = m.mutableFor(n, !found)
		if found {
			if old != nil {
				*old = n.vals[i]
			}
			n.vals[i] = val
			if sums := n.sums(); sums != nil {
				sums[i] = [32]byte{}
			}
			return n, nil, false
		}
		n.ownKeys()
		n.keys = append(n.keys, "")
		copy(n.keys[i+1:], n.keys[i:])
		n.keys[i] = key
		var zero V
		n.vals = append(n.vals, zero)
		copy(n.vals[i+1:], n.vals[i:])
		n.vals[i] = val
		if sums := n.sums(); sums != nil {
			sums = append(sums, [32]byte{})
			copy(sums[i+1:], sums[i:])
			sums[i] = [32]byte{}
			n.memo.sums = sums
		}
		n.fix()
		if len(n.keys) > maxLeaf {
			return n, m.splitLeaf(n), true
		}
		return n, nil, true
	}
	n = m.mutable(n)
	i := childFor(n, key)
	k, ks, added := m.set(n.kids[i], key, val, old)
	n.kids[i] = k
	if ks != nil {
		n.kids = append(n.kids, nil)
		copy(n.kids[i+2:], n.kids[i+1:])
		n.kids[i+1] = ks
	}
	n.fix()
	if len(n.kids) > maxKids {
		return n, m.splitInterior(n), added
	}
	return n, nil, added
}

// block holds the keys and values of a full leaf in one allocation.
type block[V any] struct {
	keys [maxLeaf + 1]string
	vals [maxLeaf + 1]V
}

func (m *Map[V]) splitLeaf(n *node[V]) *node[V] {
	h := len(n.keys) / 2
	b := new(block[V]) // one allocation for both, as a leaf that splits fills up again
	right := &node[V]{own: m.own, keys: b.keys[:len(n.keys)-h], vals: b.vals[:len(n.vals)-h]}
	copy(right.keys, n.keys[h:])
	copy(right.vals, n.vals[h:])
	clear(n.keys[h:])
	clear(n.vals[h:])
	n.keys, n.vals = n.keys[:h], n.vals[:h]
	if sums := n.sums(); sums != nil {
		right.memo = &memo{sums: make([][32]byte, len(right.keys), maxLeaf+1)}
		copy(right.memo.sums, sums[h:])
		n.memo.sums = sums[:h]
	}
	right.fix()
	return right
}

func (m *Map[V]) splitInterior(n *node[V]) *node[V] {
	h := len(n.kids) / 2
	right := &node[V]{own: m.own, kids: make([]*node[V], len(n.kids)-h, maxKids+1)}
	copy(right.kids, n.kids[h:])
	clear(n.kids[h:])
	n.kids = n.kids[:h]
	right.fix()
	return right
}

// Delete removes key, if it is there.
func (m *Map[V]) Delete(key string) {
	if m.root == nil {
		return
	}
	if _, ok := m.Get(key); !ok {
		return
	}
	if m.own == 0 {
		m.own = newOwner()
	}
	root := m.del(m.root, key)
	for root != nil && !root.leaf() && len(root.kids) == 1 {
		root = root.kids[0]
	}
	if root != nil && root.leaf() && len(root.keys) == 0 {
		root = nil
	}
	m.root = root
	m.n--
}

// del removes key (known to be present) under n.
func (m *Map[V]) del(n *node[V], key string) *node[V] {
	if n.leaf() {
		n = m.mutableFor(n, true)
		i, _ := search(n.keys, key)
		n.ownKeys()
		last := len(n.keys) - 1
		copy(n.keys[i:], n.keys[i+1:])
		copy(n.vals[i:], n.vals[i+1:])
		var zero V
		n.keys[last], n.vals[last] = "", zero
		n.keys, n.vals = n.keys[:last], n.vals[:last]
		if sums := n.sums(); sums != nil {
			n.memo.sums = append(sums[:i], sums[i+1:]...)
		}
		n.fix()
		return n
	}
	n = m.mutable(n)
	i := childFor(n, key)
	k := m.del(n.kids[i], key)
	if k.size() == 0 {
		n.kids = append(n.kids[:i], n.kids[i+1:]...)
		n.fix()
		return n
	}
	n.kids[i] = k
	if k.size() < minFill && len(n.kids) > 1 {
		j := i
		if j == len(n.kids)-1 {
			j--
		}
		m.merge(n, j)
	}
	n.fix()
	return n
}

// merge joins kids j and j+1 of n (n is m's), splitting the result again
// if it is too big.
func (m *Map[V]) merge(n *node[V], j int) {
	a, b := m.mutableFor(n.kids[j], true), n.kids[j+1]
	var split *node[V]
	if a.leaf() {
		as, bs := a.sums(), b.sums()
		switch {
		case as != nil && bs != nil:
			a.memo.sums = append(as, bs...)
		case as != nil:
			a.memo.sums = append(as, make([][32]byte, len(b.keys))...)
		case bs != nil:
			if a.memo == nil {
				a.memo = &memo{}
			}
			a.memo.sums = append(make([][32]byte, len(a.keys)), bs...)
		}
		a.ownKeys()
		a.keys = append(a.keys, b.keys...)
		a.vals = append(a.vals, b.vals...)
		if len(a.keys) > maxLeaf {
			split = m.splitLeaf(a)
		}
	} else {
		a.kids = append(a.kids, b.kids...)
		if len(a.kids) > maxKids {
			split = m.splitInterior(a)
		}
	}
	a.fix()
	n.kids[j] = a
	if split != nil {
		n.kids[j+1] = split
		return
	}
	n.kids = append(n.kids[:j+1], n.kids[j+2:]...)
}

// First returns the smallest key and its value, if the map is not empty.
func (m *Map[V]) First() (string, V, bool) {
	n := m.root
	if n == nil {
		var zero V
		return "", zero, false
	}
	for !n.leaf() {
		n = n.kids[0]
	}
	return n.keys[0], n.vals[0], true
}

// All yields every key and value in key order.
func (m *Map[V]) All() iter.Seq2[string, V] {
	return func(yield func(string, V) bool) {
		walk(m.root, "", yield)
	}
}

// From yields the keys ≥ from and their values, in key order.
func (m *Map[V]) From(from string) iter.Seq2[string, V] {
	return func(yield func(string, V) bool) {
		walk(m.root, from, yield)
	}
}

func walk[V any](n *node[V], from string, yield func(string, V) bool) bool {
	if n == nil {
		return true
	}
	if n.leaf() {
		i, _ := search(n.keys, from)
		for ; i < len(n.keys); i++ {
			if !yield(n.keys[i], n.vals[i]) {
				return false
			}
		}
		return true
	}
	for i := childFor(n, from); i < len(n.kids); i++ {
		if !walk(n.kids[i], from, yield) {
			return false
		}
	}
	return true
}

// Keys returns every key, in order.
func (m *Map[V]) Keys() []string {
	out := make([]string, 0, m.n)
	for k := range m.All() {
		out = append(out, k)
	}
	return out
}

// Values returns every value, in key order.
func (m *Map[V]) Values() []V {
	out := make([]V, 0, m.n)
	for _, v := range m.All() {
		out = append(out, v)
	}
	return out
}

// Hash returns a hash of the map's keys and values: sum(key, val) hashes
// one entry. It remembers the hashes of entries and nodes, so the next
// call after a few writes costs those writes' leaves and paths. sum must
// be the same function on every call for m and the maps it shares nodes
// with, and equal values must hash alike. Two maps with the same contents
// built by different sequences of writes may hash differently (the hash
// follows the tree's shape); the same writes give the same hash.
func (m *Map[V]) Hash(sum func(key string, val V) [32]byte) [32]byte {
	if m.root == nil {
		return sha256.Sum256(nil)
	}
	return hashNode(m.root, sum)
}

func hashNode[V any](n *node[V], sum func(string, V) [32]byte) [32]byte {
	if n.memo == nil {
		n.memo = &memo{}
	}
	mo := n.memo
	if mo.has {
		return mo.sum
	}
	h := sha256.New()
	if n.leaf() {
		h.Write([]byte{0})
		if mo.sums == nil {
			mo.sums = make([][32]byte, len(n.keys))
		}
		for i, k := range n.keys {
			if mo.sums[i] == ([32]byte{}) {
				mo.sums[i] = sum(k, n.vals[i])
			}
			h.Write(mo.sums[i][:])
		}
	} else {
		h.Write([]byte{1})
		for _, k := range n.kids {
			s := hashNode(k, sum)
			h.Write(s[:])
		}
	}
	h.Sum(mo.sum[:0])
	mo.has = true
	return mo.sum
}
