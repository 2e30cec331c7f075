package sim

import (
	"fmt"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/queue"
)

// Converged reports whether the world has converged, and when it has not,
// why, in words: the first reason Moving finds.
//
// A converged world is one where observed state matches desired state and
// nothing in the control plane would act again:
//
//   - every node is Ready; no pod is pending, unready or terminating, nor
//     bound to a node that is gone (the pod garbage collector's); every
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
	if key := w.movingKey(); w.convergedKey != key {
		w.remember(key, w.moving(1))
	}
	return w.convergedOK, w.convergedWhy
}

// movingKey names the moment Converged's memo is for: what a fault or a
// write would change (a fault leaves a note).
func (w *world) movingKey() string {
	return fmt.Sprintf("%d/%d/%d/%d/%d/%d", w.npass, w.store.ResourceVersion(), w.seq, w.now, len(w.notes), len(w.outputs))
}

// remember keeps in Converged's memo, for the moment key, what the first
// of lines (the moving ones, from the first check on) says.
func (w *world) remember(key string, lines []string) {
	why := ""
	if len(lines) > 0 {
		why = lines[0]
	}
	w.convergedKey, w.convergedOK, w.convergedWhy = key, why == "", why
}

// Moving lists what keeps the world from having converged, every reason
// Converged checks, grouped so that it reads at a glance ("2 pods
// terminating", one line for a node with when its pods are evicted, one
// line per unfinished rollout in kubectl's words), in the order the checks
// run: the objects first, then the loop. It returns at most max lines
// (max < 1: all of them), and none when the world has converged.
func (s *Sim) Moving(max int) []string {
	ok, why := s.Converged()
	switch {
	case ok:
		return nil
	case max == 1:
		return []string{why}
	}
	return s.w.moving(max)
}

// moving walks the checks in order and stops after the first group of
// checks that brings the lines to max, so that Converged (max 1) costs
// what the first reason costs.
func (w *world) moving(max int) []string {
	m := reasons{max: max}
	for _, check := range []func(*reasons){
		w.nodesMoving, w.terminatingMoving, w.workloadsMoving, w.podsMoving, w.jobsMoving,
		w.processesMoving, w.agendaMoving,
	} {
		check(&m)
		if max > 0 && len(m.lines) >= max {
			return m.lines[:max]
		}
	}
	return m.lines
}

// reasons collects the lines of a walk, grouping alike reasons.
type reasons struct {
	lines []string
	// max is how many lines the walk needs (0: all): a check may skip
	// work whose lines would come after them.
	max int
}

func (m *reasons) add(format string, args ...any) {
	m.lines = append(m.lines, fmt.Sprintf(format, args...))
}

// count adds one line for alike reasons about names: one names it
// ("pod %s terminating"), more count them ("%d pods terminating").
func (m *reasons) count(names []string, one, more string) {
	switch len(names) {
	case 0:
	case 1:
		m.add(one, names[0])
	default:
		m.add(more, len(names))
	}
}

// group is alike reasons: how many, the first one's subject and time, and
// the words they share.
type group struct {
	n     int
	first string
	at    api.Time
	words []string
}

// groups keeps groups in the order their first reason was found.
type groups struct {
	list  []*group
	index map[string]*group // lookup only: never ranged over
}

// note counts a reason about first (at a time, for the agenda's) in the
// group its words make.
func (g *groups) note(first string, at api.Time, words ...string) {
	key := strings.Join(words, "\x00")
	if g.index == nil {
		g.index = map[string]*group{}
	}
	if e := g.index[key]; e != nil {
		e.n++
		return
	}
	e := &group{n: 1, first: first, at: at, words: words}
	g.index[key] = e
	g.list = append(g.list, e)
}

// nodesMoving: every node not Ready, and when the node lifecycle
// controller evicts its pods, where the objects say.
func (w *world) nodesMoving(m *reasons) {
	for o := range w.store.Each("Node") { // a list of 1,000 nodes, per pass, at scale
		n := o.(*api.Node)
		if nodeReady(n) == "True" {
			continue
		}
		line := "node " + n.Name + " NotReady"
		if at, ok := w.evictionAt(n); ok && at > w.now {
			line += fmt.Sprintf(": pods evicted at t=%s", at)
		} else if ok {
			line += fmt.Sprintf(": pods due for eviction since t=%s", at)
		}
		m.add("%s", line)
	}
}

