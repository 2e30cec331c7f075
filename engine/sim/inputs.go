package sim

import (
	"errors"
	"fmt"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/fault"
	"reconcile/engine/kubectl"
	"reconcile/engine/store"
)

func (s *Sim) applyStep(w *world, i int) {
	st := s.sc.Steps[i]
	in := Input{At: w.now, Fault: st.Fault, Kubectl: st.Kubectl, Apply: st.Apply, Git: st.Git}
	if st.Apply != "" || st.Git != "" {
		objs := make([]api.Object, len(st.Manifests))
		for j, m := range st.Manifests {
			objs[j] = m.Object
		}
		if st.Git != "" {
			w.commitOutput(in, objs)
			return
		}
		s.applyManifests(w, in, objs)
		return
	}
	s.apply(w, in)
}

func (s *Sim) checkInput(in Input) error {
	n := 0
	for _, v := range []string{in.Fault, in.Kubectl, in.Apply, in.Git} {
		if v != "" {
			n++
		}
	}
	if n != 1 {
		return fmt.Errorf("an input is exactly one of fault, kubectl, apply or git")
	}
	if in.Fault != "" {
		_, err := s.checkFault(in.Fault)
		return err
	}
	return nil
}

func (s *Sim) apply(w *world, in Input) {
	switch {
	case in.Fault != "":
		s.fault(w, in.Fault)
	case in.Kubectl != "":
		if w.startWait(in.Kubectl) {
			return
		}
		var out string
		var code int
		if s.Kubectl != nil {
			out, code = s.Kubectl(w.store, w.now, in.Kubectl, "")
		} else {
			out, code = kubectl.Run(w.store, w.now, in.Kubectl)
		}
		w.record(Output{At: w.now, AtText: w.now.String(), Command: "kubectl " + in.Kubectl, Output: out, ExitCode: code})
	case in.Apply != "" || in.Git != "":
		var objs []api.Object
		var err error
		if s.Decode == nil {
			err = fmt.Errorf("no manifest decoder in this run")
		} else {
			objs, err = s.Decode(in.Apply + in.Git)
		}
		if err != nil {
			w.record(Output{At: w.now, AtText: w.now.String(), Command: describeInput(in), Output: "error: " + err.Error() + "\n", ExitCode: 1})
			return
		}
		if in.Git != "" {
			w.commitOutput(in, objs)
			return
		}
		s.applyManifests(w, in, objs)
	}
}

