package sim

import "iter"

// The agenda's tree: a B+ tree of items in agenda order whose copies share
// structure, as package pmap's maps do (Clone costs O(1); a node is copied
// before a map that does not own it changes it), specialised to what the
// agenda does. An item is its own key (its time, whether it is a replayed
// input, its sequence number: two uint64 compared, no string), a leaf holds
// pointers to items alone, and the agenda only ever takes its first item,
// so nodes are dropped once empty and never merged.

const (
	agendaLeaf = 32 // items in a leaf
	agendaKids = 32 // children of an interior node
)

// akey orders items: by time, then a replayed input after everything else
// due then, then by sequence number (seq, with the top bit set for an
// input).
type akey struct {
	at  int64
	seq uint64
}

func (a akey) less(b akey) bool { return a.at < b.at || a.at == b.at && a.seq < b.seq }

func (it *item) order() akey {
	k := akey{at: int64(it.at), seq: it.seq}
	if it.kind == itemInput {
		k.seq |= 1 << 63
	}
	return k
}

// agendaOwner tags the nodes an agenda may change in place; it has a field
// so that each has its own address.
type agendaOwner struct{ _ int }

type anode struct {
	own   *agendaOwner
	items []*item  // leaf
	kids  []*anode // interior
	mins  []akey   // interior: the smallest key under each kid (mins[0] is never read)
}

func (n *anode) leaf() bool { return n.kids == nil }

func (n *anode) min() akey {
	if n.leaf() {
		return n.items[0].order()
	}
	return n.mins[0]
}

// agenda holds the scheduled items in the order they run: by time; at one
// moment, a replayed input after everything else due then (as it came when
// it was given), and otherwise in the order they were scheduled. The zero
// agenda is empty. A checkpoint shares it (Clone).
type agenda struct {
	root *anode
	n    int
	own  *agendaOwner
}

// Len returns the number of items.
func (a *agenda) Len() int { return a.n }

// Clone returns a copy of a; both share every node until one changes it.
func (a *agenda) Clone() agenda {
	a.own = &agendaOwner{}
	return agenda{root: a.root, n: a.n, own: &agendaOwner{}}
}

// mutable returns n itself if a owns it, or a's copy of it.
func (a *agenda) mutable(n *anode) *anode {
	if n.own == a.own {
		return n
	}
	c := &anode{own: a.own}
	if n.leaf() {
		c.items = make([]*item, len(n.items), max(len(n.items), agendaLeaf/2)+1)
		copy(c.items, n.items)
	} else {
		c.kids = make([]*anode, len(n.kids), len(n.kids)+1)
		copy(c.kids, n.kids)
		c.mins = make([]akey, len(n.mins), len(n.mins)+1)
		copy(c.mins, n.mins)
	}
	return c
}

// add puts it in its place (its key is unique: its seq is).
func (a *agenda) add(it *item) {
	if a.own == nil {
		a.own = &agendaOwner{}
	}
	a.n++
	if a.root == nil {
		a.root = &anode{own: a.own, items: append(make([]*item, 0, agendaLeaf/2+1), it)}
		return
	}
	root, split := a.addUnder(a.root, it, it.order())
	if split != nil {
		root = &anode{own: a.own, kids: []*anode{root, split}, mins: []akey{root.min(), split.min()}}
	}
	a.root = root
}

