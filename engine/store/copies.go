package store

import "reconcile/engine/api"

// The store's own copies of what it is given. A status write keeps the
// stored spec and metadata maps (keepSpec), so copying them first would be
// work thrown away: a pod's status write copies its status only.

// statusCopy returns the store's own copy of obj for a status write, which
// keepSpec then completes with the stored version's spec, labels,
// annotations, owner references and finalizers.
func statusCopy(obj api.Object) api.Object {
	if p, ok := obj.(*api.Pod); ok {
		out := *p
		// Of the metadata, only strings and values remain once keepSpec
		// and update have set theirs: the struct copy is the store's own.
		out.Status = p.Status.DeepCopy()
		return &out
	}
	return obj.DeepCopyObject()
}

// boundCopy returns a new version of a stored pod bound to node. It shares
// everything but its spec's nodeName with old: stored versions are never
// changed in place.
func boundCopy(old *api.Pod, node string) *api.Pod {
	p := *old
	p.Spec.NodeName = node
	return &p
}
