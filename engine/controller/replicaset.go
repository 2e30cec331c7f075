package controller

import (
	"errors"
	"fmt"
	"maps"
	"sort"
	"strconv"

	"reconcile/engine/api"
	"reconcile/engine/informer"
	"reconcile/engine/store"
)

// ReplicaSet is the level-triggered ReplicaSet controller.
//
// Desired: spec.replicas pods matching the template. Observed: the active
// pods it owns, from its cache. Difference: create the missing ones in
// slow-start batches (1, 2, 4, …, stopping at the first failure), or delete
// the surplus, worst-ranked first. Then report status.
type ReplicaSet struct {
	// expectations: creates and deletes a pass made that the cache has not
	// shown yet, per ReplicaSet key; the controller waits for them before
	// it counts again (or for ExpectationsTimeout).
	expect map[string]expectation
	// counts keeps, per ReplicaSet key, its pods as the cache shows them,
	// updated by each delivered pod event, so that a pass with nothing to
	// create or delete costs the same for 5 pods as for 10,000.
	counts map[string]podCounts
	// orphans are the cached pods no controller owns (claim.go).
	orphans orphanSet
}

// podCounts are a ReplicaSet's active, ready and fully labeled pods.
// Stale counts are not kept: a key is dropped when they cannot be
// updated (the ReplicaSet not cached yet, its template changed).
type podCounts struct {
	active, ready, labeled int32
	// stray are active pods it owns that its selector no longer
	// matches: to release.
	stray int32
}

type expectation struct {
	adds, dels int
	at         api.Time
}

// BurstReplicas caps the creates or deletes of one pass.
const BurstReplicas = 500

// ExpectationsTimeout is how long a ReplicaSet waits to see its own writes.
const ExpectationsTimeout = 5 * api.Minute

// The lines of LevelLines a pass lights, by what they do (1-based).
const (
	lineEveryPass = iota + 1
	lineDesired
	lineObserved
	lineIfShort
	lineCreate
	lineIfOver
	lineDelete
)

// LevelLines is the lesson's level-triggered block, line by line; the
// line* constants name them.
var LevelLines = []string{
	"every pass:",
	"  desired = spec.replicas",
	"  observed = count(healthy pods)",
	"  if observed < desired:",
	"    create(desired - observed)",
	"  if observed > desired:",
	"    delete(observed - desired)",
}

// NewReplicaSet returns the level-triggered ReplicaSet controller.
func NewReplicaSet() *ReplicaSet {
	return &ReplicaSet{expect: map[string]expectation{}, counts: map[string]podCounts{}, orphans: orphanSet{}}
}

func (r *ReplicaSet) Name() string      { return ReplicaSetController }
func (r *ReplicaSet) Watches() []string { return []string{"ReplicaSet", "Pod"} }

// Clone copies the controller with its expectations.
func (r *ReplicaSet) Clone() Reconciler {
	return &ReplicaSet{expect: maps.Clone(r.expect), counts: maps.Clone(r.counts), orphans: maps.Clone(r.orphans)}
}

// Keys maps a ReplicaSet event to itself and a pod event to its owner,
// observing the pod against the owner's expectations.
func (r *ReplicaSet) Keys(c *informer.Cache, ev store.WatchEvent) []string {
	switch o := ev.Object.(type) {
	case *api.ReplicaSet:
		k := api.RefOf(o).Key()
		if prev, ok := c.Replaced().(*api.ReplicaSet); !ok || !labelsEqual(prev.Spec.Template.Labels, o.Spec.Template.Labels) || prev.UID != o.UID {
			delete(r.counts, k) // recount against the new template
		}
		if ev.Type == store.Modified {
			if old, ok := ev.Old.(*api.ReplicaSet); ok && old.ResourceVersion == o.ResourceVersion {
				return nil
			}
		}
		if ev.Type == store.Deleted {
			delete(r.expect, k)
			delete(r.counts, k)
		}
		return []string{k}
	case *api.Pod:
		r.orphans.note(o, ev.Type == store.Deleted)
		var keys []string
		if prev := previousController(c, o, "ReplicaSet"); prev != "" {
			r.recount(c, prev, ev) // released (or handed over): its old owner counts it out
			keys = append(keys, prev)
		}
		ref := o.ControllerOf()
		if ref == nil && ev.Type != store.Deleted && o.DeletionTimestamp == nil {
			keys = append(keys, replicaSetsSelecting(c, o)...) // an orphan: who may adopt it
		}
		if ref == nil || ref.Kind != "ReplicaSet" {
			return keys
		}
		k := o.Namespace + "/" + ref.Name
		r.recount(c, k, ev)
		e, ok := r.expect[k]
		if ok {
			switch {
			case ev.Type == store.Added && e.adds > 0:
				e.adds--
			case ev.Type == store.Deleted && e.dels > 0:
				e.dels--
			case ev.Type == store.Modified && o.DeletionTimestamp != nil && e.dels > 0:
				if old, ok := ev.Old.(*api.Pod); ok && old.DeletionTimestamp == nil {
					e.dels--
				}
			}
			r.expect[k] = e
		}
		return append(keys, k)
	}
	return nil
}

