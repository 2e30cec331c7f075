package sim

import (
	"math"
	"reflect"
	"unsafe"

	"reconcile/engine/api"
	"reconcile/engine/controller"
)

// Reading a snapshot: its world is most of what a deep link waits for
// (10,000 pods: 400,000 pointers, slices and maps, a second in a tab), so
// the reader is planned once per type and then writes memory directly:
//
//   - a plan per type says how to read a value of it into memory that is
//     already there (a struct field, a slice element, a new value): basic
//     fields are written in place, the others through their type's plan,
//     with no reflect.Value per value;
//   - values that pointers point to are allocated in slabs, a run of
//     values of one type at a time (reflect.New per value cost a type
//     lookup and an allocation each), as are the elements of small
//     slices; strings are copied into blocks of bytes shared by many;
//   - an interface holding a pointer is written as its two words, the
//     type word planned once per interface and concrete type;
//   - the maps the world holds most (labels, resource lists) are read by
//     code compiled for their types, the others through reflect.
//
// It reads the format Snapshot writes (snapshot.go) and checks as much:
// every length against the bytes left, every pointer read again against
// the type it was first read as, every interface's type against what the
// interface can hold. Damaged bytes end the read with a snapError.

// snapPlan reads values of one type.
type snapPlan struct {
	t    reflect.Type
	size uintptr
	// read reads a value of t into the memory at p (of t's size and
	// alignment, zero or not: every byte a value is read into is
	// written, except the parts the reading run keeps its own).
	read func(d *snapDec, p unsafe.Pointer)

	// The slab of values of t that pointers read next get: free is the
	// next, left how many remain; chunk is how many the next slab holds.
	free  unsafe.Pointer
	left  int
	chunk int
	slice reflect.Type // []t

	// For a pointer type: the plan of what it points to.
	elem *snapPlan
	// For an interface type: the word of the type it holds, per concrete
	// type the snapshot names (by the snapshot's number); set once the
	// concrete type is seen.
	tabs []unsafe.Pointer
}

// snapSlabBytes caps a slab: a slab lives as long as any value in it, so
// they are small enough that what the run drops after the read is not
// kept much longer than it would have been.
const snapSlabBytes = 8 << 10

// alloc returns n zeroed values of the plan's type, in a row.
func (pl *snapPlan) alloc(n int) unsafe.Pointer {
	if n > pl.left {
		if pl.size == 0 {
			return reflect.New(pl.t).UnsafePointer()
		}
		if n*int(pl.size) > snapSlabBytes/2 {
			return reflect.MakeSlice(pl.slice, n, n).UnsafePointer()
		}
		// Slabs grow as the type proves common: 4 values first, then
		// twice as many each time, to snapSlabBytes.
		c := max(pl.chunk, 4)
		pl.chunk = min(2*c, max(1, snapSlabBytes/int(pl.size)))
		c = max(c, n)
		pl.free, pl.left = reflect.MakeSlice(pl.slice, c, c).UnsafePointer(), c
	}
	p := pl.free
	pl.left -= n
	if pl.left == 0 {
		pl.free = nil // never a pointer past the slab's end
	} else {
		pl.free = unsafe.Add(p, uintptr(n)*pl.size)
	}
	return p
}

// snapYieldEvery is how many values pointers point to a read reads
// between two calls of its yield: 400,000 in a world of 10,000 pods, a
// few milliseconds of a tab's time per 2,000.
const snapYieldEvery = 2000

// snapRef is a value a pointer was read as: later pointers to it name it
// by number.
type snapRef struct {
	p    unsafe.Pointer
	plan *snapPlan
}

// sliceHeader is the layout of a slice; ifaceWords that of an interface.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

type ifaceWords struct{ tab, data unsafe.Pointer }

// planOf returns the plan of type t, made once per read.
func (d *snapDec) planOf(t reflect.Type) *snapPlan {
	if pl, ok := d.plans[t]; ok {
		return pl
	}
	pl := &snapPlan{t: t, size: t.Size()}
	d.plans[t] = pl // before its parts: a type may hold itself
	if t.Size() > 0 {
		pl.slice = reflect.SliceOf(t)
	}
	pl.read = d.makeRead(t, pl)
	return pl
}

