package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"sort"
	"strconv"

	"reconcile/engine/api"
	"reconcile/engine/kinds"
	"reconcile/engine/pmap"
	"reconcile/engine/validation"
)

// Watch event types, as the API server names them.
const (
	Added    = "ADDED"
	Modified = "MODIFIED"
	Deleted  = "DELETED"
)

// WatchEvent is one change to one object. Old is the previous stored version
// (nil for ADDED); Object is the new one (for DELETED, the last version).
type WatchEvent struct {
	Type   string
	Object api.Object
	Old    api.Object
	// RV is the resourceVersion of the change, for ordering.
	RV int64
}

// Sentinel errors callers branch on.
var (
	ErrNotFound = errors.New("not found")
	ErrConflict = errors.New("conflict")
	ErrExists   = errors.New("already exists")
)

// StatusError is an API error with kubectl's wording.
type StatusError struct {
	Reason  string // NotFound, AlreadyExists, Conflict, Invalid, Forbidden, InternalError
	Message string
	kind    error
}

func (e *StatusError) Error() string { return e.Message }
func (e *StatusError) Unwrap() error { return e.kind }

// Store holds every object by kind, namespace and name.
//
// It calls out to nothing. What its owner must hear of (objects written,
// events recorded) it keeps in a change log, in order, for the owner to take
// (TakeChanges) after each call that writes; its clock is set by its owner
// (SetNow); its one source of randomness, the generated names of objects, is
// its own, seeded at New. So a Store is a value: Clone copies it whole.
type Store struct {
	now api.Time
	rng rng
	// volRng names the service account token volumes of pods
	// (kube-api-access-xxxxx): a stream of its own, so that pods'
	// generated names do not depend on how many volumes were named.
	volRng rng
	rv     int64
	uid    int64
	// kinds maps kind → key (namespace/name) → object. The maps share
	// their structure with the clones of the store (checkpoints), so a
	// clone costs what changes after it, not what is stored.
	kinds map[string]*pmap.Map[api.Object]
	// changes are what the owner has not taken yet.
	changes []Change
	// down holds the webhooks (and webhook configurations) that do not
	// answer.
	down map[string]bool
	// about holds, per involved object ("Kind/namespace/name"), what the
	// event recorder remembers of its events.
	about pmap.Map[*objectEvents]
	// events holds the events Record stored, in the order first
	// recorded (recorded.go); lastSeq is the number of the last one, and
	// renamed tells that some event's number is not the one its name
	// ends with.
	events  pmap.Map[*api.Event]
	lastSeq uint64
	renamed bool
	// series is the events.k8s.io recorder's cache, by isomorphic key
	// (series.go); seriesTick is its next periodic run, when it has any.
	series     pmap.Map[*cachedEvent]
	seriesTick api.Time
}

// Change is one thing the store did that its owner hears of, in order.
type Change struct {
	// Watch is an object created, updated or deleted, as a watch delivers it.
	Watch WatchEvent
	// Recorded, when not nil, is an event recorded (or bumped) instead: no
	// controller watches events.
	Recorded *api.Event
}

// New returns an empty store whose generated names come from seed, with
// Kubernetes' defaulting and validation (package validation) and its
// admission (admission.go).
func New(seed int64) *Store {
	s := &Store{rng: rng{state: uint64(seed)}, volRng: rng{state: uint64(seed) ^ 0x6b7562652d617069}, kinds: map[string]*pmap.Map[api.Object]{}}
	s.bootstrap()
	return s
}

// Clone returns a store sharing the (immutable) objects of s and, until
// either writes, the structure of its maps. It costs O(kinds), whatever is
// stored. s must have no change its owner has not taken.
func (s *Store) Clone() *Store {
	if len(s.changes) > 0 {
		panic("store: cloned with changes not taken") // broken invariant
	}
	out := &Store{now: s.now, rng: s.rng, volRng: s.volRng, rv: s.rv, uid: s.uid, down: maps.Clone(s.down),
		kinds: make(map[string]*pmap.Map[api.Object], len(s.kinds))}
	for k, m := range s.kinds {
		c := m.Clone()
		out.kinds[k] = &c
	}
	out.about = s.about.Clone()
	out.events, out.lastSeq, out.renamed = s.events.Clone(), s.lastSeq, s.renamed
	out.series, out.seriesTick = s.series.Clone(), s.seriesTick
	return out
}

