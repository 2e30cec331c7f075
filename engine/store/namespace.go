package store

import (
	"fmt"

	"reconcile/engine/api"
	"reconcile/engine/validation"
)

// SystemNamespaces are the namespaces the API server creates when it
// starts, in the order it creates them.
var SystemNamespaces = []string{"default", "kube-system", "kube-public", "kube-node-lease"}

// immortal are the namespaces the API server refuses to delete.
var immortal = map[string]bool{"default": true, "kube-system": true, "kube-public": true}

// bootstrap stores the system namespaces, Active, as a starting API server
// does, each with its ServiceAccount "default" and its ConfigMap
// "kube-root-ca.crt". They are there before anyone watches: no change is
// logged.
func (s *Store) bootstrap() {
	for i, name := range SystemNamespaces {
		// Their UIDs are of their own series, so the UIDs (and pod IPs) of
		// everything created later do not depend on them.
		ns := &api.Namespace{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Namespace"},
			ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/metadata.name": name},
				UID: fmt.Sprintf("00000000-0000-4000-a000-%012x", i+1)},
			Spec:   api.NamespaceSpec{Finalizers: []string{api.NamespaceFinalizer}},
			Status: api.NamespaceStatus{Phase: api.NamespaceActive}}
		s.put("Namespace", ns)
	}
	// What the controllers of a running cluster keep in every namespace
	// (rootca.go) was there too: the ServiceAccounts, then the ConfigMaps,
	// the UIDs going on from the namespaces'.
	n := len(SystemNamespaces)
	for i, name := range SystemNamespaces {
		sa := NewDefaultServiceAccount(name)
		sa.UID = fmt.Sprintf("00000000-0000-4000-a000-%012x", n+i+1)
		s.put("ServiceAccount", sa)
	}
	for i, name := range SystemNamespaces {
		cm := NewRootCAConfigMap(name)
		cm.UID = fmt.Sprintf("00000000-0000-4000-a000-%012x", 2*n+i+1)
		s.put("ConfigMap", cm)
	}
}

// namespaceLifecycle is the NamespaceLifecycle admission plugin: an object
// may only be written in a namespace that exists, and not created in one
// that is being terminated. Events and leases, written by the control
// plane itself, pass.
func (s *Store) namespaceLifecycle(op string, obj api.Object) error {
	kind := obj.GetTypeMeta().Kind
	m := obj.Meta()
	if !validation.Namespaced(kind) || kind == "Event" || m.Namespace == "" {
		return nil
	}
	ns, _ := s.Get("Namespace", "", m.Namespace).(*api.Namespace)
	if ns == nil {
		return NotFound("Namespace", m.Namespace)
	}
	if op == "CREATE" && ns.Status.Phase == api.NamespaceTerminating {
		return &StatusError{Reason: "Forbidden", Message: fmt.Sprintf(
			"%s %q is forbidden: unable to create new content in namespace %s because it is being terminated", Resource(kind), m.Name, m.Namespace)}
	}
	return nil
}

// deleteNamespace starts a namespace's deletion: it gets a
// deletionTimestamp and phase Terminating, and stays until the namespace
// controller has emptied it and removed its finalizer.
func (s *Store) deleteNamespace(old *api.Namespace) (api.Object, error) {
	if immortal[old.Name] {
		return nil, &StatusError{Reason: "Forbidden", Message: fmt.Sprintf("namespaces %q is forbidden: this namespace may not be deleted", old.Name)}
	}
	if old.DeletionTimestamp != nil {
		return old, nil
	}
	ns := old.DeepCopy()
	t := s.now
	ns.DeletionTimestamp = &t
	ns.Status.Phase = api.NamespaceTerminating
	s.put("Namespace", ns)
	s.notify(WatchEvent{Type: Modified, Object: ns, Old: old, RV: s.rv})
	return ns, nil
}

// finished reports whether obj, just written, is a terminating namespace
// with no finalizer left: the API server removes it then.
func finished(obj api.Object) bool {
	ns, ok := obj.(*api.Namespace)
	return ok && ns.DeletionTimestamp != nil && len(ns.Spec.Finalizers) == 0
}
