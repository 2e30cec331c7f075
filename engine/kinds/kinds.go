// Package kinds is what the API server and kubectl do with each kind, one
// file per kind, in the image of Kubernetes' pkg/registry/<group>/<kind>/
// strategy.go: its defaulting, its create and update validation, whether
// it carries metadata.generation and which writes bump it, what a spec
// write keeps of its status and a status write of its spec, the columns
// kubectl get prints of it and what kubectl describe shows of it.
//
// Of is the one lookup: the store, the scenario loader, kubectl and the
// simulation's convergence check learn what they do per kind from it (and
// the functions beside it), and switch on no kind themselves. A kind
// the engine does not simulate (stored as *api.Unstructured) gets the
// strategy of an object with metadata only.
package kinds

import (
	"reflect"

	"reconcile/engine/api"
	"reconcile/engine/validation"
)

// Strategy is what the API server and kubectl do with one kind. Build one
// with Define; the zero values of its parts say "nothing": no defaults,
// metadata validated only, no generation bumps, a spec write that keeps no
// status.
type Strategy struct {
	// Kind is the kind, as the api registry names it.
	Kind string
	// NoGeneration is true for kinds whose objects carry no
	// metadata.generation (the strategy does not set it at create).
	NoGeneration bool
	// StatusWritesAnnotations is true when a status write may change the
	// annotations (the deployment controller writes its revision there).
	StatusWritesAnnotations bool
	// Columns are what kubectl get prints, NAME first; nil when kubectl
	// lays the kind out itself.
	Columns []Column

	typ            reflect.Type
	defaults       func(api.Object)
	prepare        func(api.Object)
	validate       func(api.Object) validation.ErrorList
	validateUpdate func(old, new api.Object) validation.ErrorList
	bumps          func(old, new api.Object) bool
	keepStatus     func(obj, old api.Object)
	keepSpec       func(obj, old api.Object)
	rolloutStatus  func(api.Object) (string, bool, error)
	moving         func(api.Object, Progress) string
	replicas       func(api.Object) **int32
	podTemplate    func(api.Object) *api.PodTemplateSpec
	describe       func(*Describer, api.Object)
}

// Column is one column of kubectl get.
type Column struct {
	// Name is the header, e.g. "READY".
	Name string
	// Wide is true for a column only -o wide prints.
	Wide bool
	// Cell renders an object's cell, now being the clock (for AGE).
	Cell func(obj api.Object, now api.Time) string
}

// Def is a kind's strategy written with its own type: Define turns it into
// a Strategy. Every function may be nil.
type Def[T api.Object] struct {
	Kind                    string
	NoGeneration            bool
	StatusWritesAnnotations bool
	// Default fills in what a client may leave out (after the namespace),
	// on create and on update, in place.
	Default func(T)
	// PrepareForCreate sets what the API server sets on a create only,
	// after a generated name has been chosen.
	PrepareForCreate func(T)
	// Validate checks an object being created (or the new version of an
	// update), its metadata included; nil checks the metadata only.
	Validate func(T) validation.ErrorList
	// ValidateUpdate checks what an update may not change.
	ValidateUpdate func(old, new T) validation.ErrorList
	// BumpsGeneration reports whether an update of the main resource bumps
	// metadata.generation; nil: none does.
	BumpsGeneration func(old, new T) bool
	// KeepStatus gives obj, being written through the main resource, the
	// stored status of old; nil: a spec write writes the status too.
	KeepStatus func(obj, old T)
	// KeepSpec gives obj, being written through the status subresource,
	// the stored spec of old. Labels, owners, finalizers and (unless
	// StatusWritesAnnotations) annotations are kept for every kind.
	KeepSpec func(obj, old T)
	// Columns are kubectl get's columns.
	Columns []TypedColumn[T]
	// RolloutStatus is one look of kubectl rollout status (its status
	// viewer): the line it prints, whether the rollout is done, and the
	// error that ends it. Nil for kinds kubectl rolls out by its own code
	// (Deployments) or not at all.
	RolloutStatus func(T) (line string, done bool, err error)
	// Moving says why the object is not settled yet, for the simulation's
	// convergence check ("daemonset agent: 2 of 3 updated pods are
	// available"); "" when it is. Nil for kinds the simulation reads
	// otherwise (or not at all).
	Moving func(obj T, p Progress) string
	// Replicas points at spec.replicas, for kinds with a scale
	// subresource (kubectl scale).
	Replicas func(T) **int32
	// PodTemplate points at the pod template of a workload (kubectl set
	// image, set env, rollout restart).
	PodTemplate func(T) *api.PodTemplateSpec
	// Describe writes what kubectl describe shows of an object, in
	// kubectl's order, its events last (w.Events) for kinds kubectl
	// shows them with; nil: kubectl's generic describer prints it.
	Describe func(w *Describer, obj T)
}

