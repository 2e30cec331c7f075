package store

import (
	"slices"

	"reconcile/engine/api"
	"reconcile/engine/validation"
)

// Propagation policies of a delete, as DeleteOptions.propagationPolicy
// names them: what happens to the object's dependents (the objects whose
// ownerReferences name it).
const (
	// Background: the object goes now; the garbage collector then deletes
	// the dependents it leaves without an owner.
	Background = "Background"
	// Foreground: the object stays, Terminating, with the
	// foregroundDeletion finalizer, until the garbage collector has
	// deleted the dependents that block its deletion.
	Foreground = "Foreground"
	// Orphan: the object stays, Terminating, with the orphan finalizer,
	// until the garbage collector has taken its references off its
	// dependents, which stay.
	Orphan = "Orphan"
)

// DeleteOptions are the options of a delete call.
type DeleteOptions struct {
	// PropagationPolicy is Background, Foreground or Orphan; empty keeps
	// the finalizers the object has (what a controller's delete does).
	PropagationPolicy string
	// Force deletes with no grace period: a pod does not wait for its
	// kubelet to stop its containers.
	Force bool
	// GracePeriodSeconds, when set, is a pod's grace period in place of
	// its terminationGracePeriodSeconds (kubectl delete --grace-period).
	GracePeriodSeconds *int64
}

// DeleteWith deletes an object, as the API server does.
//
// An object goes at once unless something holds it: a pod bound to a node
// is deleted gracefully (it gets a deletionTimestamp and its grace period,
// and the node's kubelet removes it once its containers have stopped), and
// an object with finalizers stays, Terminating, until they are all removed
// (Update then removes it). A Foreground or Orphan policy adds the garbage
// collector's finalizer for it (and takes the other's off); Background
// takes both off. The dependents are not the store's business: the garbage
// collector deletes or releases them.
func (s *Store) DeleteWith(kind, namespace, name string, opts DeleteOptions) (api.Object, error) {
	old := s.Get(kind, namespace, name)
	if old == nil {
		return nil, NotFound(kind, name)
	}
	if ns, ok := old.(*api.Namespace); ok {
		return s.deleteNamespace(ns) // the namespace controller empties it
	}
	om := old.Meta()
	finalizers := finalizersFor(om.Finalizers, opts.PropagationPolicy)
	var grace int64
	if p, ok := old.(*api.Pod); ok && !opts.Force && p.Spec.NodeName != "" {
		grace = validation.DefaultTerminationGracePeriodSeconds
		if p.Spec.TerminationGracePeriodSeconds != nil {
			grace = *p.Spec.TerminationGracePeriodSeconds
		}
		if g := opts.GracePeriodSeconds; g != nil && *g > 0 {
			grace = *g
		}
	}
	if g := om.DeletionGracePeriodSeconds; om.DeletionTimestamp != nil && g != nil && *g < grace {
		grace = *g // deleted again: a grace period only shortens
	}
	if len(finalizers) == 0 && grace == 0 {
		return s.remove(old), nil
	}
	n := old.DeepCopyObject()
	nm := n.Meta()
	// The deletionTimestamp is when the grace period ends (the delete's
	// moment plus it, as rest.BeforeDelete sets it); a second delete with
	// a shorter one moves it earlier by the difference.
	if nm.DeletionTimestamp == nil {
		t := s.now + api.Duration(grace)*api.Second
		nm.DeletionTimestamp = &t
	} else if g := nm.DeletionGracePeriodSeconds; g != nil && *g > grace {
		t := *nm.DeletionTimestamp - api.Duration(*g-grace)*api.Second
		nm.DeletionTimestamp = &t
	}
	nm.DeletionGracePeriodSeconds = &grace
	nm.Finalizers = finalizers
	if equalIgnoringRV(old, n) {
		return old, nil // already deleted so: nothing changes
	}
	s.put(kind, n)
	s.notify(WatchEvent{Type: Modified, Object: n, Old: old, RV: s.rv})
	return n, nil
}

// finalizersFor returns have with the garbage collector's finalizer the
// policy asks for (a new slice when it changes anything).
func finalizersFor(have []string, policy string) []string {
	var add, drop []string
	switch policy {
	case Foreground:
		add, drop = []string{validation.FinalizerForeground}, []string{validation.FinalizerOrphan}
	case Orphan:
		add, drop = []string{validation.FinalizerOrphan}, []string{validation.FinalizerForeground}
	case Background:
		drop = []string{validation.FinalizerOrphan, validation.FinalizerForeground}
	}
	var out []string
	for _, f := range have {
		if !slices.Contains(drop, f) {
			out = append(out, f)
		}
	}
	for _, f := range add {
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	if slices.Equal(out, have) {
		return have
	}
	return out
}

// finalized reports whether an object being deleted has nothing left to
// wait for: no finalizer and no grace period.
func finalized(m *api.ObjectMeta) bool {
	return m.DeletionTimestamp != nil && len(m.Finalizers) == 0 &&
		(m.DeletionGracePeriodSeconds == nil || *m.DeletionGracePeriodSeconds == 0)
}

// remove takes an object out of the store; last is its last version, which
// the DELETED watch event carries.
func (s *Store) remove(last api.Object) api.Object {
	m := last.Meta()
	kind := last.GetTypeMeta().Kind
	old := s.Get(kind, m.Namespace, m.Name)
	k := key(m.Namespace, m.Name)
	if rk, ok := s.recordedKey(m.Namespace, m.Name); ok && kind == "Event" && s.getKey(kind, k) == nil {
		s.events.Delete(rk)
	} else {
		s.kinds[kind].Delete(k)
	}
	s.rv++
	s.notify(WatchEvent{Type: Deleted, Object: last, Old: old, RV: s.rv})
	return last
}
