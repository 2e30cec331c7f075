package session

import (
	"encoding/json"
	"slices"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/kubectl"
	"reconcile/engine/manifest"
	"reconcile/engine/store"
)

// The live desired state the playground's editor follows: what the store
// holds of the objects a text names, as a learner would write them.

// serverFields are the metadata the API server fills in: not desired
// state, so not in the editor.
var serverFields = []string{"uid", "resourceVersion", "generation", "creationTimestamp", "managedFields", "selfLink"}

// LiveManifests writes the live desired state of the objects text names
// (in its order), then of any other object no controller owns (a
// Deployment made from the console, say): each as kubectl get -o yaml
// prints it, less status and what the API server and the controllers fill
// in (serverFields, the last-applied and deployment.kubernetes.io
// annotations). An object named but gone is left out.
func (s *Session) LiveManifests(text string) string {
	return liveOf(s.run.Store(), NamedIn(text), nil)
}

// ObjectKey names a stored object: kind, namespace and name.
type ObjectKey struct{ kind, namespace, name string }

// NamedIn lists the objects a desired-state text names, in its order
// (none when it does not decode). The list is never nil.
func NamedIn(text string) []ObjectKey {
	ms, err := manifest.Decode("Desired state", text, 1, 1)
	if err != nil {
		return []ObjectKey{}
	}
	out := make([]ObjectKey, 0, len(ms))
	for _, m := range ms {
		meta, kind := m.Object.Meta(), m.Object.GetTypeMeta().Kind
		ns := meta.Namespace
		if k, _ := api.KindOf(kind); k.Namespaced && ns == "" {
			ns = "default"
		}
		out = append(out, ObjectKey{kind, ns, meta.Name})
	}
	return out
}

// LiveOf is LiveManifests for the objects named (NamedIn), so that a page
// decodes its text once, not once per pass; an object not replaced since
// the last call is not written again.
func (s *Session) LiveOf(named []ObjectKey) string {
	next := make(map[*api.ObjectMeta]string, len(s.live))
	out := liveOf(s.run.Store(), named, func(o api.Object) string {
		doc, ok := s.live[o.Meta()]
		if !ok {
			doc = desiredYAML(o)
		}
		next[o.Meta()] = doc
		return doc
	})
	s.live = next
	return out
}

// liveOf writes the live desired state of the objects named and of those
// no controller owns, each with write (desiredYAML when nil).
func liveOf(st *store.Store, named []ObjectKey, write func(api.Object) string) string {
	if write == nil {
		write = desiredYAML
	}
	var objs []api.Object
	seen := map[ObjectKey]bool{}
	add := func(o api.Object) {
		k := ObjectKey{o.GetTypeMeta().Kind, o.Meta().Namespace, o.Meta().Name}
		if !seen[k] {
			seen[k] = true
			objs = append(objs, o)
		}
	}
	for _, k := range named {
		if o := st.Get(k.kind, k.namespace, k.name); o != nil {
			add(o)
		}
	}
	for _, kind := range st.Kinds() {
		switch kind {
		case "Pod", "ReplicaSet", "Event", "Lease", "Node", "Endpoints", "EndpointSlice":
			continue // owned by controllers, or the machines'
		}
		for _, o := range st.List(kind) {
			if kind == "Namespace" && slices.Contains(store.SystemNamespaces, o.Meta().Name) {
				continue // the API server's own, there from the start
			}
			if kind == "Service" && o.Meta().Namespace == "default" && o.Meta().Name == "kubernetes" {
				continue // the API server's own
			}
			if store.KeptInEveryNamespace(kind, o.Meta().Name) {
				continue // the controllers keep it in every namespace
			}
			if o.Meta().ControllerOf() == nil {
				add(o)
			}
		}
	}
	docs := make([]string, 0, len(objs))
	for _, o := range objs {
		docs = append(docs, write(o))
	}
	return strings.Join(docs, "---\n")
}

// desiredYAML is one object's desired state as YAML (see LiveManifests).
func desiredYAML(o api.Object) string {
	b, err := json.Marshal(o)
	if err != nil {
		return ""
	}
	var v map[string]any
	if json.Unmarshal(b, &v) != nil {
		return ""
	}
	delete(v, "status")
	if meta, ok := v["metadata"].(map[string]any); ok {
		for _, f := range serverFields {
			delete(meta, f)
		}
		if ann, ok := meta["annotations"].(map[string]any); ok {
			for k := range ann {
				if k == "kubectl.kubernetes.io/last-applied-configuration" || strings.HasPrefix(k, "deployment.kubernetes.io/") {
					delete(ann, k)
				}
			}
			if len(ann) == 0 {
				delete(meta, "annotations")
			}
		}
	}
	if spec, ok := v["spec"].(map[string]any); ok {
		if t, ok := spec["template"].(map[string]any); ok {
			if m, ok := t["metadata"].(map[string]any); ok {
				delete(m, "creationTimestamp")
			}
		}
	}
	return kubectl.YAML(v)
}
