package sim

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/fnv"
	"math"
	"reflect"
	"slices"
	"strings"
	"unsafe"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/validation"
)

// Snapshots: the world after a pass as bytes, and back.
//
// A deep link far into a big run (pass 30,000 of 10,000 pods) would have
// the browser compute every pass before it: seconds of work. A snapshot
// written where the run was computed before (natively, when the site is
// built) and shipped with it lets the browser start from there instead:
// AddCheckpoint keeps it as a checkpoint, and Seek and NearestCheckpoint
// use it as one of their own.
//
// The world is data: objects, caches, queues, the agenda, the pass log.
// Snapshot walks it with reflection and writes every value it reaches: a
// pointer once (later ones refer to it, so what is shared stays shared),
// a string once (later ones by number), maps in key order (the bytes do
// not depend on Go's map order), and the concrete type of an interface by
// name. The only code a world holds is what each process runs
// (procInfo: its controller's Spec) and the registry it was built from;
// those are not written: the run reading the snapshot has them, built
// from the same Config.
//
// A snapshot is read only by a build whose world has the same shape: its
// header carries a fingerprint of every type it can hold, and a label the
// writer chooses (the scenario and the build it was computed by); a
// snapshot whose fingerprint or label differs is refused, as is one whose
// bytes are damaged. A snapshot is of the run as its Config describes
// it, without the inputs given with Inject.

// snapshotMagic starts every snapshot; the byte after it is the format,
// then the fingerprint, the label, the pass, the names of the types
// its interfaces hold, and how many values pointers point to and how many
// strings the world holds (the reader makes room for them at once); then
// the world; then the CRC-32C of all before
// (Castagnoli: a damaged file is refused, cheaply even in wasm).
const snapshotMagic = "RCNCSNAP"

const snapshotFormat = 2

// snapCRC is the CRC-32C of b. The table is made on first use, not when
// the program starts (crc32 keeps it once made).
func snapCRC(b []byte) uint32 { return crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)) }

// Snapshot writes the world at the current pass under label.
func (s *Sim) Snapshot(label string) ([]byte, error) {
	if len(s.inputs) > 0 {
		return nil, errors.New("snapshot: the run has inputs given with Inject; a snapshot is of the run its Config describes")
	}
	e := &snapEnc{ptrs: map[snapPtr]uint64{}, strs: map[string]uint64{}, types: map[reflect.Type]uint64{}}
	var body []byte
	err := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				if se, ok := r.(snapError); ok {
					err = se
					return
				}
				panic(r)
			}
		}()
		e.value(reflect.ValueOf(s.w).Elem())
		return nil
	}()
	if err != nil {
		return nil, err
	}
	body = e.buf
	head := []byte(snapshotMagic)
	head = append(head, snapshotFormat)
	head = binary.LittleEndian.AppendUint64(head, snapshotFingerprint())
	head = appendSnapString(head, label)
	head = binary.AppendUvarint(head, uint64(s.w.npass))
	head = binary.AppendUvarint(head, uint64(len(e.typeList)))
	for _, t := range e.typeList {
		head = appendSnapString(head, snapTypeName(t))
	}
	head = binary.AppendUvarint(head, uint64(len(e.ptrs)))
	head = binary.AppendUvarint(head, uint64(len(e.strs)))
	out := append(head, body...)
	return binary.LittleEndian.AppendUint32(out, snapCRC(out)), nil
}

// SnapshotPass reads the pass a snapshot was written after, and its
// label, without reading the world.
func SnapshotPass(data []byte) (pass int, label string, err error) {
	d := &snapDec{buf: data}
	err = d.guard(func() {
		d.header()
		pass, label = d.pass, d.label
	})
	return pass, label, err
}

// AddCheckpoint reads a snapshot of this run's world, written under label,
// and keeps it as the checkpoint of its pass, forgetting the checkpoints
// after it: a seek to that pass or past it starts there. It returns the
// pass. A snapshot of another shape, label
// or run, or a damaged one, is an error and changes nothing; so is one
// for a pass after an input given with Inject (its future differs).
func (s *Sim) AddCheckpoint(data []byte, label string) (int, error) {
	r, err := s.ReadSnapshot(data, label, nil)
	if err != nil {
		return 0, err
	}
	return s.KeepSnapshot(r)
}