func (d *snapDec) makeRead(t reflect.Type, pl *snapPlan) func(d *snapDec, p unsafe.Pointer) {
	if t == procInfoType || t == specsType {
		return func(*snapDec, unsafe.Pointer) {} // the reading run's own (AddCheckpoint)
	}
	switch t.Kind() {
	case reflect.Bool:
		return func(d *snapDec, p unsafe.Pointer) { *(*bool)(p) = d.bool() }
	case reflect.Int:
		return func(d *snapDec, p unsafe.Pointer) { *(*int)(p) = int(d.varint()) }
	case reflect.Int8:
		return func(d *snapDec, p unsafe.Pointer) { *(*int8)(p) = int8(d.varint()) }
	case reflect.Int16:
		return func(d *snapDec, p unsafe.Pointer) { *(*int16)(p) = int16(d.varint()) }
	case reflect.Int32:
		return func(d *snapDec, p unsafe.Pointer) { *(*int32)(p) = int32(d.varint()) }
	case reflect.Int64:
		return func(d *snapDec, p unsafe.Pointer) { *(*int64)(p) = d.varint() }
	case reflect.Uint:
		return func(d *snapDec, p unsafe.Pointer) { *(*uint)(p) = uint(d.uv()) }
	case reflect.Uint8:
		return func(d *snapDec, p unsafe.Pointer) { *(*uint8)(p) = uint8(d.uv()) }
	case reflect.Uint16:
		return func(d *snapDec, p unsafe.Pointer) { *(*uint16)(p) = uint16(d.uv()) }
	case reflect.Uint32:
		return func(d *snapDec, p unsafe.Pointer) { *(*uint32)(p) = uint32(d.uv()) }
	case reflect.Uint64:
		return func(d *snapDec, p unsafe.Pointer) { *(*uint64)(p) = d.uv() }
	case reflect.Float32:
		return func(d *snapDec, p unsafe.Pointer) { *(*float32)(p) = float32(math.Float64frombits(d.uv())) }
	case reflect.Float64:
		return func(d *snapDec, p unsafe.Pointer) { *(*float64)(p) = math.Float64frombits(d.uv()) }
	case reflect.String:
		return func(d *snapDec, p unsafe.Pointer) { *(*string)(p) = d.str() }
	case reflect.Pointer:
		pl.elem = d.planOf(t.Elem())
		return func(d *snapDec, p unsafe.Pointer) { *(*unsafe.Pointer)(p) = d.pointerTo(pl.elem) }
	case reflect.Slice:
		return d.sliceRead(t)
	case reflect.Array:
		ep, n := d.planOf(t.Elem()), t.Len()
		return func(d *snapDec, p unsafe.Pointer) {
			for i := range n {
				ep.read(d, unsafe.Add(p, uintptr(i)*ep.size))
			}
		}
	case reflect.Struct:
		return d.structRead(t)
	case reflect.Map:
		if f := snapFastMap(d, t); f != nil {
			return f
		}
		return d.mapRead(t)
	case reflect.Interface:
		return d.ifaceRead(t, pl)
	}
	// Funcs, channels and the like: Snapshot wrote nothing (it refuses a
	// world where they are not zero).
	return func(d *snapDec, p unsafe.Pointer) {
		reflect.NewAt(t, p).Elem().SetZero()
	}
}

// structRead reads each field at its offset: the fields of the common
// basic kinds in place, the others through their plan.
func (d *snapDec) structRead(t reflect.Type) func(d *snapDec, p unsafe.Pointer) {
	type field struct {
		off  uintptr
		kind reflect.Kind
		plan *snapPlan
	}
	fields := make([]field, t.NumField())
	for i := range fields {
		f := t.Field(i)
		fields[i] = field{off: f.Offset, kind: f.Type.Kind()}
		switch {
		case f.Type == procInfoType || f.Type == specsType:
			fields[i].kind = reflect.Invalid // the reading run's own
		case f.Type.Kind() == reflect.Pointer:
			fields[i].plan = d.planOf(f.Type.Elem()) // read in place too
		default:
			fields[i].plan = d.planOf(f.Type)
		}
	}
	return func(d *snapDec, base unsafe.Pointer) {
		for i := range fields {
			f := &fields[i]
			p := unsafe.Add(base, f.off)
			switch f.kind {
			case reflect.String:
				*(*string)(p) = d.str()
			case reflect.Int:
				*(*int)(p) = int(d.varint())
			case reflect.Int64:
				*(*int64)(p) = d.varint()
			case reflect.Int32:
				*(*int32)(p) = int32(d.varint())
			case reflect.Uint64:
				*(*uint64)(p) = d.uv()
			case reflect.Bool:
				*(*bool)(p) = d.bool()
			case reflect.Pointer:
				*(*unsafe.Pointer)(p) = d.pointerTo(f.plan)
			case reflect.Invalid:
			default:
				f.plan.read(d, p)
			}
		}
	}
}

