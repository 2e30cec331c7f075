package kubectl

import (
	"errors"
	"fmt"

	"reconcile/engine/api"
	"reconcile/engine/store"
)

// rollout status and restart for DaemonSets and StatefulSets, in
// kubectl's words (its DaemonSetStatusViewer and StatefulSetStatusViewer).

// WorkloadRolloutStatus is one evaluation of kubectl rollout status on a
// DaemonSet or a StatefulSet: the line it prints, whether the rollout is
// done, and the error that ends it.
func WorkloadRolloutStatus(o api.Object) (line string, done bool, err error) {
	switch t := o.(type) {
	case *api.DaemonSet:
		if t.Spec.UpdateStrategy.Type != api.RollingUpdateStrategy {
			return "", true, errors.New("error: rollout status is only available for RollingUpdate strategy type")
		}
		if t.Generation > t.Status.ObservedGeneration {
			return "Waiting for daemon set spec update to be observed...\n", false, nil
		}
		s := t.Status
		if s.UpdatedNumberScheduled < s.DesiredNumberScheduled {
			return fmt.Sprintf("Waiting for daemon set %q rollout to finish: %d out of %d new pods have been updated...\n", t.Name, s.UpdatedNumberScheduled, s.DesiredNumberScheduled), false, nil
		}
		if s.NumberAvailable < s.DesiredNumberScheduled {
			return fmt.Sprintf("Waiting for daemon set %q rollout to finish: %d of %d updated pods are available...\n", t.Name, s.NumberAvailable, s.DesiredNumberScheduled), false, nil
		}
		return fmt.Sprintf("daemon set %q successfully rolled out\n", t.Name), true, nil
	case *api.StatefulSet:
		if t.Spec.UpdateStrategy.Type != api.RollingUpdateStrategy {
			return "", true, errors.New("error: rollout status is only available for RollingUpdate strategy type")
		}
		if t.Status.ObservedGeneration == 0 || t.Generation > t.Status.ObservedGeneration {
			return "Waiting for statefulset spec update to be observed...\n", false, nil
		}
		want := api.Deref(t.Spec.Replicas, 1)
		s := t.Status
		if s.ReadyReplicas < want {
			return fmt.Sprintf("Waiting for %d pods to be ready...\n", want-s.ReadyReplicas), false, nil
		}
		if ru := t.Spec.UpdateStrategy.RollingUpdate; ru != nil && ru.Partition != nil && *ru.Partition > 0 {
			if s.UpdatedReplicas < want-*ru.Partition {
				return fmt.Sprintf("Waiting for partitioned roll out to finish: %d out of %d new pods have been updated...\n", s.UpdatedReplicas, want-*ru.Partition), false, nil
			}
			return fmt.Sprintf("partitioned roll out complete: %d new pods have been updated...\n", s.UpdatedReplicas), true, nil
		}
		if s.UpdateRevision != s.CurrentRevision {
			return fmt.Sprintf("waiting for statefulset rolling update to complete %d pods at revision %s...\n", s.UpdatedReplicas, s.UpdateRevision), false, nil
		}
		return fmt.Sprintf("statefulset rolling update complete %d pods at revision %s...\n", s.CurrentReplicas, s.CurrentRevision), true, nil
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
	switch objs[0].obj.(type) {
	case *api.DaemonSet, *api.StatefulSet:
		return objs[0].obj.DeepCopyObject(), true
	}
	return nil, false
}

// workloadRollout runs rollout status (one look) and restart on a
// DaemonSet or StatefulSet; handled is false for other targets.
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
	}
	return "", fmt.Errorf("error: rollout %s is not simulated for %s: only status and restart", sub, kind.Resource), true
}

// checkWorkload is CheckAt for rollout status on a DaemonSet or
// StatefulSet.
func (w *Watch) checkWorkload(st *store.Store) (output string, ended bool, code int) {
	o := st.Get(w.rolloutKind, w.namespace, w.name)
	if o == nil || o.Meta().UID != w.uid {
		return w.Output() + "error: object has been deleted\n", true, 1
	}
	line, done, err := WorkloadRolloutStatus(o)
	if line != "" && (len(w.lines) == 0 || w.lines[len(w.lines)-1] != line) {
		w.add(line)
	}
	switch {
	case err != nil:
		return w.Output() + err.Error() + "\n", true, 1
	case done, w.maxLines > 0 && len(w.lines) >= w.maxLines:
		return w.Output(), true, 0
	}
	return w.Output(), false, 0
}