// Restarted forgets the expectations, as a restarted controller does.
func (r *ReplicaSet) Restarted() {
	r.expect = map[string]expectation{}
	r.counts = map[string]podCounts{}
	r.orphans = orphanSet{}
}

// recount moves a pod's contribution from the cache's previous version of
// it to the version just delivered.
func (r *ReplicaSet) recount(c *informer.Cache, k string, ev store.WatchEvent) {
	n, ok := r.counts[k]
	if !ok {
		return
	}
	rs, _ := c.Get("ReplicaSet", k).(*api.ReplicaSet)
	if rs == nil {
		delete(r.counts, k)
		return
	}
	add := func(o api.Object, sign int32) {
		p, ok := o.(*api.Pod)
		if !ok || !IsPodActive(p) {
			return
		}
		if ref := p.ControllerOf(); ref == nil || ref.UID != rs.UID {
			return
		}
		n.active += sign
		if IsPodReady(p) {
			n.ready += sign
		}
		if labelsMatch(rs.Spec.Template.Labels, p.Labels) {
			n.labeled += sign
		}
		if !rs.Spec.Selector.Matches(p.Labels) {
			n.stray += sign
		}
	}
	add(c.Replaced(), -1)
	if ev.Type != store.Deleted {
		add(ev.Object, +1)
	}
	r.counts[k] = n
}

func labelsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// Reconcile runs one pass for a ReplicaSet key.
func (r *ReplicaSet) Reconcile(ctx *Context, req Request) (Result, error) {
	key := req.Key
	ctx.Lines = []int{lineEveryPass}
	rs, _ := ctx.Cache.Get("ReplicaSet", key).(*api.ReplicaSet)
	if rs == nil {
		ctx.Deleted("ReplicaSet deleted")
		delete(r.expect, key)
		delete(r.counts, key)
		return ctx.NothingToDo(), nil
	}
	want := api.Deref(rs.Spec.Replicas, 1)
	n, counted := r.counts[key]
	var pods []*api.Pod
	if !counted {
		pods = activePods(ctx.Cache, rs)
		n = countPods(rs, pods)
		r.counts[key] = n
	}
	// Adopt the orphans its selector matches, release the pods it no
	// longer matches; then count what it controls now.
	orphans := r.orphans.in(rs.Namespace)
	var claim claimed
	var claimErr error
	if len(orphans) > 0 || n.stray > 0 {
		if pods == nil {
			pods = activePods(ctx.Cache, rs)
		}
		ref := api.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID, Controller: true, BlockOwnerDeletion: true}
		claim, claimErr = claimPods(ctx, rs, rs.Spec.Selector, ref, orphans, pods)
		if claimErr == ErrCrashed || errors.Is(claimErr, ErrCrashed) {
			return Result{}, ErrCrashed
		}
		if claim.changed() {
			// The cache shows the claim's writes only when their events
			// arrive: count from what the pass knows, and recount from the
			// cache next time.
			pods = claim.apply(pods)
			n = countPods(rs, pods)
			delete(r.counts, key)
		}
		if claimErr != nil {
			return Result{}, claimErr
		}
	}
	ctx.Lines = append(ctx.Lines, lineDesired, lineObserved)
	ctx.Desired = fmt.Sprintf("spec.replicas = %d", want)
	ctx.Observed = fmt.Sprintf("%d active pods", n.active)
	ctx.DesiredFact, ctx.ObservedFact = Fact{Is: Replicas, N: int(want)}, Fact{Is: ActivePods, N: int(n.active)}
	diff := want - n.active
	// The pods themselves are needed only to choose whom to delete, or to
	// time availability (or to word a failure, below); the counts answer
	// everything else, creating included.
	if pods == nil && (diff < 0 || rs.Spec.MinReadySeconds > 0) {
		pods = activePods(ctx.Cache, rs)
	}
	var manageErr error
	if e, ok := r.expect[key]; ok && (e.adds > 0 || e.dels > 0) && ctx.Now-e.at < ExpectationsTimeout {
		waiting := fmt.Sprintf("waiting to observe %d creates, %d deletes)", e.adds, e.dels)
		ctx.Difference = fmt.Sprintf("%+d (%s", diff, waiting)
		ctx.DifferenceFact = Fact{Is: WaitingOwnWrites, N: int(diff), Name: waiting}
	} else {
		delete(r.expect, key)
		ctx.Difference = fmt.Sprintf("%+d", diff)
		if rs.DeletionTimestamp == nil {
			manageErr = r.manage(ctx, rs, pods, diff)
		}
	}
	if manageErr == ErrCrashed {
		return Result{}, manageErr
	}
	var st api.ReplicaSetStatus
	if rs.Spec.MinReadySeconds == 0 && manageErr == nil {
		st = api.ReplicaSetStatus{ObservedGeneration: rs.Generation, Replicas: n.active, FullyLabeledReplicas: n.labeled,
			ReadyReplicas: n.ready, AvailableReplicas: n.ready}
	} else {
		if pods == nil {
			pods = activePods(ctx.Cache, rs)
		}
		st = CalculateReplicaSetStatus(rs, pods, manageErr, ctx.Now)
	}
	if err := r.writeStatus(ctx, rs, st); err != nil {
		return Result{}, err
	}
	if manageErr != nil {
		return Result{}, manageErr // retried with the queue's back-off
	}
	res := Result{Outcome: Acted}
	if diff == 0 {
		res = ctx.NothingToDo()
	}
	// Availability after minReadySeconds needs a later look.
	if rs.Spec.MinReadySeconds > 0 {
		for _, p := range pods {
			if IsPodReady(p) && !IsPodAvailable(p, api.Duration(rs.Spec.MinReadySeconds)*api.Second, ctx.Now) {
				res.RequeueAfter, res.RequeueReason = api.Duration(rs.Spec.MinReadySeconds)*api.Second, RequeueMinReady
				break
			}
		}
	}
	return res, nil
}

// countPods counts a ReplicaSet's active pods as CalculateReplicaSetStatus
// does.
func countPods(rs *api.ReplicaSet, pods []*api.Pod) podCounts {
	var n podCounts
	for _, p := range pods {
		n.active++
		if IsPodReady(p) {
			n.ready++
		}
		if labelsMatch(rs.Spec.Template.Labels, p.Labels) {
			n.labeled++
		}
		if !rs.Spec.Selector.Matches(p.Labels) {
			n.stray++
		}
	}
	return n
}