// SnapshotRead is a snapshot's world read for a run, not yet kept.
type SnapshotRead struct {
	pass int
	w    *world
	// base is the start of the run it was read for.
	base *world
}

// Pass is the pass the world read is of.
func (r *SnapshotRead) Pass() int { return r.pass }

// ReadSnapshot reads a snapshot of this run's world, written under label,
// without keeping it (KeepSnapshot keeps it) and without changing the
// run: a page can read it a slice at a time. yield, when not nil, is
// called every few thousand values read (snapYieldEvery): it may give
// the rest of the program its turn, as long as that does not change this
// run's start. A snapshot of another shape, label or run, or a damaged
// one, is an error; so is one for a pass after an input given with Inject.
func (s *Sim) ReadSnapshot(data []byte, label string, yield func()) (*SnapshotRead, error) {
	d := &snapDec{buf: data, base: s.checkpoints[0].w, plans: map[reflect.Type]*snapPlan{}, yield: yield}
	var w world
	err := d.guard(func() {
		d.header()
		if d.label != label {
			d.fail(fmt.Sprintf("it is of %q, not of %q", d.label, label))
		}
		if d.pass < 1 {
			d.fail("it is of pass 0, the start")
		}
		s.checkInputs(d.pass, d.fail)
		d.resolveTypes()
		d.readWorld(&w)
		if d.at != len(d.buf) {
			d.fail(fmt.Sprintf("%d bytes follow the world", len(d.buf)-d.at))
		}
		if w.npass != d.pass || len(w.procs) != len(d.base.procs) {
			d.fail("its world does not match its header or this run")
		}
	})
	if err != nil {
		return nil, err
	}
	for i, p := range w.procs {
		if p == nil {
			return nil, errors.New("snapshot: damaged: a process is missing")
		}
		p.procInfo = d.base.procs[i].procInfo
	}
	w.specs = d.base.specs
	return &SnapshotRead{pass: d.pass, w: &w, base: d.base}, nil
}

// checkInputs fails when the run has an input given before pass.
func (s *Sim) checkInputs(pass int, fail func(string)) {
	for _, in := range s.inputs {
		if in.After < pass {
			fail(fmt.Sprintf("the run has an input after pass %d, before the snapshot's pass %d", in.After, pass))
		}
	}
}

// KeepSnapshot keeps a world ReadSnapshot read for this run as the
// checkpoint of its pass, forgetting the checkpoints after it: a seek to
// that pass or past it starts there. It returns the pass. A world read
// for another run, or one the run's inputs given since make wrong, is an
// error and changes nothing.
func (s *Sim) KeepSnapshot(r *SnapshotRead) (int, error) {
	if r == nil || r.base != s.checkpoints[0].w {
		return 0, errors.New("snapshot: read for another run")
	}
	var err error
	s.checkInputs(r.pass, func(why string) { err = snapError(why) })
	if err != nil {
		return 0, err
	}
	i := s.nearest(r.pass)
	if s.checkpoints[i].pass == r.pass {
		return r.pass, nil // kept already
	}
	// The checkpoints after it go: a run holds one world read from a
	// snapshot with what it computed after it, not two (a snapshot's
	// world is as big as the run's), and a seek back to before a
	// snapshot kept earlier replays from the one kept now.
	w := r.w
	cp := checkpoint{pass: r.pass, w: w, work: w.work(), before: w.passEnd}
	s.checkpoints = append(slices.Clip(s.checkpoints[:i+1]), cp)
	return r.pass, nil
}

// snapError is a snapshot refused or damaged, or a world that cannot be
// written.
type snapError string

func (e snapError) Error() string { return "snapshot: " + string(e) }

func appendSnapString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// snapTypeName names a type the same way in every build: its package
// path and name, with the pointer marks of an unnamed pointer type.
func snapTypeName(t reflect.Type) string {
	stars := ""
	for t.Kind() == reflect.Pointer && t.Name() == "" {
		stars += "*"
		t = t.Elem()
	}
	if t.Name() == "" || t.PkgPath() == "" {
		return stars + t.String() // unnamed, or predeclared (string)
	}
	return stars + t.PkgPath() + "." + t.Name()
}

// snapPtr is a pointer as the writer keeps it: a struct and its first
// field share an address but are different values.
type snapPtr struct {
	p uintptr
	t reflect.Type
}