// DryRun returns a copy of s for one dry-run request: a write to it is
// defaulted, validated and admitted as s would (generation, uid,
// creationTimestamp filled) and then thrown away with the copy. Unlike
// Clone it may be taken while s has changes its owner has not taken:
// the copy starts with none.
func (s *Store) DryRun() *Store {
	changes := s.changes
	s.changes = nil
	c := s.Clone()
	s.changes = changes
	return c
}

// SetNow moves the store's clock: creation, deletion and event timestamps
// are read from it. The events.k8s.io recorder's periodic writes due by t
// are made (series.go): the owner takes them as changes.
func (s *Store) SetNow(t api.Time) {
	if s.series.Len() > 0 && t >= s.seriesTick {
		s.seriesTicks(t)
	}
	s.now = t
}

// TakeChanges returns what the store did since the last call, oldest
// first, and forgets it.
func (s *Store) TakeChanges() []Change {
	out := s.changes
	s.changes = nil
	return out
}

// Pending returns what the store did since the last TakeChanges, oldest
// first, without taking it: a reader that must see every change by the
// time it looks (a kubectl watch) reads those its owner has not taken
// yet. The slice is the store's: read it before the next write.
func (s *Store) Pending() []Change { return s.changes }

// Recycle gives back a slice TakeChanges returned, once read, for the
// store to log the next changes into: a pass logs a few, and the slice of
// the one before does. It is taken only when no change came since.
func (s *Store) Recycle(list []Change) {
	if s.changes == nil && cap(list) > 0 {
		clear(list) // keep no object alive
		s.changes = list[:0]
	}
}

// notify logs a write for the owner.
func (s *Store) notify(ev WatchEvent) { s.changes = append(s.changes, Change{Watch: ev}) }

// ResourceVersion returns the store's latest resourceVersion.
func (s *Store) ResourceVersion() int64 { return s.rv }

// Get returns the stored object (shared: do not modify), or nil.
func (s *Store) Get(kind, namespace, name string) api.Object {
	if o := s.getKey(kind, key(namespace, name)); o != nil || kind != "Event" {
		return o
	}
	return s.recordedNamed(namespace, name)
}

// List returns the stored objects of kind, sorted by namespace and name.
func (s *Store) List(kind string) []api.Object {
	if kind == "Event" && s.events.Len() > 0 {
		return s.allEvents()
	}
	m := s.kinds[kind]
	if m == nil {
		return []api.Object{}
	}
	return m.Values()
}

// Kinds returns the kinds with at least one stored object, sorted.
func (s *Store) Kinds() []string {
	var out []string
	for k, m := range s.kinds {
		if m.Len() > 0 && (k != "Event" || s.events.Len() == 0) {
			out = append(out, k)
		}
	}
	if s.events.Len() > 0 {
		out = append(out, "Event")
	}
	sort.Strings(out)
	return out
}

// Count returns how many objects of kind are stored.
func (s *Store) Count(kind string) int {
	if kind == "Event" {
		return s.created(kind) + s.events.Len()
	}
	return s.created(kind)
}

// Hash returns a hash of the stored objects of kind, with sum hashing one
// object. It remembers what it hashed, in this store and the clones that
// share it, so after a few writes it costs those writes (see pmap.Map.Hash):
// sum must be the same function on every call.
func (s *Store) Hash(kind string, sum func(key string, o api.Object) [32]byte) [32]byte {
	m := s.kinds[kind]
	if kind == "Event" {
		m = s.eventMap()
	}
	if m == nil {
		var empty pmap.Map[api.Object]
		return empty.Hash(sum)
	}
	return m.Hash(sum)
}

func key(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}

// Resource returns the plural, group-qualified resource name kubectl uses
// in messages: "deployments.apps", "pods".
func Resource(kind string) string {
	k, _ := api.KindOf(kind)
	return k.GroupResource()
}

// NotFound returns the API server's not-found error for an object.
func NotFound(kind, name string) error {
	return &StatusError{Reason: "NotFound", kind: ErrNotFound,
		Message: fmt.Sprintf("%s %q not found", Resource(kind), name)}
}

const nameAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// Create stores a new object (a copy of obj) and returns the stored version.
func (s *Store) Create(obj api.Object) (api.Object, error) {
	return s.CreateOwned(obj.DeepCopyObject())
}