// TypedColumn is a Column written with the kind's own type.
type TypedColumn[T api.Object] struct {
	Name string
	Wide bool
	Cell func(obj T, now api.Time) string
}

var (
	registry         = map[string]*Strategy{}       // by kind
	byType           = map[reflect.Type]*Strategy{} // by Go type, but *api.Unstructured
	order            []*Strategy
	unstructuredType = reflect.TypeFor[*api.Unstructured]()
)

// Define registers a kind's strategy and returns it. The kind must be in
// the api registry, with a Go type of T, and defined once.
func Define[T api.Object](d Def[T]) *Strategy {
	if _, dup := registry[d.Kind]; dup {
		panic("kinds: " + d.Kind + " is defined twice")
	}
	s := &Strategy{Kind: d.Kind, NoGeneration: d.NoGeneration, StatusWritesAnnotations: d.StatusWritesAnnotations,
		typ: reflect.TypeFor[T]()}
	if f := d.Default; f != nil {
		s.defaults = func(o api.Object) { f(o.(T)) }
	}
	if f := d.PrepareForCreate; f != nil {
		s.prepare = func(o api.Object) { f(o.(T)) }
	}
	if f := d.Validate; f != nil {
		s.validate = func(o api.Object) validation.ErrorList { return f(o.(T)) }
	}
	if f := d.ValidateUpdate; f != nil {
		s.validateUpdate = func(old, new api.Object) validation.ErrorList {
			o, ok := old.(T)
			if !ok {
				return nil
			}
			return f(o, new.(T))
		}
	}
	if f := d.BumpsGeneration; f != nil {
		s.bumps = func(old, new api.Object) bool { return f(old.(T), new.(T)) }
	}
	if f := d.KeepStatus; f != nil {
		s.keepStatus = func(obj, old api.Object) { f(obj.(T), old.(T)) }
	}
	if f := d.KeepSpec; f != nil {
		s.keepSpec = func(obj, old api.Object) { f(obj.(T), old.(T)) }
	}
	if f := d.RolloutStatus; f != nil {
		s.rolloutStatus = func(o api.Object) (string, bool, error) { return f(o.(T)) }
	}
	if f := d.Moving; f != nil {
		s.moving = func(o api.Object, p Progress) string { return f(o.(T), p) }
	}
	if f := d.Replicas; f != nil {
		s.replicas = func(o api.Object) **int32 { return f(o.(T)) }
	}
	if f := d.PodTemplate; f != nil {
		s.podTemplate = func(o api.Object) *api.PodTemplateSpec { return f(o.(T)) }
	}
	if f := d.Describe; f != nil {
		s.describe = func(w *Describer, o api.Object) { f(w, o.(T)) }
	}
	for _, c := range d.Columns {
		cell := c.Cell
		s.Columns = append(s.Columns, Column{Name: c.Name, Wide: c.Wide, Cell: func(o api.Object, now api.Time) string { return cell(o.(T), now) }})
	}
	registry[d.Kind] = s
	if s.typ != unstructuredType {
		if _, dup := byType[s.typ]; dup {
			panic("kinds: two kinds of Go type " + s.typ.String())
		}
		byType[s.typ] = s
	}
	order = append(order, s)
	return s
}

// metadataOnly is the strategy of a kind the engine does not simulate (or
// of an object of another Go type than its kind's): its metadata is
// validated, its spec compared for generation, nothing else.
var metadataOnly = &Strategy{bumps: func(old, new api.Object) bool {
	o, ok1 := old.(*api.Unstructured)
	n, ok2 := new.(*api.Unstructured)
	return ok1 && ok2 && !reflect.DeepEqual(n.Spec, o.Spec)
}}

// Of returns the strategy of kind, nil if it has none (a kind the engine
// does not simulate, a custom resource).
func Of(kind string) *Strategy { return registry[kind] }

// All returns the strategies, in the order they were defined.
func All() []*Strategy { return order }

// of returns the strategy for obj: its Go type's, or for an
// *api.Unstructured its kind's when one is defined for it, metadataOnly's
// otherwise. (Whether it carries a generation is its kind's to say: see
// HasGeneration.)
func of(obj api.Object) *Strategy {
	t := reflect.TypeOf(obj)
	if t == unstructuredType {
		if s := registry[obj.GetTypeMeta().Kind]; s != nil && s.typ == t {
			return s
		}
		return metadataOnly
	}
	if s := byType[t]; s != nil {
		return s
	}
	return metadataOnly
}

// Default fills in what a client may leave out, in place, as the API
// server does before it validates: the namespace, then the kind's
// defaults. Fields already set are kept; Default is idempotent.
func Default(obj api.Object) {
	validation.DefaultMeta(obj)
	if s := of(obj); s.defaults != nil {
		s.defaults(obj)
	}
}

