package sim

import (
	"errors"
	"fmt"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/kubectl"
	"reconcile/engine/manifest"
	"reconcile/engine/store"
)

// apply gives the world an input.
func (s *Sim) apply(w *world, in Input) {
	switch in := in.(type) {
	case Fault:
		s.fault(w, in)
	case Kubectl:
		if w.startWatch(in.Line) {
			return
		}
		out, code := kubectl.Run(w.store, w.now, in.Line)
		w.record(Output{At: w.now, AtText: w.now.String(), Command: in.Text(), Output: out, ExitCode: code})
	case Apply, Commit:
		text := ""
		if a, ok := in.(Apply); ok {
			text = a.Manifests
		} else {
			text = in.(Commit).Manifests
		}
		objs, err := decode(text)
		if err != nil {
			w.record(Output{At: w.now, AtText: w.now.String(), Command: in.Text(), Output: "error: " + err.Error() + "\n", ExitCode: 1})
			return
		}
		if _, ok := in.(Commit); ok {
			w.commitOutput(objs)
			return
		}
		w.applyManifests(in, objs)
	}
}

// decode reads the manifests of an apply or commit input.
func decode(text string) ([]api.Object, error) {
	ms, err := manifest.Decode("input", text, 1, 1)
	if err != nil {
		return nil, err
	}
	out := make([]api.Object, len(ms))
	for i, m := range ms {
		out[i] = m.Object
	}
	return out, nil
}

// commit adds objects to the GitOps source (replacing those of the same
// kind, namespace and name) as one new revision. The gitops controller
// applies it at its next sync.
func (w *world) commit(objs []api.Object) {
	next := append([]api.Object(nil), w.git.Objects...)
	for _, o := range objs {
		// Git holds what was written, not the API server's defaults: the
		// GitOps controller owns the fields git sets, and a field left out
		// (spec.replicas, for an autoscaler to own) is nobody's drift.
		d := o.DeepCopyObject()
		if k, _ := api.KindOf(d.GetTypeMeta().Kind); k.Namespaced && d.Meta().Namespace == "" {
			d.Meta().Namespace = "default"
		}
		k := controller.GitKey(d)
		replaced := false
		for i, cur := range next {
			if controller.GitKey(cur) == k {
				next[i], replaced = d, true
			}
		}
		if !replaced {
			next = append(next, d)
		}
	}
	w.git = controller.Git{Revision: w.git.Revision + 1, Objects: next}
}

func (w *world) commitOutput(objs []api.Object) {
	w.commit(objs)
	var b strings.Builder
	fmt.Fprintf(&b, "[main r%d] %d object(s) committed\n", w.git.Revision, len(objs))
	for _, o := range objs {
		fmt.Fprintf(&b, "  %s\n", api.RefOf(o))
	}
	w.record(Output{At: w.now, AtText: w.now.String(), Command: "git commit && git push", Output: b.String()})
}

// applyManifests is kubectl apply -f -: each object is created or updated;
// a refusal is reported for its object and the others go on, as kubectl
// reports per object.
func (w *world) applyManifests(in Input, objs []api.Object) {
	var b strings.Builder
	code := 0
	for _, o := range objs {
		exists := w.store.Get(o.GetTypeMeta().Kind, o.Meta().Namespace, o.Meta().Name) != nil
		result, err := applyObject(w.store, o)
		if err != nil {
			fmt.Fprintf(&b, "%s\n", kubectlError(err, o, exists))
			code = 1
			continue
		}
		k, _ := api.KindOf(o.GetTypeMeta().Kind)
		fmt.Fprintf(&b, "%s/%s %s\n", k.Qualified(), o.Meta().Name, result)
	}
	w.record(Output{At: w.now, AtText: w.now.String(), Command: in.Text(), Output: b.String(), ExitCode: code})
}

// applyObject creates obj or updates the stored one (kubectl apply's
// effect), and says which: "created", "configured" or "unchanged".
func applyObject(st *store.Store, obj api.Object) (string, error) {
	m := obj.Meta()
	kind := obj.GetTypeMeta().Kind
	old := st.Get(kind, m.Namespace, m.Name)
	if old == nil {
		_, err := st.Create(obj)
		return "created", err
	}
	n := obj.DeepCopyObject()
	nm := n.Meta()
	om := old.Meta()
	nm.ResourceVersion = ""
	if nm.Labels == nil {
		nm.Labels = om.Labels
	}
	nm.OwnerReferences = om.OwnerReferences
	// keep annotations the controllers own
	for k, v := range om.Annotations {
		if strings.HasPrefix(k, "deployment.kubernetes.io/") {
			if nm.Annotations == nil {
				nm.Annotations = map[string]string{}
			}
			if _, ok := nm.Annotations[k]; !ok {
				nm.Annotations[k] = v
			}
		}
	}
	out, err := st.Update(n)
	if err != nil {
		return "", err
	}
	if out.Meta().ResourceVersion == om.ResourceVersion {
		return "unchanged", nil
	}
	return "configured", nil
}

// kubectlError renders an API error the way kubectl apply prints it.
func kubectlError(err error, o api.Object, exists bool) string {
	msg := err.Error()
	if strings.HasPrefix(msg, "The ") || strings.HasPrefix(msg, "Error from server") {
		return msg
	}
	reason := "InternalError"
	var se *store.StatusError
	if errors.As(err, &se) {
		reason = se.Reason
	}
	k, _ := api.KindOf(o.GetTypeMeta().Kind)
	if exists {
		return fmt.Sprintf("Error from server (%s): error when applying patch to %s %q: %s", reason, k.Qualified(), o.Meta().Name, msg)
	}
	return fmt.Sprintf("Error from server (%s): error when creating \"STDIN\": %s", reason, msg)
}