type snapEnc struct {
	buf      []byte
	ptrs     map[snapPtr]uint64
	strs     map[string]uint64
	types    map[reflect.Type]uint64
	typeList []reflect.Type
}

var (
	procInfoType = reflect.TypeFor[*procInfo]()
	specsType    = reflect.TypeFor[[]controller.Spec]()
)

func (e *snapEnc) uv(x uint64) { e.buf = binary.AppendUvarint(e.buf, x) }

func (e *snapEnc) str(s string) {
	if id, ok := e.strs[s]; ok {
		e.uv(id + 1)
		return
	}
	e.strs[s] = uint64(len(e.strs))
	e.uv(0)
	e.buf = appendSnapString(e.buf, s)
}

// settable gives an addressable value whose unexported fields can be
// read and set.
func settable(v reflect.Value) reflect.Value {
	if v.CanSet() || !v.CanAddr() {
		return v
	}
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

// copyOf is v in a new addressable value.
func copyOf(v reflect.Value) reflect.Value {
	c := reflect.New(v.Type()).Elem()
	c.Set(settable(v))
	return c
}

func (e *snapEnc) value(v reflect.Value) {
	t := v.Type()
	if t == procInfoType || t == specsType {
		return // the reading run's own (AddCheckpoint)
	}
	switch v.Kind() {
	case reflect.Bool:
		b := byte(0)
		if v.Bool() {
			b = 1
		}
		e.buf = append(e.buf, b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.buf = binary.AppendVarint(e.buf, v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		e.uv(v.Uint())
	case reflect.Float32, reflect.Float64:
		e.uv(math.Float64bits(v.Float()))
	case reflect.String:
		e.str(v.String())
	case reflect.Pointer:
		if v.IsNil() {
			e.uv(0)
			return
		}
		k := snapPtr{v.Pointer(), t}
		if id, ok := e.ptrs[k]; ok {
			e.uv(id + 2)
			return
		}
		e.ptrs[k] = uint64(len(e.ptrs))
		e.uv(1)
		e.value(settable(v.Elem()))
	case reflect.Slice:
		if v.IsNil() {
			e.uv(0)
			return
		}
		e.uv(uint64(v.Len()) + 1)
		if t.Elem().Kind() == reflect.Uint8 {
			e.buf = append(e.buf, settable(v).Bytes()...)
			return
		}
		for i := range v.Len() {
			e.value(settable(v.Index(i)))
		}
	case reflect.Array:
		for i := range v.Len() {
			e.value(settable(v.Index(i)))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			e.value(settable(v.Field(i)))
		}
	case reflect.Map:
		if v.IsNil() {
			e.uv(0)
			return
		}
		e.uv(uint64(v.Len()) + 1)
		v = settable(v)
		keys := v.MapKeys()
		sortSnapKeys(keys)
		for _, k := range keys {
			e.value(copyOf(k))
			e.value(copyOf(v.MapIndex(k)))
		}
	case reflect.Interface:
		if v.IsNil() {
			e.uv(0)
			return
		}
		el := settable(v).Elem()
		id, ok := e.types[el.Type()]
		if !ok {
			id = uint64(len(e.typeList))
			e.types[el.Type()] = id
			e.typeList = append(e.typeList, el.Type())
		}
		e.uv(id + 1)
		e.value(copyOf(el))
	case reflect.Func, reflect.Chan, reflect.UnsafePointer, reflect.Uintptr, reflect.Complex64, reflect.Complex128:
		if !v.IsZero() {
			panic(snapError(fmt.Sprintf("the world holds a %s, which a snapshot cannot hold", t)))
		}
	default:
		panic(snapError(fmt.Sprintf("the world holds a %s", t)))
	}
}

// sortSnapKeys puts map keys in an order that does not depend on the
// map: strings and numbers by value; other keys by their text.
func sortSnapKeys(keys []reflect.Value) {
	if len(keys) < 2 {
		return
	}
	switch keys[0].Kind() {
	case reflect.String:
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		slices.SortFunc(keys, func(a, b reflect.Value) int { return cmpOrdered(a.Int(), b.Int()) })
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		slices.SortFunc(keys, func(a, b reflect.Value) int { return cmpOrdered(a.Uint(), b.Uint()) })
	case reflect.Bool:
		slices.SortFunc(keys, func(a, b reflect.Value) int {
			return cmpOrdered(boolInt(a.Bool()), boolInt(b.Bool()))
		})
	case reflect.Struct:
		// Keys of strings and numbers: by their fields' text, in order.
		text := func(v reflect.Value) string {
			var b strings.Builder
			for i := range v.NumField() {
				f := v.Field(i)
				switch f.Kind() {
				case reflect.String:
					fmt.Fprintf(&b, "%q,", f.String())
				case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
					fmt.Fprintf(&b, "%d,", f.Int())
				case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
					fmt.Fprintf(&b, "%d,", f.Uint())
				case reflect.Bool:
					fmt.Fprintf(&b, "%t,", f.Bool())
				default:
					panic(snapError(fmt.Sprintf("the world has a map keyed by %s", v.Type())))
				}
			}
			return b.String()
		}
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(text(a), text(b)) })
	default:
		panic(snapError(fmt.Sprintf("the world has a map keyed by %s", keys[0].Type())))
	}
}

func cmpOrdered[T int64 | uint64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// snapDec reads a snapshot. Every read is checked: damaged bytes end the
// read with a snapError, never with an index out of range.
type snapDec struct {
	buf   []byte
	at    int
	pass  int
	label string
	names []string
	types []reflect.Type
	ptrs  []snapRef
	strs  []string
	// strBlock is what is left of the block the next short string is
	// copied into (snapshot_read.go).
	strBlock []byte
	// nptrs and nstrs are how many values pointers point to and how many
	// strings the header says the world holds.
	nptrs, nstrs int
	// yield is called every snapYieldEvery values read (ReadSnapshot);
	// toYield counts down to the next call.
	yield   func()
	toYield int
	// base is the reading run's start: its processes' procInfo and the
	// types of its controllers.
	base  *world
	plans map[reflect.Type]*snapPlan
}

func (d *snapDec) fail(why string) { panic(snapError(why)) }

func (d *snapDec) damaged() { d.fail("damaged: its bytes end or disagree with its types") }

func (d *snapDec) guard(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if se, ok := r.(snapError); ok {
				err = se
				return
			}
			// reflect refuses a value of the wrong type: bytes that
			// disagree with the types they name.
			err = snapError(fmt.Sprintf("damaged: %v", r))
		}
	}()
	f()
	return nil
}