// PrepareForCreate sets what the API server sets on an object it creates,
// after Default and after a generated name was chosen.
func PrepareForCreate(obj api.Object) {
	if s := of(obj); s.prepare != nil {
		s.prepare(obj)
	}
}

// Errors returns the causes ValidateCreate would report for obj, for
// callers that place each cause themselves (the scenario loader points
// each one at its line).
func Errors(obj api.Object) validation.ErrorList {
	if s := of(obj); s.validate != nil {
		return s.validate(obj)
	}
	return validation.ValidateObjectMeta(obj.Meta(), obj.GetTypeMeta().Kind)
}

// ValidateCreate checks an object about to be created, after Default, and
// returns a *validation.Error listing every cause, or nil.
func ValidateCreate(obj api.Object) error { return toError(obj, Errors(obj)) }

// ValidateUpdate checks old → new on an update of the main resource (not
// status), after Default: everything ValidateCreate checks on new, then
// what may not change.
func ValidateUpdate(old, new api.Object) error {
	errs := Errors(new)
	errs = append(errs, validation.ValidateObjectMetaUpdate(old.Meta(), new.Meta())...)
	if s := of(new); s.validateUpdate != nil {
		errs = append(errs, s.validateUpdate(old, new)...)
	}
	return toError(new, errs)
}

func toError(obj api.Object, errs validation.ErrorList) error {
	if len(errs) == 0 {
		return nil
	}
	return validation.NewError(obj.GetTypeMeta().Kind, obj.Meta().Name, errs)
}

// HasGeneration reports whether the API server sets metadata.generation
// on objects of kind at create: the kinds with a spec a controller
// observes do; a kind without a strategy does.
func HasGeneration(kind string) bool {
	s := registry[kind]
	return s == nil || !s.NoGeneration
}

// BumpsGeneration reports whether an update old → obj of the main resource
// bumps metadata.generation (its spec changed).
func BumpsGeneration(old, obj api.Object) bool {
	if s := of(obj); s.bumps != nil {
		return s.bumps(old, obj)
	}
	return false
}

// KeepStatus gives obj (the store's own copy, being written through the
// main resource) the stored status of old. It shares it rather than
// copies it: stored versions are never changed in place.
func KeepStatus(obj, old api.Object) {
	if s := of(obj); s.keepStatus != nil {
		s.keepStatus(obj, old)
	}
}

// KeepSpec gives obj (being written through the status subresource) what
// of old a status write may not change: its labels, owners, finalizers,
// annotations (as the kind says) and spec.
func KeepSpec(obj, old api.Object) {
	om, m := old.Meta(), obj.Meta()
	m.Labels, m.OwnerReferences, m.Finalizers = om.Labels, om.OwnerReferences, om.Finalizers
	s := of(obj)
	if !s.StatusWritesAnnotations {
		m.Annotations = om.Annotations
	}
	if s.keepSpec != nil {
		s.keepSpec(obj, old)
	}
}

// RolloutStatus is one look of kubectl rollout status at obj, by its
// kind's status viewer; ok is false when its kind has none here.
func RolloutStatus(obj api.Object) (line string, done bool, err error, ok bool) {
	s := of(obj)
	if s.rolloutStatus == nil {
		return "", false, nil, false
	}
	line, done, err = s.rolloutStatus(obj)
	return line, done, err, true
}

// HasRolloutStatus reports whether obj's kind has a status viewer here.
func HasRolloutStatus(obj api.Object) bool { return of(obj).rolloutStatus != nil }

// Moving says why obj is not settled yet, by its kind's check; "" when it
// is, or when its kind has no check here (see Strategy.HasMoving).
func Moving(obj api.Object, p Progress) string {
	if s := of(obj); s.moving != nil {
		return s.moving(obj, p)
	}
	return ""
}

// Progress is what the simulation knows beside an object that a kind's
// convergence check reads.
type Progress interface {
	// ActivePods counts the active pods (neither finished nor being
	// deleted) the object with uid controls.
	ActivePods(uid string) int
}

// HasMoving reports whether the kind's objects have a convergence check
// here.
func (s *Strategy) HasMoving() bool { return s.moving != nil }

// Replicas points at obj's spec.replicas (nil when its kind has no scale
// subresource here), to read or to set.
func Replicas(obj api.Object) **int32 {
	if s := of(obj); s.replicas != nil {
		return s.replicas(obj)
	}
	return nil
}

// PodTemplate points at obj's pod template, to change in place; nil when
// its kind has none.
func PodTemplate(obj api.Object) *api.PodTemplateSpec {
	if s := of(obj); s.podTemplate != nil {
		return s.podTemplate(obj)
	}
	return nil
}
