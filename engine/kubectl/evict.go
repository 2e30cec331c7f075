package kubectl

import (
	"errors"
	"fmt"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/store"
)

// The Eviction API (pods/NAME/eviction), as v1.34's EvictionREST does it,
// for kubectl drain.

// evictionRefused is the API's 429 (TooManyRequests): the pod's budget
// allows no disruption now, or has not been seen by its controller since
// it changed.
func evictionRefused() error {
	return &store.StatusError{Reason: "TooManyRequests", Message: "Cannot evict pod as it would violate the pod's disruption budget."}
}

// evict evicts a pod: a pod that has finished, is Pending or is being
// deleted is deleted whatever its budget; otherwise the one budget of its
// namespace that selects it must allow a disruption (more than one is an
// error), which the eviction takes (disruptionsAllowed less one, the pod
// noted in disruptedPods) before the pod gets the DisruptionTarget
// condition and is deleted. A pod that is not Ready goes without taking
// from the budget when the budget's unhealthyPodEvictionPolicy is
// AlwaysAllow, or when the budget is met.
func (k *cmd) evict(p *api.Pod, opts store.DeleteOptions) error {
	pod, _ := k.st.Get("Pod", p.Namespace, p.Name).(*api.Pod)
	if pod == nil {
		return store.ErrNotFound
	}
	b, err := k.evictionBudget(pod)
	if err != nil {
		return err
	}
	if b != nil {
		if err := k.takeDisruption(b, pod); err != nil {
			return err
		}
	}
	if err := k.markEvicted(pod); err != nil {
		return err
	}
	_, err = k.st.DeleteWith("Pod", pod.Namespace, pod.Name, opts)
	return err
}

// evictionBudget is the Eviction API's check of pod, which writes
// nothing: the budget the eviction takes a disruption from (nil for none),
// or its refusal.
func (k *cmd) evictionBudget(pod *api.Pod) (*api.PodDisruptionBudget, error) {
	if pod.Status.Phase == api.PodSucceeded || pod.Status.Phase == api.PodFailed ||
		pod.Status.Phase == api.PodPending || pod.DeletionTimestamp != nil {
		return nil, nil
	}
	var pdbs []*api.PodDisruptionBudget
	for _, o := range k.st.List("PodDisruptionBudget") {
		if b := o.(*api.PodDisruptionBudget); b.Namespace == pod.Namespace && controller.PDBSelects(b, pod.Labels) {
			pdbs = append(pdbs, b)
		}
	}
	if len(pdbs) > 1 {
		return nil, &store.StatusError{Reason: "InternalError", Message: "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support."}
	}
	if len(pdbs) == 0 {
		return nil, nil
	}
	b := pdbs[0]
	if !controller.IsPodReady(pod) {
		if pol := b.Spec.UnhealthyPodEvictionPolicy; pol != nil && *pol == api.AlwaysAllow {
			return nil, nil
		}
		if b.Status.CurrentHealthy >= b.Status.DesiredHealthy && b.Status.DesiredHealthy > 0 {
			return nil, nil
		}
	}
	switch {
	case b.Status.ObservedGeneration < b.Generation:
		return nil, evictionRefused()
	case b.Status.DisruptionsAllowed < 0:
		return nil, &store.StatusError{Reason: "Forbidden", Message: fmt.Sprintf("poddisruptionbudget.policy %q is forbidden: pdb disruptions allowed is negative", b.Name)}
	case b.Status.DisruptionsAllowed == 0:
		return nil, evictionRefused()
	}
	return b, nil
}

// takeDisruption is checkAndDecrement's write: the budget, which allows
// the eviction of pod (evictionBudget), records it.
func (k *cmd) takeDisruption(b *api.PodDisruptionBudget, pod *api.Pod) error {
	upd := b.DeepCopy()
	upd.Status.DisruptionsAllowed--
	if upd.Status.DisruptionsAllowed == 0 {
		controller.UpdateDisruptionAllowedCondition(upd, k.now)
	}
	if upd.Status.DisruptedPods == nil {
		upd.Status.DisruptedPods = map[string]api.Time{}
	}
	upd.Status.DisruptedPods[pod.Name] = k.now
	upd.ResourceVersion = ""
	_, err := k.st.UpdateStatus(upd)
	return err
}

// isTooManyRequests reports the 429 kubectl drain retries.
func isTooManyRequests(err error) bool {
	var se *store.StatusError
	return errors.As(err, &se) && se.Reason == "TooManyRequests"
}