// CreateOwned is Create of an object its caller made for the create and
// hands over (sharing nothing it will change): the store defaults and
// keeps it instead of copying it first. The caller must not change obj
// after, nor read it after an error (it may be half defaulted).
func (s *Store) CreateOwned(obj api.Object) (api.Object, error) {
	m := obj.Meta()
	kind := obj.GetTypeMeta().Kind
	m.UID = "" // the API server sets it
	kinds.Default(obj)
	named := m.Name // the name admission sees: a generated one comes after it
	if named == "" {
		named = m.GenerateName
	}
	if m.Name == "" && m.GenerateName != "" {
		b := make([]byte, 5)
		for i := range b {
			b[i] = nameAlphabet[s.rng.intn(len(nameAlphabet))]
		}
		m.Name = m.GenerateName + string(b)
	}
	m.UID = uidOf(s.uid + 1) // known to the strategy; taken only if the create succeeds
	kinds.PrepareForCreate(obj)
	if err := s.namespaceLifecycle("CREATE", obj); err != nil {
		return nil, err
	}
	if err := s.mutate("CREATE", obj, named); err != nil {
		return nil, err
	}
	if err := kinds.ValidateCreate(obj); err != nil {
		return nil, err
	}
	if s.Get(kind, m.Namespace, m.Name) != nil {
		return nil, &StatusError{Reason: "AlreadyExists", kind: ErrExists,
			Message: fmt.Sprintf("%s %q already exists", Resource(kind), m.Name)}
	}
	if svc, ok := obj.(*api.Service); ok {
		if err := s.allocateService(svc, nil); err != nil {
			return nil, err
		}
	}
	if err := s.admit("CREATE", obj, named); err != nil {
		return nil, err
	}
	s.uid++
	m.CreationTimestamp = s.now
	m.DeletionTimestamp, m.DeletionGracePeriodSeconds = nil, nil
	m.Generation = 0
	if kinds.HasGeneration(kind) {
		m.Generation = 1
	}
	if p, ok := obj.(*api.Pod); ok && p.Status.Phase == "" {
		p.Status.Phase = api.PodPending // as the API server's pod strategy sets it
	}
	s.put(kind, obj)
	s.notify(WatchEvent{Type: Added, Object: obj, RV: s.rv})
	return obj, nil
}

func (s *Store) put(kind string, obj api.Object) {
	m := obj.Meta()
	k := key(m.Namespace, m.Name)
	if e, ok := obj.(*api.Event); ok && s.getKey(kind, k) == nil {
		if rk, ok := s.recordedKey(m.Namespace, m.Name); ok {
			s.putRecorded(binary.BigEndian.Uint64([]byte(rk)), e) // a recorded event, updated
			return
		}
	}
	s.putAt(kind, k, obj)
}

// putAt is put with the object's key (namespace/name) already made.
func (s *Store) putAt(kind, k string, obj api.Object) {
	s.rv++
	obj.Meta().ResourceVersion = strconv.FormatInt(s.rv, 10)
	m := s.kinds[kind]
	if m == nil {
		m = &pmap.Map[api.Object]{}
		s.kinds[kind] = m
	}
	m.Set(k, obj)
}

// Update replaces the main resource (metadata and spec) of an existing
// object; its status is kept. A non-empty resourceVersion that is not the
// stored one is a conflict. metadata.generation is bumped when the spec
// changes (and, for Deployments, the annotations).
func (s *Store) Update(obj api.Object) (api.Object, error) {
	return s.update(obj, false)
}

// UpdateStatus replaces only the status of an existing object.
func (s *Store) UpdateStatus(obj api.Object) (api.Object, error) {
	return s.update(obj, true)
}

func (s *Store) update(obj api.Object, status bool) (api.Object, error) {
	if status {
		obj = statusCopy(obj)
	} else {
		obj = obj.DeepCopyObject()
	}
	return s.updateOwn(obj, status)
}

// UpdateStatusOwned is UpdateStatus of an object its caller made for the
// write and hands over (a struct of its own, whose status shares nothing
// it will change): the store completes and keeps it as the new version
// instead of copying it first. The caller must not change obj after.
func (s *Store) UpdateStatusOwned(obj api.Object) (api.Object, error) {
	return s.updateOwn(obj, true)
}

