package kubectl

import (
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/kinds"
	"reconcile/engine/store"
)

// rollout status, restart, history and undo for DaemonSets and
// StatefulSets, in kubectl's words (its status viewers, history viewers
// and rollbackers); pause and resume are refused, as kubectl refuses them.

// WorkloadRolloutStatus is one evaluation of kubectl rollout status on a
// DaemonSet or a StatefulSet: the line it prints, whether the rollout is
// done, and the error that ends it.
func WorkloadRolloutStatus(o api.Object) (line string, done bool, err error) {
	if line, done, err, ok := kinds.RolloutStatus(o); ok {
		return line, done, err
	}
	return "", true, fmt.Errorf("error: no status viewer has been implemented for %s", o.GetTypeMeta().Kind)
}

// workloadRolloutTarget finds the DaemonSet or StatefulSet a rollout
// command names; ok is false when it names something else.
func (k *cmd) workloadRolloutTarget() (api.Object, bool) {
	if len(k.in.Args) == 0 {
		return nil, false
	}
	objs, errs, err := k.resolve(k.in.Args, true)
	if err != nil || len(errs) > 0 || len(objs) == 0 {
		return nil, false
	}
	if kinds.HasRolloutStatus(objs[0].obj) {
		return objs[0].obj.DeepCopyObject(), true
	}
	return nil, false
}

// workloadRollout runs rollout status (one look), restart, history and
// undo on a DaemonSet or StatefulSet; handled is false for other targets.
func (k *cmd) workloadRollout(sub string) (out string, err error, handled bool) {
	o, ok := k.workloadRolloutTarget()
	if !ok {
		return "", nil, false
	}
	kind, _ := api.KindOf(o.GetTypeMeta().Kind)
	switch sub {
	case "status":
		line, _, err := WorkloadRolloutStatus(o)
		return line, err, true
	case "restart":
		p, err := k.newPrinter(printFormats)
		if err != nil {
			return "", err, true
		}
		t := podTemplate(o)
		if t.Annotations == nil {
			t.Annotations = map[string]string{}
		}
		t.Annotations["kubectl.kubernetes.io/restartedAt"] = k.now.Wall().Format("2006-01-02T15:04:05Z07:00")
		written, err := k.write(o)
		if err != nil {
			return "", err, true
		}
		s, err := k.done(p, kind, written, "restarted")
		return s, err, true
	case "history":
		s, err := k.workloadHistory(o, kind)
		return s, err, true
	case "undo":
		p, err := k.newPrinter(printFormats)
		if err != nil {
			return "", err, true
		}
		s, err := k.workloadUndo(o, kind, p)
		return s, err, true
	case "pause", "resume":
		return "", fmt.Errorf("error: %s %q %sing is not supported", kind.GroupResource(), o.Meta().Name, strings.TrimSuffix(sub, "e")), true
	}
	return "", fmt.Errorf("error: unknown command %q\nSee 'kubectl rollout -h' for help and examples", sub), true
}

// workloadRevisions returns the ControllerRevisions a DaemonSet or a
// StatefulSet controls, by revision.
func (k *cmd) workloadRevisions(o api.Object) []*api.ControllerRevision {
	return controller.RevisionsOf(k.st.List("ControllerRevision"), o.Meta().UID)
}

// workloadHistory is rollout history of a DaemonSet or StatefulSet, as
// kubectl's history viewers print it from the set's ControllerRevisions:
// the REVISION and CHANGE-CAUSE table, or with --revision=N the pod
// template that revision restores.
func (k *cmd) workloadHistory(o api.Object, kind api.Kind) (string, error) {
	revs := k.workloadRevisions(o)
	byNumber := map[int64]*api.ControllerRevision{} // lookup only
	var numbers []int64
	for _, r := range revs {
		if _, dup := byNumber[r.Revision]; !dup {
			numbers = append(numbers, r.Revision)
		}
		byNumber[r.Revision] = r
	}
	name := kind.Qualified() + "/" + o.Meta().Name
	if want := int64(k.in.Int("revision", 0)); want > 0 {
		r, ok := byNumber[want]
		if !ok {
			return "", errors.New("error: unable to find the specified revision")
		}
		t := r.Data.Template()
		if t == nil {
			return "", fmt.Errorf("error: unable to parse history %s", r.Name)
		}
		var b strings.Builder
		w := kinds.NewDescriber(&b, nil, 0, nil)
		kinds.DescribePodTemplate(w, t)
		w.Flush()
		return fmt.Sprintf("%s with revision #%d\n%s\n", name, want, b.String()), nil
	}
	if len(numbers) == 0 {
		return name + " \nNo rollout history found.\n", nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s \n", name)
	w := tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0)
	fmt.Fprintln(w, "REVISION\tCHANGE-CAUSE")
	for _, n := range numbers {
		cause := byNumber[n].Annotations["kubernetes.io/change-cause"]
		if cause == "" {
			cause = "<none>"
		}
		fmt.Fprintf(w, "%d\t%s\n", n, cause)
	}
	w.Flush()
	return b.String() + "\n", nil
}

// workloadUndo is rollout undo of a DaemonSet or StatefulSet, as kubectl's
// rollbackers do it: find the revision (--to-revision, or the one before
// the newest), skip when the set's template is already that revision's,
// else patch the revision's template in. The controller does the rest: it
// renumbers that revision as the newest and rolls the pods.
func (k *cmd) workloadUndo(o api.Object, kind api.Kind, p *printer) (string, error) {
	to := int64(k.in.Int("to-revision", 0))
	if to < 0 {
		return "", fmt.Errorf("error: unable to find specified revision %d in history", to)
	}
	revs := k.workloadRevisions(o)
	if to == 0 && len(revs) <= 1 {
		return "", errors.New("error: no last revision to roll back to")
	}
	var target *api.ControllerRevision
	if to == 0 {
		target = revs[len(revs)-2]
	} else {
		for _, r := range revs {
			if r.Revision == to {
				target = r
				break
			}
		}
	}
	if target == nil || target.Data.Template() == nil {
		return "", fmt.Errorf("error: unable to find specified revision %d in history", to)
	}
	t := podTemplate(o)
	if controller.RevisionMatches(target, controller.RevisionData(t)) {
		// kubectl names the revision asked for: 0 when none was.
		return fmt.Sprintf("%s/%s skipped rollback (current template already matches revision %d)\n", kind.Qualified(), o.Meta().Name, to), nil
	}
	*t = target.Data.Template().DeepCopy()
	o.Meta().ResourceVersion = ""
	out, err := k.st.Update(o)
	if err != nil {
		return "", fmt.Errorf("error: failed restoring revision %d: %v", to, err)
	}
	return k.done(p, kind, out, "rolled back")
}

// checkWorkload is look for rollout status on a DaemonSet or
// StatefulSet.
func (w *Watch) checkWorkload(st *store.Store) (ended bool, code int, tail string) {
	o := st.Get(w.rolloutKind, w.namespace, w.name)
	if o == nil || o.Meta().UID != w.uid {
		return true, 1, "error: object has been deleted\n"
	}
	line, done, err := WorkloadRolloutStatus(o)
	if line != "" && (len(w.lines) == 0 || w.lines[len(w.lines)-1] != line) {
		w.add(line)
	}
	switch {
	case err != nil:
		return true, 1, err.Error() + "\n"
	case done, w.maxLines > 0 && len(w.lines) >= w.maxLines:
		return true, 0, ""
	}
	return false, 0, ""
}