func (r *ReplicaSet) manage(ctx *Context, rs *api.ReplicaSet, pods []*api.Pod, diff int32) error {
	key := api.RefOf(rs).Key()
	ctx.Lines = append(ctx.Lines, lineIfShort)
	switch {
	case diff > 0:
		ctx.Lines = append(ctx.Lines, lineCreate)
		n := min(int(diff), BurstReplicas)
		created := 0
		r.expect[key] = expectation{adds: n, at: ctx.Now}
		// Slow start: batches of 1, 2, 4, … stop at the first failure.
		for batch := 1; created < n; batch *= 2 {
			size := min(batch, n-created)
			failed := false
			var firstErr error
			for i := 0; i < size; i++ {
				pod, err := ctx.CreateNew(func() api.Object { return podFromTemplate(rs) }, func(o api.Object) Action { return OnPod(Create, o.Meta().Name, "") })
				if err == ErrCrashed {
					return err
				}
				if err != nil {
					failed = true
					if firstErr == nil {
						firstErr = err
					}
					ctx.Event(rs, "Warning", "FailedCreate", "Error creating: %v", err)
					continue
				}
				created++
				ctx.EventMessage(rs, "Normal", "SuccessfulCreate", "Created pod: "+pod.Meta().Name)
			}
			if failed {
				// un-attempted and failed creates are not expected any more
				e := r.expect[key]
				e.adds = created
				r.expect[key] = e
				ctx.Lines = append(ctx.Lines, lineIfOver)
				return firstErr
			}
		}
	case diff < 0:
		ctx.Lines = append(ctx.Lines, lineIfOver, lineDelete)
		n := min(int(-diff), BurstReplicas)
		victims := podsToDelete(pods, n, ctx.Now)
		r.expect[key] = expectation{dels: n, at: ctx.Now}
		for _, p := range victims {
			err := ctx.Delete("Pod", p.Namespace, p.Name, false, OnPod(Delete, p.Name, ""))
			if err == ErrCrashed {
				return err
			}
			if err != nil {
				ctx.Event(rs, "Warning", "FailedDelete", "Error deleting: %v", err)
				return err
			}
			ctx.Event(rs, "Normal", "SuccessfulDelete", "Deleted pod: %s", p.Name)
		}
	default:
		ctx.Lines = append(ctx.Lines, lineIfOver)
	}
	return nil
}

func (r *ReplicaSet) writeStatus(ctx *Context, rs *api.ReplicaSet, st api.ReplicaSetStatus) error {
	if equalRSStatus(rs.Status, st) {
		return nil
	}
	n := rs.DeepCopy()
	n.Status = st
	_, err := ctx.UpdateStatus(n, Status(fmt.Sprintf("replicas %d, ready %d, available %d", st.Replicas, st.ReadyReplicas, st.AvailableReplicas)))
	return err
}

func equalRSStatus(a, b api.ReplicaSetStatus) bool {
	if a.Replicas != b.Replicas || a.FullyLabeledReplicas != b.FullyLabeledReplicas || a.ReadyReplicas != b.ReadyReplicas ||
		a.AvailableReplicas != b.AvailableReplicas || a.ObservedGeneration != b.ObservedGeneration || len(a.Conditions) != len(b.Conditions) {
		return false
	}
	for i := range a.Conditions {
		if a.Conditions[i] != b.Conditions[i] {
			return false
		}
	}
	return true
}

// CalculateReplicaSetStatus computes a ReplicaSet's status from its active
// pods: replicas, readyReplicas, availableReplicas, observedGeneration and
// the ReplicaFailure condition.
func CalculateReplicaSetStatus(rs *api.ReplicaSet, pods []*api.Pod, manageErr error, now api.Time) api.ReplicaSetStatus {
	st := api.ReplicaSetStatus{ObservedGeneration: rs.Generation}
	minReady := api.Duration(rs.Spec.MinReadySeconds) * api.Second
	for _, p := range pods {
		st.Replicas++
		if rs.Spec.Template.Labels == nil || labelsMatch(rs.Spec.Template.Labels, p.Labels) {
			st.FullyLabeledReplicas++
		}
		if IsPodReady(p) {
			st.ReadyReplicas++
			if IsPodAvailable(p, minReady, now) {
				st.AvailableReplicas++
			}
		}
	}
	var failure *api.ReplicaSetCondition
	for i := range rs.Status.Conditions {
		if rs.Status.Conditions[i].Type == "ReplicaFailure" {
			failure = &rs.Status.Conditions[i]
		}
	}
	switch {
	case manageErr != nil && failure == nil:
		reason := "FailedCreate"
		if int32(len(pods)) > api.Deref(rs.Spec.Replicas, 1) {
			reason = "FailedDelete"
		}
		st.Conditions = []api.ReplicaSetCondition{{Type: "ReplicaFailure", Status: "True", LastTransitionTime: now, Reason: reason, Message: manageErr.Error()}}
	case manageErr != nil:
		st.Conditions = []api.ReplicaSetCondition{*failure}
	}
	return st
}