// evictionAt is when the node lifecycle controller first evicts a pod from
// n: the unreachable (or not-ready) NoExecute taint's time plus the shortest toleration
// of a pod on the node. It is not known when the node has no such taint
// (not marked by the controller, or every node is down), when no pod
// would be evicted, or when the controller is stopped.
func (w *world) evictionAt(n *api.Node) (api.Time, bool) {
	var added *api.Time
	key := controller.UnreachableTaint
	for _, t := range n.Spec.Taints {
		if (t.Key == controller.UnreachableTaint || t.Key == controller.NotReadyTaint) && t.Effect == "NoExecute" && t.TimeAdded != nil {
			added, key = t.TimeAdded, t.Key
		}
	}
	if added == nil {
		return 0, false
	}
	acts := false
	for _, i := range w.procIndex(controller.NodeLifecycleController) {
		acts = acts || !w.procs[i].stopped
	}
	if !acts {
		return 0, false
	}
	var first api.Time
	found := false
	for _, o := range w.store.List("Pod") {
		p := o.(*api.Pod)
		if p.Spec.NodeName != n.Name || p.DeletionTimestamp != nil {
			continue
		}
		secs, evicted := int64(0), true
		for _, t := range p.Spec.Tolerations {
			if t.Tolerates(api.Taint{Key: key, Effect: "NoExecute"}) {
				if t.TolerationSeconds == nil {
					evicted = false // tolerated forever
				} else {
					secs = *t.TolerationSeconds
				}
				break
			}
		}
		if at := *added + api.Duration(secs)*api.Second; evicted && (!found || at < first) {
			first, found = at, true
		}
	}
	return first, found
}

// terminatingMoving: pods being deleted, counted.
func (w *world) terminatingMoving(m *reasons) {
	switch n, name := w.terminatingPods(); {
	case n == 1:
		m.add("pod %s terminating", name)
	case n > 1:
		m.add("%d pods terminating", n)
	}
	// Other kinds held by finalizers (the garbage collector's, or anyone's),
	// and owned ones whose every owner is gone: the garbage collector's to
	// delete. (Pods are left out of the second check: their owner, a
	// ReplicaSet or a Job, is checked, and a world of 10,000 pods would
	// pay for it on every pass.)
	for _, kind := range []string{"Deployment", "ReplicaSet", "Job"} {
		for _, o := range w.store.List(kind) {
			om := o.Meta()
			if om.DeletionTimestamp != nil {
				m.add("%s %s terminating (finalizers %s)", api.LowerKind(kind), om.Name, strings.Join(om.Finalizers, ", "))
				continue
			}
			if len(om.OwnerReferences) > 0 && w.ownersGone(om) {
				m.add("%s %s has no owner left (%s/%s is gone)", api.LowerKind(kind), om.Name, api.LowerKind(om.OwnerReferences[0].Kind), om.OwnerReferences[0].Name)
			}
		}
	}
}

// ownersGone reports whether every owner m refers to is gone (or is
// another object of the same name).
func (w *world) ownersGone(m *api.ObjectMeta) bool {
	for _, r := range m.OwnerReferences {
		ns := m.Namespace
		if k, _ := api.KindOf(r.Kind); !k.Namespaced {
			ns = ""
		}
		if o := w.store.Get(r.Kind, ns, r.Name); o != nil && o.Meta().UID == r.UID {
			return false
		}
	}
	return true
}

// podsMoving: pods not running, or running and not ready, counted by what
// kubectl get pods shows of them.
func (w *world) podsMoving(m *reasons) {
	m.lines = append(m.lines, w.podsNotReady()...)
}

// jobsMoving: Jobs that have not finished.
func (w *world) jobsMoving(m *reasons) {
	var names []string
	for _, o := range w.store.List("Job") {
		j := o.(*api.Job)
		finished := false
		for _, c := range j.Status.Conditions {
			if (c.Type == "Complete" || c.Type == "Failed") && c.Status == "True" {
				finished = true
			}
		}
		if !finished {
			names = append(names, j.Name)
		}
	}
	m.count(names, "job %s has not finished", "%d jobs have not finished")
}

