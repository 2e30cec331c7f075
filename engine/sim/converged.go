package sim

import (
	"fmt"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/kubectl"
	"reconcile/engine/queue"
)

// Converged reports whether the world has converged, and when it has not,
// why, in words: the first reason found.
//
// A converged world is one where observed state matches desired state and
// nothing in the control plane would act again:
//
//   - every node is Ready; no pod is pending, unready or terminating; every
//     Job has finished; every ReplicaSet has its replicas, ready and
//     available, and has seen its latest spec; every Deployment's rollout
//     is complete (kubectl rollout status would return);
//   - no watch event is on its way, no controller has a key queued or has
//     crashed, no controller's cache missed an event, no periodic check
//     would act (a node that stopped renewing its lease, drift from git),
//     and no requeue that is due would act (a requeue whose pass would
//     find nothing to do, such as a finished rollout's deadline check, does
//     not count).
//
// Inputs scheduled ahead (a lesson's next step) are not the loop's and do
// not count: a world can be converged a minute before its node dies.
func (s *Sim) Converged() (bool, string) {
	w := s.w
	// What a fault or a write would change: a fault leaves a note.
	key := fmt.Sprintf("%d/%d/%d/%d/%d/%d", len(w.passes), w.store.ResourceVersion(), w.seq, w.now, len(w.notes), len(w.outputs))
	if w.convergedKey != key {
		ok, why := w.converged()
		w.convergedKey, w.convergedOK, w.convergedWhy = key, ok, why
	}
	return w.convergedOK, w.convergedWhy
}

func (w *world) converged() (bool, string) {
	if ok, why := w.observedMatchesDesired(); !ok {
		return false, why
	}
	return w.loopQuiet()
}

// observedMatchesDesired checks the objects: nodes, pods, workloads.
func (w *world) observedMatchesDesired() (bool, string) {
	st := w.store
	for _, o := range st.List("Node") {
		n := o.(*api.Node)
		if ready := nodeReady(n); ready != "True" {
			return false, fmt.Sprintf("node %s is NotReady (Ready=%s)", n.Name, ready)
		}
	}
	pods := st.List("Pod")
	for _, o := range pods {
		if p := o.(*api.Pod); p.DeletionTimestamp != nil {
			return false, fmt.Sprintf("pod %s is terminating", p.Name)
		}
	}
	for _, o := range st.List("Deployment") {
		d := o.(*api.Deployment)
		line, done, err := kubectl.RolloutStatus(d)
		switch {
		case err != nil:
			return false, fmt.Sprintf("deployment %s: %s", d.Name, strings.TrimPrefix(err.Error(), "error: "))
		case !done:
			return false, fmt.Sprintf("deployment %s: %s", d.Name, strings.TrimSpace(line))
		}
	}
	owned := map[string]int{} // active pods per controller UID
	for _, o := range pods {
		p := o.(*api.Pod)
		if ref := p.ControllerOf(); ref != nil && controller.IsPodActive(p) {
			owned[ref.UID]++
		}
	}
	for _, o := range st.List("ReplicaSet") {
		rs := o.(*api.ReplicaSet)
		want := api.Deref(rs.Spec.Replicas, 1)
		switch {
		case int32(owned[rs.UID]) != want:
			return false, fmt.Sprintf("replicaset %s has %d of %d pods", rs.Name, owned[rs.UID], want)
		case rs.Status.ObservedGeneration < rs.Generation:
			return false, fmt.Sprintf("replicaset %s: its controller has not seen generation %d", rs.Name, rs.Generation)
		case rs.Status.Replicas != want || rs.Status.ReadyReplicas != want || rs.Status.AvailableReplicas != want:
			return false, fmt.Sprintf("replicaset %s: %d of %d replicas ready, %d available", rs.Name, rs.Status.ReadyReplicas, want, rs.Status.AvailableReplicas)
		}
	}
	for _, o := range pods {
		p := o.(*api.Pod)
		switch {
		case p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed:
		case p.Status.Phase != api.PodRunning:
			return false, fmt.Sprintf("pod %s is %s", p.Name, kubectl.PodStatus(p))
		case !controller.IsPodReady(p):
			return false, fmt.Sprintf("pod %s is not ready (%s)", p.Name, kubectl.PodStatus(p))
		}
	}
	for _, o := range st.List("Job") {
		j := o.(*api.Job)
		finished := false
		for _, c := range j.Status.Conditions {
			if (c.Type == "Complete" || c.Type == "Failed") && c.Status == "True" {
				finished = true
			}
		}
		if !finished {
			return false, fmt.Sprintf("job %s has not finished", j.Name)
		}
	}
	return true, ""
}

// loopQuiet checks that no controller would act again.
func (w *world) loopQuiet() (bool, string) {
	for _, c := range w.procs {
		who := c.name
		if c.host != "" {
			who += " on " + c.host
		}
		switch {
		case !c.running:
		case c.queue.Len() > 0:
			return false, fmt.Sprintf("%s has %d key(s) queued", who, c.queue.Len())
		default:
			if idler, ok := c.impl().(controller.Idler); ok {
				if idle, why := idler.Idle(c.cache, w, w.now); !idle {
					return false, why
				}
			}
		}
	}
	for _, it := range w.agenda.Values() {
		c := w.procs[it.ctrl]
		live := c.epoch == it.epoch
		switch it.kind {
		case itemDeliver:
			if live && c.running {
				return false, fmt.Sprintf("a watch event (%s %s) is on its way to %s", api.RefOf(it.ev.Object), it.ev.Type, c.name)
			}
		case itemRestart:
			if live && !c.running && !c.stopped {
				return false, fmt.Sprintf("%s crashed: the controller-manager restarts it at t=%s", c.name, it.at)
			}
		case itemRequeue:
			if live && c.running && w.wouldAct(*it) {
				return false, fmt.Sprintf("%s looks at %s again at t=%s (%s)", c.name, it.key, it.at, it.why)
			}
		}
	}
	return true, ""
}

// wouldAct runs a requeue's pass on a copy of the world, at the time it is
// due, and reports whether the pass would do more than find the world as
// it should be.
func (w *world) wouldAct(it item) bool {
	d := w.clone()
	d.setNow(it.at)
	p := d.runPass(it.ctrl, queue.Item{Key: it.key, Trigger: "requeue: " + it.why, Events: 1})
	return p == nil || p.Result != controller.InSync
}

// nodeReady returns the status of a node's Ready condition ("missing" when
// it has none).
func nodeReady(n *api.Node) string {
	for _, c := range n.Status.Conditions {
		if c.Type == "Ready" {
			return c.Status
		}
	}
	return "missing"
}