func (d *snapDec) uv() uint64 {
	if d.at < len(d.buf) {
		if b := d.buf[d.at]; b < 0x80 { // most numbers: one byte
			d.at++
			return uint64(b)
		}
	}
	x, n := binary.Uvarint(d.buf[d.at:])
	if n <= 0 {
		d.damaged()
	}
	d.at += n
	return x
}

func (d *snapDec) varint() int64 {
	if d.at < len(d.buf) {
		if b := d.buf[d.at]; b < 0x80 { // one byte, zig-zag
			d.at++
			x := int64(b >> 1)
			if b&1 != 0 {
				x = ^x
			}
			return x
		}
	}
	x, n := binary.Varint(d.buf[d.at:])
	if n <= 0 {
		d.damaged()
	}
	d.at += n
	return x
}

func (d *snapDec) bool() bool {
	if d.at >= len(d.buf) || d.buf[d.at] > 1 {
		d.damaged()
	}
	d.at++
	return d.buf[d.at-1] == 1
}

// count reads a length, no more than the bytes left could hold.
func (d *snapDec) count() int {
	n := d.uv()
	if n > uint64(len(d.buf)-d.at) {
		d.damaged()
	}
	return int(n)
}

func (d *snapDec) rawString() string {
	n := d.count()
	s := string(d.buf[d.at : d.at+n])
	d.at += n
	return s
}

func (d *snapDec) header() {
	if len(d.buf) < len(snapshotMagic)+9+4 || string(d.buf[:len(snapshotMagic)]) != snapshotMagic {
		d.fail("not a snapshot")
	}
	// The bytes end with the CRC-32C of the rest: a damaged snapshot is
	// refused before any of it is read.
	n := len(d.buf) - 4
	if snapCRC(d.buf[:n]) != binary.LittleEndian.Uint32(d.buf[n:]) {
		d.damaged()
	}
	d.buf = d.buf[:n]
	d.at = len(snapshotMagic)
	if f := d.buf[d.at]; f != snapshotFormat {
		d.fail(fmt.Sprintf("format %d, not %d", f, snapshotFormat))
	}
	d.at++
	if fp := binary.LittleEndian.Uint64(d.buf[d.at:]); fp != snapshotFingerprint() {
		d.fail("written by a build whose world has another shape")
	}
	d.at += 8
	d.label = d.rawString()
	d.pass = int(d.uv())
	d.names = make([]string, d.count())
	for i := range d.names {
		d.names[i] = d.rawString()
	}
	// Each pointer and string the world holds takes a byte at least.
	d.nptrs, d.nstrs = d.count(), d.count()
}