// processesMoving: controllers with keys queued (one line per controller,
// its processes on every node counted together), then periodic checks
// that would act.
func (w *world) processesMoving(m *reasons) {
	var queued groups
	keys := map[string]int{} // keys queued per controller name; lookup only
	for _, c := range w.procs {
		if c.running && c.queue.Len() > 0 {
			queued.note(c.host, 0, c.name)
			keys[c.name] += c.queue.Len()
		}
	}
	for _, e := range queued.list {
		name := e.words[0]
		switch {
		case e.n == 1 && e.first != "":
			m.add("%s on %s has %d key(s) queued", name, e.first, keys[name])
		case e.n == 1:
			m.add("%s has %d key(s) queued", name, keys[name])
		default:
			m.add("%s on %d nodes has %d key(s) queued", name, e.n, keys[name])
		}
	}
	for _, c := range w.procs {
		if !c.running {
			continue
		}
		if idler, ok := c.impl().(controller.Idler); ok {
			if idle, why := idler.Idle(w.cacheOf(c), w, w.now); !idle {
				m.add("%s", why)
			}
		}
	}
}

// agendaMoving: what the agenda holds for the loop: watch events on their
// way (one line for them all), crashed controllers to restart, and
// requeues whose pass would act (a key requeued twice counts once).
func (w *world) agendaMoving(m *reasons) {
	var events, to, requeues groups
	var restarts []string
	acting := map[string]bool{} // requeued keys whose pass would act; lookup only
	var due []*item             // requeues of running controllers, in agenda order
	for _, it := range w.agenda.Values() {
		if it.kind == itemDeliver {
			ev := ""
			for _, r := range it.to.list {
				if c := w.procs[r.ctrl]; c.epoch == int(r.epoch) && c.running {
					if ev == "" {
						ev = fmt.Sprintf("%s %s", api.RefOf(it.ev.Object), it.ev.Type)
					}
					events.note(ev, it.at, ev, it.ev.Object.Meta().ResourceVersion)
					to.note(c.name, it.at, c.name)
				}
			}
			continue
		}
		c := w.procs[it.ctrl]
		if c.epoch != it.epoch {
			continue
		}
		switch it.kind {
		case itemRestart:
			if !c.running && !c.stopped {
				restarts = append(restarts, fmt.Sprintf("%s crashed: %s at t=%s", c.name, c.spec.Runs.Restarts(), it.at))
			}
		case itemRequeue:
			if c.running {
				due = append(due, it)
			}
		}
	}
	// The requeues' lines come after the events' and the restarts': when
	// those are all the lines wanted (Converged wants one), no requeue
	// needs trying.
	early := len(m.lines) + len(restarts)
	if len(events.list) > 0 {
		early++
	}
	if m.max > 0 && early >= m.max {
		due = nil
	}
	for _, it := range due {
		c := w.procs[it.ctrl]
		key := fmt.Sprintf("%d\x00%s", it.ctrl, it.key)
		if !acting[key] && w.wouldAct(*it) {
			acting[key] = true
			requeues.note(it.key, it.at, c.name, it.why) // the delay is in the time
		}
	}
	switch n := len(events.list); {
	case n == 0:
	case n == 1 && len(to.list) == 1:
		m.add("a watch event (%s) is on its way to %s", events.list[0].first, to.list[0].first)
	case n == 1:
		m.add("a watch event (%s) is on its way to %s", events.list[0].first, names(to.list))
	default:
		m.add("%d watch events are on their way to %s", n, names(to.list))
	}
	m.lines = append(m.lines, restarts...)
	for _, e := range requeues.list {
		name, reason := e.words[0], e.words[1]
		if e.n == 1 {
			m.add("%s requeued %s: %s at t=%s", name, e.first, reason, e.at)
		} else {
			m.add("%s requeued %d keys: %s, the first at t=%s", name, e.n, reason, e.at)
		}
	}
}

// names lists the first reasons of gs: "a", "a and b", "a, b and 3 more".
func names(gs []*group) string {
	switch len(gs) {
	case 1:
		return gs[0].first
	case 2:
		return gs[0].first + " and " + gs[1].first
	case 3:
		return gs[0].first + ", " + gs[1].first + " and " + gs[2].first
	}
	return fmt.Sprintf("%s, %s and %d more", gs[0].first, gs[1].first, len(gs)-2)
}

// wouldAct runs a requeue's pass on a copy of the world, at the time it is
// due, and reports whether the pass would do more than find the world as
// it should be.
func (w *world) wouldAct(it item) bool {
	d := w.scratchCopy()
	d.setNow(it.at)
	p := d.runPass(it.ctrl, queue.Item{Key: it.key, Trigger: queue.RequeueTrigger(it.why, it.after), Events: 1})
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