// pointerTo reads a pointer to a value of ep's type: nil, a new value, or
// one read before (which must be of that type).
func (d *snapDec) pointerTo(ep *snapPlan) unsafe.Pointer {
	switch id := d.uv(); id {
	case 0:
		return nil
	case 1:
		if d.toYield--; d.toYield <= 0 && d.yield != nil {
			d.toYield = snapYieldEvery
			d.yield()
		}
		q := ep.alloc(1)
		d.ptrs = append(d.ptrs, snapRef{q, ep})
		ep.read(d, q)
		return q
	default:
		if id-2 >= uint64(len(d.ptrs)) || d.ptrs[id-2].plan != ep {
			d.damaged()
		}
		return d.ptrs[id-2].p
	}
}

// sliceRead reads a slice: nil, or its length and its elements, in memory
// of their own (a small one's from its element type's slab).
func (d *snapDec) sliceRead(t reflect.Type) func(d *snapDec, p unsafe.Pointer) {
	if t.Elem().Kind() == reflect.Uint8 {
		return func(d *snapDec, p unsafe.Pointer) {
			h := (*sliceHeader)(p)
			n := d.uv()
			if n == 0 {
				*h = sliceHeader{}
				return
			}
			if n-1 > uint64(len(d.buf)-d.at) {
				d.damaged()
			}
			b := reflect.MakeSlice(t, int(n-1), int(n-1))
			d.at += copy(unsafe.Slice((*byte)(b.UnsafePointer()), n-1), d.buf[d.at:])
			reflect.NewAt(t, p).Elem().Set(b)
		}
	}
	ep := d.planOf(t.Elem())
	return func(d *snapDec, p unsafe.Pointer) {
		h := (*sliceHeader)(p)
		n := d.uv()
		if n == 0 {
			*h = sliceHeader{}
			return
		}
		if n-1 > uint64(len(d.buf)-d.at) {
			d.damaged()
		}
		k := int(n - 1)
		if k == 0 {
			*h = sliceHeader{data: unsafe.Pointer(&snapEmpty), len: 0, cap: 0}
			return
		}
		// Its capacity is its length: an append makes a new array, and
		// never writes into the slab's next values.
		a := ep.alloc(k)
		for i := range k {
			ep.read(d, unsafe.Add(a, uintptr(i)*ep.size))
		}
		*h = sliceHeader{data: a, len: k, cap: k}
	}
}

// snapEmpty is where an empty slice that is not nil points (Go's own
// empty slices point at a zero-size value too).
var snapEmpty struct{}

// mapRead reads a map through reflect: nil, or its size and its entries.
func (d *snapDec) mapRead(t reflect.Type) func(d *snapDec, p unsafe.Pointer) {
	kp, ep := d.planOf(t.Key()), d.planOf(t.Elem())
	return func(d *snapDec, p unsafe.Pointer) {
		v := reflect.NewAt(t, p).Elem()
		n := d.uv()
		if n == 0 {
			v.SetZero()
			return
		}
		if n-1 > uint64(len(d.buf)-d.at) {
			d.damaged()
		}
		m := reflect.MakeMapWithSize(t, int(n-1))
		// One key and one value, read again for every entry
		// (SetMapIndex copies them).
		k, x := reflect.New(t.Key()), reflect.New(t.Elem())
		for range int(n - 1) {
			k.Elem().SetZero()
			x.Elem().SetZero()
			kp.read(d, k.UnsafePointer())
			ep.read(d, x.UnsafePointer())
			m.SetMapIndex(k.Elem(), x.Elem())
		}
		v.Set(m)
	}
}

// snapMap reads a map of one of the types snapFastMap knows, with code
// compiled for it.
func snapMap[K comparable, V any](d *snapDec) func(d *snapDec, p unsafe.Pointer) {
	kp, ep := d.planOf(reflect.TypeFor[K]()), d.planOf(reflect.TypeFor[V]())
	return func(d *snapDec, p unsafe.Pointer) {
		n := d.uv()
		if n == 0 {
			*(*map[K]V)(p) = nil
			return
		}
		if n-1 > uint64(len(d.buf)-d.at) {
			d.damaged()
		}
		m := make(map[K]V, int(n-1))
		var k, k0 K
		var x, x0 V
		for range int(n - 1) {
			k, x = k0, x0
			kp.read(d, unsafe.Pointer(&k))
			ep.read(d, unsafe.Pointer(&x))
			m[k] = x
		}
		*(*map[K]V)(p) = m
	}
}