func labelsMatch(want, got map[string]string) bool {
	for k, v := range want {
		if got[k] != v {
			return false
		}
	}
	return true
}

// activePods returns the ReplicaSet's active pods, by key.
func activePods(c *informer.Cache, rs *api.ReplicaSet) []*api.Pod {
	owned := c.Owned("Pod", rs.UID)
	out := make([]*api.Pod, 0, len(owned))
	for _, o := range owned {
		if p := o.(*api.Pod); IsPodActive(p) {
			out = append(out, p)
		}
	}
	return out
}

func podFromTemplate(rs *api.ReplicaSet) *api.Pod {
	t := rs.Spec.Template.DeepCopy()
	return &api.Pod{
		TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{
			GenerateName: rs.Name + "-", Namespace: rs.Namespace,
			Labels: t.Labels, Annotations: t.Annotations,
			OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID, Controller: true, BlockOwnerDeletion: true}},
		},
		Spec:   t.Spec,
		Status: api.PodStatus{Phase: api.PodPending},
	}
}

// podsToDelete ranks pods the way Kubernetes does when scaling down:
// unassigned before assigned, Pending before Unknown before Running, not
// ready before ready, doubled-up on a node before alone, ready for less
// time before longer, more restarts before fewer, newer before older.
func podsToDelete(pods []*api.Pod, n int, now api.Time) []*api.Pod {
	if n >= len(pods) {
		// All of them: in name order, so the trace does not depend on
		// the order pods were found in.
		out := append([]*api.Pod(nil), pods...)
		sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
		return out
	}
	perNode := map[string]int{}
	for _, p := range pods {
		if p.Spec.NodeName != "" {
			perNode[p.Spec.NodeName]++
		}
	}
	ranked := append([]*api.Pod(nil), pods...)
	phase := map[string]int{api.PodPending: 0, api.PodUnknown: 1, api.PodRunning: 2}
	sort.SliceStable(ranked, func(i, j int) bool {
		a, b := ranked[i], ranked[j]
		if (a.Spec.NodeName == "") != (b.Spec.NodeName == "") {
			return a.Spec.NodeName == ""
		}
		if phase[a.Status.Phase] != phase[b.Status.Phase] {
			return phase[a.Status.Phase] < phase[b.Status.Phase]
		}
		if IsPodReady(a) != IsPodReady(b) {
			return !IsPodReady(a)
		}
		if ca, cb := deletionCost(a), deletionCost(b); ca != cb {
			return ca < cb
		}
		if perNode[a.Spec.NodeName] != perNode[b.Spec.NodeName] {
			return perNode[a.Spec.NodeName] > perNode[b.Spec.NodeName]
		}
		if IsPodReady(a) && IsPodReady(b) {
			ra, rb := PodCondition(a, "Ready").LastTransitionTime, PodCondition(b, "Ready").LastTransitionTime
			if ra != rb {
				return ra > rb
			}
		}
		if ra, rb := restarts(a), restarts(b); ra != rb {
			return ra > rb
		}
		if a.CreationTimestamp != b.CreationTimestamp {
			return a.CreationTimestamp > b.CreationTimestamp
		}
		return a.UID < b.UID
	})
	return ranked[:n]
}

func deletionCost(p *api.Pod) int {
	c, _ := strconv.Atoi(p.Annotations["controller.kubernetes.io/pod-deletion-cost"])
	return c
}

func restarts(p *api.Pod) int32 {
	var n int32
	for _, c := range p.Status.ContainerStatuses {
		n = max(n, c.RestartCount)
	}
	return n
}

// replicaSetsSelecting returns the keys of the cached ReplicaSets in p's
// namespace whose selector matches its labels: who may adopt an orphan.
func replicaSetsSelecting(c *informer.Cache, p *api.Pod) []string {
	var keys []string
	for _, o := range c.List("ReplicaSet") {
		rs := o.(*api.ReplicaSet)
		if rs.Namespace == p.Namespace && rs.DeletionTimestamp == nil && !rs.Spec.Selector.Empty() && rs.Spec.Selector.Matches(p.Labels) {
			keys = append(keys, api.RefOf(rs).Key())
		}
	}
	return keys
}