func (a *agenda) addUnder(n *anode, it *item, k akey) (out, split *anode) {
	n = a.mutable(n)
	if n.leaf() {
		// the first item after k (most items go last: search from there)
		lo, hi := 0, len(n.items)
		for lo < hi {
			h := int(uint(lo+hi) >> 1)
			if n.items[h].order().less(k) {
				lo = h + 1
			} else {
				hi = h
			}
		}
		n.items = append(n.items, nil)
		copy(n.items[lo+1:], n.items[lo:])
		n.items[lo] = it
		if len(n.items) > agendaLeaf {
			return n, a.splitLeaf(n, lo == len(n.items)-1)
		}
		return n, nil
	}
	// the last kid whose smallest key is ≤ k (the first if none is)
	lo, hi := 1, len(n.mins)
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if !k.less(n.mins[h]) {
			lo = h + 1
		} else {
			hi = h
		}
	}
	i := lo - 1
	kid, ks := a.addUnder(n.kids[i], it, k)
	n.kids[i] = kid
	if ks != nil {
		n.kids = append(n.kids, nil)
		copy(n.kids[i+2:], n.kids[i+1:])
		n.kids[i+1] = ks
		n.mins = append(n.mins, akey{})
		copy(n.mins[i+2:], n.mins[i+1:])
		n.mins[i+1] = ks.min()
	}
	if len(n.kids) > agendaKids {
		return n, a.splitInterior(n)
	}
	return n, nil
}

// splitLeaf moves the upper half of n to a new leaf; when the item just
// added went last (the agenda grows at its end), only that item moves, so
// leaves left behind stay full.
func (a *agenda) splitLeaf(n *anode, last bool) *anode {
	h := len(n.items) / 2
	if last {
		h = len(n.items) - 1
	}
	right := &anode{own: a.own, items: make([]*item, len(n.items)-h, agendaLeaf+1)}
	copy(right.items, n.items[h:])
	clear(n.items[h:])
	n.items = n.items[:h]
	return right
}

func (a *agenda) splitInterior(n *anode) *anode {
	h := len(n.kids) / 2
	right := &anode{own: a.own, kids: make([]*anode, len(n.kids)-h, agendaKids+1), mins: make([]akey, len(n.kids)-h, agendaKids+1)}
	copy(right.kids, n.kids[h:])
	copy(right.mins, n.mins[h:])
	clear(n.kids[h:])
	n.kids, n.mins = n.kids[:h], n.mins[:h]
	return right
}

// first returns the first item, if any.
func (a *agenda) first() (*item, bool) {
	n := a.root
	if n == nil {
		return nil, false
	}
	for !n.leaf() {
		n = n.kids[0]
	}
	return n.items[0], true
}

// takeFirst removes the first item and returns it (the agenda is not
// empty).
func (a *agenda) takeFirst() *item {
	if a.own == nil {
		a.own = &agendaOwner{}
	}
	root, it := a.takeUnder(a.root)
	for root != nil && !root.leaf() && len(root.kids) == 1 {
		root = root.kids[0]
	}
	a.root = root
	a.n--
	return it
}

// takeUnder removes the first item under n; out is nil when n is left
// empty.
func (a *agenda) takeUnder(n *anode) (out *anode, it *item) {
	n = a.mutable(n)
	if n.leaf() {
		it = n.items[0]
		copy(n.items, n.items[1:])
		n.items[len(n.items)-1] = nil
		n.items = n.items[:len(n.items)-1]
		if len(n.items) == 0 {
			return nil, it
		}
		return n, it
	}
	kid, it := a.takeUnder(n.kids[0])
	if kid != nil {
		n.kids[0] = kid
		return n, it
	}
	copy(n.kids, n.kids[1:])
	n.kids[len(n.kids)-1] = nil
	n.kids = n.kids[:len(n.kids)-1]
	copy(n.mins, n.mins[1:])
	n.mins = n.mins[:len(n.mins)-1]
	if len(n.kids) == 0 {
		return nil, it
	}
	return n, it
}

// All yields every item in agenda order.
func (a *agenda) All() iter.Seq[*item] {
	return func(yield func(*item) bool) { walkAgenda(a.root, yield) }
}

func walkAgenda(n *anode, yield func(*item) bool) bool {
	if n == nil {
		return true
	}
	if n.leaf() {
		for _, it := range n.items {
			if !yield(it) {
				return false
			}
		}
		return true
	}
	for _, k := range n.kids {
		if !walkAgenda(k, yield) {
			return false
		}
	}
	return true
}

// Values returns every item, in agenda order.
func (a *agenda) Values() []*item {
	out := make([]*item, 0, a.n)
	for it := range a.All() {
		out = append(out, it)
	}
	return out
}