// resolveTypes finds the types the snapshot names among those a world of
// this run can hold in an interface: the object kinds and the run's
// controllers.
func (d *snapDec) resolveTypes() {
	known := map[string]reflect.Type{}
	for _, t := range snapObjectTypes() {
		known[snapTypeName(t)] = t
	}
	for _, t := range snapPlainTypes {
		known[snapTypeName(t)] = t
	}
	for _, p := range d.base.procs {
		if p.rec != nil {
			known[snapTypeName(reflect.TypeOf(p.rec))] = reflect.TypeOf(p.rec)
		}
		if p.edge != nil {
			known[snapTypeName(reflect.TypeOf(p.edge))] = reflect.TypeOf(p.edge)
		}
	}
	d.types = make([]reflect.Type, len(d.names))
	for i, n := range d.names {
		t, ok := known[n]
		if !ok {
			d.fail(fmt.Sprintf("it holds a %s, which this run does not have", n))
		}
		d.types[i] = t
	}
}

func (d *snapDec) str() string {
	id := d.uv()
	if id > 0 {
		if id > uint64(len(d.strs)) {
			d.damaged()
		}
		return d.strs[id-1]
	}
	s := d.newString(d.count())
	d.strs = append(d.strs, s)
	return s
}

// snapshotFingerprint hashes the shape of every type a world can hold:
// kinds, names, fields and the types an interface field may hold. Two
// builds with the same fingerprint read each other's snapshots.
func snapshotFingerprint() uint64 {
	h := fnv.New64a()
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		fmt.Fprintf(h, "%s:%s;", snapTypeName(t), t.Kind())
		if seen[t] {
			return
		}
		seen[t] = true
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			if t.Kind() == reflect.Array {
				fmt.Fprintf(h, "[%d]", t.Len())
			}
			walk(t.Elem())
		case reflect.Map:
			walk(t.Key())
			walk(t.Elem())
		case reflect.Struct:
			for i := range t.NumField() {
				f := t.Field(i)
				fmt.Fprintf(h, "%s{", f.Name)
				if f.Type != procInfoType && f.Type != specsType {
					walk(f.Type)
				}
				h.Write([]byte("}"))
			}
		}
	}
	walk(reflect.TypeFor[world]())
	for _, t := range snapObjectTypes() {
		walk(t)
	}
	for _, t := range snapControllerTypes() {
		walk(t)
	}
	return h.Sum64()
}

// snapPlainTypes are the predeclared types a world holds in interfaces
// (values of type any).
var snapPlainTypes = []reflect.Type{
	reflect.TypeFor[string](), reflect.TypeFor[int](), reflect.TypeFor[int64](),
	reflect.TypeFor[bool](), reflect.TypeFor[float64](), reflect.TypeFor[[]string](),
	reflect.TypeFor[[]any](), reflect.TypeFor[map[string]any](), reflect.TypeFor[map[string]string](),
	validation.RenderedType, // the bad values of an apply's refusals (Output.Invalid)
}

// snapObjectTypes are the types of the kinds the engine simulates, and
// the type of those it stores without simulating them (the ServiceAccount
// and ConfigMap every namespace holds are there from the start).
func snapObjectTypes() []reflect.Type {
	out := []reflect.Type{reflect.TypeFor[*api.Unstructured]()}
	for _, k := range api.Kinds() {
		if k.New != nil {
			out = append(out, reflect.TypeOf(k.New()))
		}
	}
	return out
}

// snapControllerTypes are the types of the registry's controllers, level-
// and edge-triggered.
func snapControllerTypes() []reflect.Type {
	var out []reflect.Type
	env := controller.Env{Node: "node"}
	for _, sp := range controller.Builtin {
		out = append(out, reflect.TypeOf(sp.New(env)))
		if sp.Edge != nil {
			out = append(out, reflect.TypeOf(sp.Edge(env)))
		}
	}
	return out
}
