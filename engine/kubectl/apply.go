package kubectl

import (
	"encoding/json"
	"fmt"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/merge"
	"reconcile/engine/store"
)

// LastAppliedAnnotation is where kubectl apply keeps the manifest it
// applied (merge.LastApplied).
const LastAppliedAnnotation = merge.LastApplied

// Apply is `kubectl apply -f` (client-side apply, kubectl's default) of one
// object. config is the object as written (manifest.Manifest.Config); nil
// means obj's own fields.
//
// A new object is created with the last-applied-configuration annotation:
// the manifest as compact JSON, the annotation itself left out. An
// existing one gets the three-way merge of package merge: what the
// manifest sets wins, what it dropped since the last apply is removed,
// what other writers set stays. It returns kubectl's word for what
// happened ("created", "configured", "unchanged"), the warnings kubectl
// prints before it (the live object has no annotation; it is being
// deleted), and the API
// server's error, if any (a *PatchError for an existing object). A
// metadata.resourceVersion in the manifest is a precondition: when it is
// not the live one, the write is a Conflict.
func Apply(st *store.Store, obj api.Object, config map[string]any) (result, warning string, err error) {
	result, warning, _, err = apply(st, obj, config)
	return result, warning, err
}

// apply is Apply; it returns the object as stored too (the live one when
// unchanged).
func apply(st *store.Store, obj api.Object, config map[string]any) (result, warning string, stored api.Object, err error) {
	if config == nil {
		config = merge.Config(obj)
	}
	applied, modified := merge.Modified(config)
	kind := obj.GetTypeMeta().Kind
	m := obj.Meta()
	if m.Name == "" {
		return "", "", nil, nameless(obj)
	}
	live := st.Get(kind, m.Namespace, m.Name)
	if live == nil {
		out, err := st.Create(merge.Annotated(obj, applied))
		if err != nil {
			return "", "", nil, err
		}
		return "created", "", out, nil
	}
	k, _ := api.KindOf(kind)
	r, err := merge.Object(live, modified)
	if r.Unannotated {
		warning = fmt.Sprintf("Warning: resource %s/%s is missing the %s annotation which is required by kubectl apply. "+
			"kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. "+
			"The missing annotation will be patched automatically.\n", k.Resource, m.Name, LastAppliedAnnotation)
	}
	if err != nil {
		return "", warning, nil, err
	}
	if r.Next == nil {
		return "unchanged", warning + deleting(live), live, nil
	}
	out, err := st.Update(r.Next)
	if err != nil {
		patch, _ := json.Marshal(r.Patch)
		return "", warning, nil, &PatchError{Patch: string(patch), Kind: k, Name: m.Name, Namespace: m.Namespace, Err: err}
	}
	return "configured", warning + deleting(out), out, nil
}

// deleting is kubectl's warning for an apply to an object on its way out
// (a pod in its grace period).
func deleting(o api.Object) string {
	if o.Meta().DeletionTimestamp == nil {
		return ""
	}
	return fmt.Sprintf("Warning: Detected changes to resource %s which is currently being deleted.\n", o.Meta().Name)
}

// PatchError is the API server's refusal of the patch kubectl apply sent
// for an existing object. Its text is kubectl's: the patch, the object it
// was for, and the server's message.
type PatchError struct {
	// Patch is the strategic merge patch, as kubectl sends it.
	Patch     string
	Kind      api.Kind
	Name      string
	Namespace string
	Err       error
}

func (e *PatchError) Unwrap() error { return e.Err }

// Error renders the refusal as kubectl prints it. An invalid object is
// reported as kubectl reports any ("The Pod "x" is invalid: …"); every
// other refusal names the patch and the object:
//
//	Error from server (Conflict): error when applying patch:
//	{"spec":{"replicas":5}}
//	to:
//	Resource: "apps/v1, Resource=deployments", GroupVersionKind: "apps/v1, Kind=Deployment"
//	Name: "web", Namespace: "default"
//	for: "STDIN": error when patching "STDIN": Operation cannot be fulfilled on …
func (e *PatchError) Error() string {
	msg := e.Err.Error()
	if strings.HasPrefix(msg, "The ") {
		return msg
	}
	reason := "InternalError"
	if se, ok := e.Err.(*store.StatusError); ok {
		reason = se.Reason
	}
	return fmt.Sprintf("Error from server (%s): error when applying patch:\n%s\nto:\nResource: %q, GroupVersionKind: %q\nName: %q, Namespace: %q\nfor: %q: error when patching %q: %s",
		reason, e.Patch, e.Kind.Group+"/"+e.Kind.Version+", Resource="+e.Kind.Resource, e.Kind.Group+"/"+e.Kind.Version+", Kind="+e.Kind.Name,
		e.Name, e.Namespace, "STDIN", "STDIN", msg)
}

// ClientError is an error kubectl finds before it asks the API server,
// printed as kubectl prints it ("error: ...").
type ClientError struct{ Message string }

func (e *ClientError) Error() string { return "error: " + e.Message }

// nameless is kubectl apply's error for an object without a name: one
// named by generateName is refused before any request; one with neither
// fails the GET of its current configuration, as the REST client refuses
// an empty name.
func nameless(obj api.Object) error {
	m := obj.Meta()
	if m.GenerateName != "" {
		return &ClientError{Message: fmt.Sprintf("from %s: cannot use generate name with apply", m.GenerateName)}
	}
	k, _ := api.KindOf(obj.GetTypeMeta().Kind)
	ns := m.Namespace
	if ns == "" && k.Namespaced {
		ns = "default"
	}
	return &ClientError{Message: fmt.Sprintf("error when retrieving current configuration of:\n"+
		"Resource: \"%s/%s, Resource=%s\", GroupVersionKind: \"%s/%s, Kind=%s\"\nName: \"\", Namespace: %q\n"+
		"from server for: \"STDIN\": resource name may not be empty", k.Group, k.Version, k.Resource, k.Group, k.Version, k.Name, ns)}
}