// snapStringMap reads a map of strings to strings (every object's labels,
// every container's resources): its keys and values straight from the
// strings read.
func snapStringMap[V ~string](d *snapDec, p unsafe.Pointer) {
	n := d.uv()
	if n == 0 {
		*(*map[string]V)(p) = nil
		return
	}
	if n-1 > uint64(len(d.buf)-d.at) {
		d.damaged()
	}
	m := make(map[string]V, int(n-1))
	for range int(n - 1) {
		k := d.str()
		m[k] = V(d.str())
	}
	*(*map[string]V)(p) = m
}

// snapFastMap is the compiled reader of a map type a world holds many of
// (every object's labels, every container's resources), or nil.
func snapFastMap(d *snapDec, t reflect.Type) func(d *snapDec, p unsafe.Pointer) {
	switch t {
	case reflect.TypeFor[map[string]string]():
		return snapStringMap[string]
	case reflect.TypeFor[map[string]api.Quantity]():
		return snapStringMap[api.Quantity]
	case reflect.TypeFor[map[string]*controller.Container]():
		return snapMap[string, *controller.Container](d)
	case reflect.TypeFor[map[string]int]():
		return snapMap[string, int](d)
	case reflect.TypeFor[map[string]bool]():
		return snapMap[string, bool](d)
	}
	return nil
}

// ifaceRead reads an interface: nil, or the number of the concrete type
// it holds and a value of that type.
func (d *snapDec) ifaceRead(t reflect.Type, pl *snapPlan) func(d *snapDec, p unsafe.Pointer) {
	return func(d *snapDec, p unsafe.Pointer) {
		id := d.uv()
		if id == 0 {
			*(*ifaceWords)(p) = ifaceWords{}
			return
		}
		if id > uint64(len(d.types)) {
			d.damaged()
		}
		ct := d.types[id-1]
		if ct.Kind() != reflect.Pointer {
			// A value that is not a pointer (a string, a number in a
			// value of type any): through reflect.
			if !ct.Implements(t) {
				d.damaged()
			}
			c := reflect.New(ct).Elem()
			d.planOf(ct).read(d, c.Addr().UnsafePointer())
			reflect.NewAt(t, p).Elem().Set(c)
			return
		}
		tab := d.ifaceTab(t, pl, int(id-1), ct)
		q := d.pointerTo(d.planOf(ct).elem)
		*(*ifaceWords)(p) = ifaceWords{tab: tab, data: q}
	}
}

// ifaceTab is the type word of an interface of type t holding a pointer
// of type ct, the snapshot's type number i: taken once from an interface
// reflect makes.
func (d *snapDec) ifaceTab(t reflect.Type, pl *snapPlan, i int, ct reflect.Type) unsafe.Pointer {
	if i < len(pl.tabs) && pl.tabs[i] != nil {
		return pl.tabs[i]
	}
	if !ct.Implements(t) {
		d.damaged()
	}
	v := reflect.New(t)
	v.Elem().Set(reflect.Zero(ct))
	tab := (*ifaceWords)(v.UnsafePointer()).tab
	if i >= len(pl.tabs) {
		pl.tabs = append(pl.tabs, make([]unsafe.Pointer, i+1-len(pl.tabs))...)
	}
	pl.tabs[i] = tab
	return tab
}

// snapStrBlock is how many bytes of strings share a block.
const snapStrBlock = 16 << 10

// newString is a string of the next n bytes: short ones are copied into
// a block shared with the next ones (one allocation per block, not per
// string).
func (d *snapDec) newString(n int) string {
	src := d.buf[d.at : d.at+n]
	d.at += n
	if n == 0 {
		return ""
	}
	if n > snapStrBlock/8 {
		return string(src)
	}
	if n > len(d.strBlock) {
		d.strBlock = make([]byte, snapStrBlock)
	}
	b := d.strBlock[:n:n]
	copy(b, src)
	d.strBlock = d.strBlock[n:]
	return unsafe.String(&b[0], n)
}

// readWorld reads the world after the header into w.
func (d *snapDec) readWorld(w *world) {
	d.ptrs = make([]snapRef, 0, d.nptrs)
	d.strs = make([]string, 0, d.nstrs)
	d.planOf(reflect.TypeFor[world]()).read(d, unsafe.Pointer(w))
}

// The checks of the plans above, on the sizes they assume.
var _ = [1]struct{}{}[unsafe.Sizeof(sliceHeader{})-unsafe.Sizeof([]int{})]
var _ = [1]struct{}{}[unsafe.Sizeof(ifaceWords{})-unsafe.Sizeof(any(nil))]