// commit adds objects to the GitOps source (replacing those of the same
// kind, namespace and name) as one new revision. The gitops controller
// applies it at its next sync.
func (w *world) commit(objs []api.Object) {
	next := append([]api.Object(nil), w.git.Objects...)
	for _, o := range objs {
		d := w.store.Default(o)
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

func (w *world) commitOutput(in Input, objs []api.Object) {
	w.commit(objs)
	var b strings.Builder
	fmt.Fprintf(&b, "[main r%d] %d object(s) committed\n", w.git.Revision, len(objs))
	for _, o := range objs {
		fmt.Fprintf(&b, "  %s\n", api.RefOf(o))
	}
	w.record(Output{At: w.now, AtText: w.now.String(), Command: "git commit && git push", Output: b.String()})
}

func (w *world) record(o Output) {
	w.outputs = append(w.outputs, o)
	w.hash(o)
}

// applyManifests is kubectl apply -f -: each object is created or updated;
// the first refusal stops the rest, as kubectl reports per object.
func (s *Sim) applyManifests(w *world, in Input, objs []api.Object) {
	var b strings.Builder
	code := 0
	for _, o := range objs {
		var result string
		exists := w.store.Get(o.GetTypeMeta().Kind, o.Meta().Namespace, o.Meta().Name) != nil
		if err := applyObject(w.store, o, &result); err != nil {
			fmt.Fprintf(&b, "%s\n", kubectlError(err, o, exists))
			code = 1
			continue
		}
		fmt.Fprintf(&b, "%s/%s %s\n", resourceName(o.GetTypeMeta().Kind), o.Meta().Name, result)
	}
	w.record(Output{At: w.now, AtText: w.now.String(), Command: describeInput(in), Output: b.String(), ExitCode: code})
}

func resourceName(kind string) string {
	switch kind {
	case "Deployment":
		return "deployment.apps"
	case "ReplicaSet":
		return "replicaset.apps"
	case "Job":
		return "job.batch"
	}
	return api.LowerKind(kind)
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
	if exists {
		return fmt.Sprintf("Error from server (%s): error when applying patch to %s %q: %s", reason, resourceName(o.GetTypeMeta().Kind), o.Meta().Name, msg)
	}
	return fmt.Sprintf("Error from server (%s): error when creating \"STDIN\": %s", reason, msg)
}

// checkFault parses a fault as a scenario file would, and checks that a
// node it names exists.
func (s *Sim) checkFault(line string) (fault.Fault, error) {
	f, err := fault.Parse(line)
	if err != nil {
		return f, err
	}
	if f.Verb == fault.NodeDown || f.Verb == fault.NodeUp {
		if _, ok := s.w.kubelets[f.Target]; !ok {
			return f, fmt.Errorf("%s: no node named %q", f.Verb, f.Target)
		}
	}
	return f, nil
}

// fault applies a fault. A malformed fault is recorded as a note and
// changes nothing.
func (s *Sim) fault(w *world, line string) {
	f, err := s.checkFault(line)
	if err != nil {
		w.note(fmt.Sprintf("t=%s fault refused: %v", w.now, err))
		return
	}
	w.note(fmt.Sprintf("t=%s %s", w.now, line))
	args := []string{f.Target}
	switch f.Verb {
	case "node-down":
		node := f.Target
		w.nodeUp.Set(node, false)
		w.beatStop(node)
		w.halt(w.ctrl(w.kubelets[node]))
		w.ctrl(w.kubelets[node]).stopped = true
	case "node-up":
		node := f.Target
		if w.up(node) {
			return
		}
		w.nodeUp.Set(node, true)
		w.start(w.kubelets[node], "kubelet started: initial list")
		w.beatStart(node)
	case "delete-pod":
		ns, name := "default", f.Target
		if i := strings.Index(name, "/"); i >= 0 {
			ns, name = name[:i], name[i+1:]
		}
		if strings.Contains(name, "=") {
			// A label selector: the first active pod (by name) that matches.
			sel := &api.LabelSelector{MatchLabels: map[string]string{}}
			for _, kv := range strings.Split(name, ",") {
				k, v, _ := strings.Cut(kv, "=")
				sel.MatchLabels[k] = v
			}
			name = ""
			for _, o := range w.store.List("Pod") {
				if o.Meta().Namespace == ns && o.Meta().DeletionTimestamp == nil && sel.Matches(o.Meta().Labels) {
					name = o.Meta().Name
					break
				}
			}
			if name == "" {
				w.note(fmt.Sprintf("t=%s delete-pod: no active pod matches %s", w.now, f.Target))
				return
			}
		}
		if _, err := w.store.Delete("Pod", ns, name, false); err != nil {
			w.note(fmt.Sprintf("t=%s delete-pod: %v", w.now, err))
		}
	case "drop-watch", "duplicate-watch", "delay-watch", "crash", "stop", "start", "sync":
		for _, i := range w.ctrlIndex(f.Target) {
			c := w.ctrl(i)
			switch f.Verb {
			case "drop-watch":
				c.drop += f.Count
			case "duplicate-watch":
				c.dup += f.Count
			case "delay-watch":
				c.delay = f.Delay
			case "crash":
				c.crashNext = true
			case "stop":
				w.halt(c)
				c.stopped = true
				if c.host != "" {
					w.beatStop(c.host)
				}
			case "start":
				if !c.running && (c.host == "" || w.up(c.host)) {
					w.start(i, "started: initial list")
					if c.host != "" {
						w.beatStart(c.host)
					}
				}
			case "sync":
				w.sync(i)
			}
		}
	case "push-image":
		ref := args[0]
		img := w.Image(ref)
		if f.Digest != "" {
			img.Digest = f.Digest
		} else {
			img.Digest = digestOf(img.Digest + "+push")
		}
		w.images[ref] = img
	case "webhook-down":
		w.webhookDown[args[0]] = true
	case "webhook-up":
		delete(w.webhookDown, args[0])
	}
}