// updateOwn is update of obj, the store's own copy.
func (s *Store) updateOwn(obj api.Object, status bool) (api.Object, error) {
	m := obj.Meta()
	kind := obj.GetTypeMeta().Kind
	old := s.Get(kind, m.Namespace, m.Name)
	if old == nil {
		return nil, NotFound(kind, m.Name)
	}
	if m.ResourceVersion != "" && m.ResourceVersion != old.Meta().ResourceVersion {
		return nil, &StatusError{Reason: "Conflict", kind: ErrConflict, Message: fmt.Sprintf(
			"Operation cannot be fulfilled on %s %q: the object has been modified; please apply your changes to the latest version and try again",
			Resource(kind), m.Name)}
	}
	om := old.Meta()
	if m.UID != "" && m.UID != om.UID { // BeforeUpdate's validateCommonFields, the status's too
		return nil, validation.NewError(kind, m.Name, validation.ErrorList{validation.Immutable(validation.Path("metadata.uid"), m.UID)})
	}
	// Fields clients can never set.
	m.UID, m.CreationTimestamp, m.Generation = om.UID, om.CreationTimestamp, om.Generation
	m.DeletionTimestamp, m.DeletionGracePeriodSeconds = nil, nil
	if om.DeletionTimestamp != nil {
		t := *om.DeletionTimestamp
		m.DeletionTimestamp = &t
	}
	if om.DeletionGracePeriodSeconds != nil {
		g := *om.DeletionGracePeriodSeconds
		m.DeletionGracePeriodSeconds = &g
	}
	if status {
		kinds.KeepSpec(obj, old)
	} else {
		kinds.KeepStatus(obj, old)
		kinds.Default(obj)
		if err := s.namespaceLifecycle("UPDATE", obj); err != nil {
			return nil, err
		}
		if err := kinds.ValidateUpdate(old, obj); err != nil {
			return nil, err
		}
		if svc, ok := obj.(*api.Service); ok {
			if err := s.allocateService(svc, old.(*api.Service)); err != nil {
				return nil, err
			}
		}
		if err := s.admit("UPDATE", obj, m.Name); err != nil {
			return nil, err
		}
		if kinds.HasGeneration(kind) && kinds.BumpsGeneration(old, obj) {
			m.Generation = om.Generation + 1
		}
	}
	if equalIgnoringRV(old, obj) {
		return old, nil // a no-op write changes nothing and notifies nobody
	}
	if _, ns := obj.(*api.Namespace); !ns && finalized(m) { // a namespace waits for its spec.finalizers (finished)
		return s.remove(obj), nil // its last finalizer is gone: so is it
	}
	if finished(obj) {
		return s.remove(obj), nil // a namespace emptied and finalized
	}
	s.put(kind, obj)
	s.notify(WatchEvent{Type: Modified, Object: obj, Old: old, RV: s.rv})
	return obj, nil
}

func equalIgnoringRV(a, b api.Object) bool {
	// A pod's status, compared first, is what its writes change most: the
	// walk over its metadata and spec is spared when it differs.
	if pa, ok := a.(*api.Pod); ok {
		if pb, ok := b.(*api.Pod); ok && !reflect.DeepEqual(&pa.Status, &pb.Status) {
			return false
		}
	}
	rv := b.Meta().ResourceVersion
	b.Meta().ResourceVersion = a.Meta().ResourceVersion
	eq := reflect.DeepEqual(a, b)
	b.Meta().ResourceVersion = rv
	return eq
}

// Delete deletes an object with no propagation policy of its own (a
// controller's delete): see DeleteWith.
func (s *Store) Delete(kind, namespace, name string, force bool) (api.Object, error) {
	return s.DeleteWith(kind, namespace, name, DeleteOptions{Force: force})
}

// Bind sets a pod's spec.nodeName, as the scheduler's binding subresource does.
func (s *Store) Bind(namespace, name, node string) (api.Object, error) {
	old, ok := s.Get("Pod", namespace, name).(*api.Pod)
	if !ok {
		return nil, NotFound("Pod", name)
	}
	if old.Spec.NodeName != "" {
		return nil, &StatusError{Reason: "Conflict", kind: ErrConflict,
			Message: fmt.Sprintf("Operation cannot be fulfilled on pods/binding %q: pod %s is already assigned to node %q", name, name, old.Spec.NodeName)}
	}
	p := boundCopy(old, node)
	s.put("Pod", p)
	s.notify(WatchEvent{Type: Modified, Object: p, Old: old, RV: s.rv})
	return p, nil
}

// Size returns how many objects are stored.
func (s *Store) Size() int {
	n := s.events.Len()
	for _, m := range s.kinds {
		n += m.Len()
	}
	return n
}

// Default returns a copy of obj with the API server's defaults filled in,
// as it would be stored.
func (s *Store) Default(obj api.Object) api.Object {
	obj = obj.DeepCopyObject()
	kinds.Default(obj)
	return obj
}
