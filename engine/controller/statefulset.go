package controller

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/informer"
	"reconcile/engine/store"
)

// StatefulSetLoop is the statefulset controller.
//
// Desired: spec.replicas pods named <set>-0 … <set>-(N-1), each with its
// own claim per volumeClaimTemplate (<template>-<pod>), all of the current
// template. Observed: the set's pods by ordinal. Difference: with
// OrderedReady, create the lowest missing ordinal once every lower one is
// Running and Ready, delete the highest ordinal beyond N once every lower
// one is healthy, and replace one old-template pod at a time from the
// highest ordinal down to the partition; with Parallel, create and delete
// without waiting. A deleted pod comes back with the same name and the
// same claims; claims are kept when the set scales down (the default
// retention policy, Retain). Each template is recorded as a
// ControllerRevision, whose name the pods and the status carry, and a pod
// below the partition comes back with the current revision's template.
type StatefulSetLoop struct {
	// orphans are the cached pods no controller owns (claim.go): a set
	// adopts those its selector matches that bear its name
	// (<set>-<ordinal>), as a set recreated after an orphaning delete does.
	orphans orphanSet
}

// StatefulSetController is the component's name.
const StatefulSetController = "statefulset-controller"

// NewStatefulSet returns the statefulset controller.
func NewStatefulSet() *StatefulSetLoop { return &StatefulSetLoop{orphans: orphanSet{}} }

func (s *StatefulSetLoop) Name() string { return StatefulSetController }
func (s *StatefulSetLoop) Watches() []string {
	return []string{"StatefulSet", "Pod", "PersistentVolumeClaim", "ControllerRevision"}
}
func (s *StatefulSetLoop) Clone() Reconciler { return &StatefulSetLoop{orphans: maps.Clone(s.orphans)} }

// Restarted forgets the orphans; a restart lists every pod again.
func (s *StatefulSetLoop) Restarted() { s.orphans = orphanSet{} }

// Keys maps a StatefulSet to itself and a pod to the set that owns it.
func (s *StatefulSetLoop) Keys(c *informer.Cache, ev store.WatchEvent) []string {
	switch o := ev.Object.(type) {
	case *api.StatefulSet:
		return []string{api.RefOf(o).Key()}
	case *api.Pod:
		s.orphans.note(o, ev.Type == store.Deleted)
		var keys []string
		if prev := previousController(c, o, "StatefulSet"); prev != "" {
			keys = append(keys, prev) // released: its old set hears of it
		}
		ref := o.ControllerOf()
		if ref == nil && ev.Type != store.Deleted && o.DeletionTimestamp == nil {
			// An orphan: the sets that may adopt it.
			for _, so := range c.List("StatefulSet") {
				set := so.(*api.StatefulSet)
				if set.Namespace == o.Namespace && set.DeletionTimestamp == nil && !set.Spec.Selector.Empty() && set.Spec.Selector.Matches(o.Labels) {
					keys = append(keys, api.RefOf(set).Key())
				}
			}
		}
		if ref != nil && ref.Kind == "StatefulSet" {
			keys = append(keys, o.Namespace+"/"+ref.Name)
		}
		return keys
	}
	return nil
}

// StatefulSetRevision names the revision of a set's template, as its
// ControllerRevision is named: <set>-<hash>.
func StatefulSetRevision(set *api.StatefulSet) string {
	return set.Name + "-" + templateHash(&set.Spec.Template, set.Status.CollisionCount)
}

// podOrdinal returns the ordinal of a pod named <set>-<n>, or -1.
func podOrdinal(set, pod string) int {
	rest, ok := strings.CutPrefix(pod, set+"-")
	if !ok {
		return -1
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n < 0 || strconv.Itoa(n) != rest {
		return -1
	}
	return n
}

func runningAndReady(p *api.Pod) bool {
	return p.Status.Phase == api.PodRunning && IsPodReady(p) && p.DeletionTimestamp == nil
}

// Reconcile runs one pass for a StatefulSet.
func (s *StatefulSetLoop) Reconcile(ctx *Context, req Request) (Result, error) {
	set, _ := ctx.Cache.Get("StatefulSet", req.Key).(*api.StatefulSet)
	if set == nil {
		ctx.Deleted("StatefulSet deleted")
		return ctx.NothingToDo(), nil
	}
	replicas := int(api.Deref(set.Spec.Replicas, 1))
	start := 0
	if set.Spec.Ordinals != nil {
		start = int(set.Spec.Ordinals.Start)
	}
	update := StatefulSetRevision(set)
	current := set.Status.CurrentRevision
	if current == "" {
		current = update
	}
	var revs []*api.ControllerRevision
	var currentRev *api.ControllerRevision
	before := len(ctx.Actions)
	if set.DeletionTimestamp == nil {
		cur, upd, listed, err := statefulSetHistory(ctx, set)
		if err != nil {
			return Result{}, err
		}
		current, update, revs, currentRev = cur.Name, upd.Name, listed, cur
	}
	wroteHistory := len(ctx.Actions) > before
	var owned []*api.Pod
	for _, o := range ctx.Cache.Owned("Pod", set.UID) {
		owned = append(owned, o.(*api.Pod))
	}
	// Adopt the orphans of its name its selector matches, release the
	// pods it no longer matches (getPodsForStatefulSet).
	var orphans []string
	claimedAny := false
	for _, k := range s.orphans.in(set.Namespace) {
		if _, name, _ := strings.Cut(k, "/"); podOrdinal(set.Name, name) >= 0 {
			orphans = append(orphans, k)
		}
	}
	if len(orphans) > 0 || slices.ContainsFunc(owned, func(p *api.Pod) bool { return !set.Spec.Selector.Matches(p.Labels) }) {
		ref := api.OwnerReference{APIVersion: "apps/v1", Kind: "StatefulSet", Name: set.Name, UID: set.UID, Controller: true, BlockOwnerDeletion: true}
		claim, err := claimPods(ctx, set, set.Spec.Selector, ref, orphans, owned)
		if err != nil {
			return Result{}, err
		}
		owned = claim.apply(owned)
		claimedAny = claim.changed()
	}
	pods := make([]*api.Pod, replicas) // by ordinal - start
	var condemned []*api.Pod
	for _, p := range owned {
		n := podOrdinal(set.Name, p.Name)
		if n >= start && n < start+replicas {
			pods[n-start] = p
		} else {
			condemned = append(condemned, p)
		}
	}
	sort.Slice(condemned, func(i, j int) bool {
		return podOrdinal(set.Name, condemned[i].Name) > podOrdinal(set.Name, condemned[j].Name)
	})
	have := 0
	for _, p := range pods {
		if p != nil {
			have++
		}
	}
	ctx.Desired = fmt.Sprintf("%d pods %s-%d…%s-%d of revision %s", replicas, set.Name, start, set.Name, start+replicas-1, update)
	if replicas == 0 {
		ctx.Desired = "0 pods"
	}
	ctx.Observed = fmt.Sprintf("%d of them, %d beyond", have, len(condemned))
	ordered := set.Spec.PodManagementPolicy != api.ParallelPodManagement
	acted, wait, err := s.manage(ctx, set, pods, condemned, start, update, currentRev, ordered)
	if err != nil {
		return Result{}, err
	}
	if !acted && wait == "" && set.DeletionTimestamp == nil {
		acted, wait, err = s.rollingUpdate(ctx, set, pods, start, update)
		if err != nil {
			return Result{}, err
		}
	}
	switch {
	case acted || claimedAny || wroteHistory:
		ctx.Difference = strings.Join(ActionWords(ctx.Actions), ", ")
	case wait != "":
		ctx.Difference, ctx.DifferenceFact = wait, Fact{Is: WaitingFor}
	}
	if err := s.writeStatus(ctx, set, pods, update, current); err != nil {
		return Result{}, err
	}
	if set.DeletionTimestamp == nil {
		n := len(ctx.Actions)
		if err := truncateStatefulSetHistory(ctx, set, revs, current, update); err != nil {
			return Result{}, err
		}
		wroteHistory = wroteHistory || len(ctx.Actions) > n
	}
	res := ctx.NothingToDo()
	if acted || wroteHistory || claimedAny {
		res = Result{Outcome: Acted}
	}
	// Availability after minReadySeconds needs a later look.
	if minReady := api.Duration(set.Spec.MinReadySeconds) * api.Second; minReady > 0 {
		for _, p := range pods {
			if p != nil && IsPodReady(p) && !IsPodAvailable(p, minReady, ctx.Now) {
				res.RequeueAfter, res.RequeueReason = PodCondition(p, "Ready").LastTransitionTime+minReady-ctx.Now, RequeueMinReady
				break
			}
		}
	}
	return res, nil
}

// manage creates missing pods (and their claims) and deletes failed and
// condemned ones. It returns whether it wrote anything, and what it waits
// for when OrderedReady holds it back.
func (s *StatefulSetLoop) manage(ctx *Context, set *api.StatefulSet, pods, condemned []*api.Pod, start int, update string, current *api.ControllerRevision, ordered bool) (bool, string, error) {
	if set.DeletionTimestamp != nil {
		return false, "", nil
	}
	acted := false
	for i, p := range pods {
		name := fmt.Sprintf("%s-%d", set.Name, start+i)
		switch {
		case p == nil:
			if err := s.createPod(ctx, set, name, start+i, update, current); err != nil {
				return acted, "", err
			}
			acted = true
			if ordered {
				return true, "", nil
			}
			continue
		case p.Status.Phase == api.PodFailed && p.DeletionTimestamp == nil:
			if err := s.deletePod(ctx, set, p); err != nil {
				return acted, "", err
			}
			acted = true
			if ordered {
				return true, "", nil
			}
			continue
		}
		if ordered && !runningAndReady(p) {
			if acted {
				return true, "", nil
			}
			return false, fmt.Sprintf("waiting for %s to be Running and Ready", p.Name), nil
		}
		if minReady := api.Duration(set.Spec.MinReadySeconds) * api.Second; ordered && !IsPodAvailable(p, minReady, ctx.Now) {
			if acted {
				return true, "", nil
			}
			return false, fmt.Sprintf("waiting for %s to be available (minReadySeconds %d)", p.Name, set.Spec.MinReadySeconds), nil
		}
	}
	for _, p := range condemned {
		if p.DeletionTimestamp != nil {
			if ordered {
				return acted, fmt.Sprintf("waiting for %s to terminate", p.Name), nil
			}
			continue
		}
		if err := s.deletePod(ctx, set, p); err != nil {
			return acted, "", err
		}
		acted = true
		if ordered {
			return true, "", nil
		}
	}
	return acted, "", nil
}

// rollingUpdate replaces the highest-ordinal pod (at or above the
// partition) that is not of the update revision, one at a time, once every
// pod is Running and Ready.
func (s *StatefulSetLoop) rollingUpdate(ctx *Context, set *api.StatefulSet, pods []*api.Pod, start int, update string) (bool, string, error) {
	if set.Spec.UpdateStrategy.Type != api.RollingUpdateStrategy {
		return false, "", nil
	}
	partition := 0
	if ru := set.Spec.UpdateStrategy.RollingUpdate; ru != nil && ru.Partition != nil {
		partition = int(*ru.Partition)
	}
	for i := len(pods) - 1; i >= 0; i-- {
		p := pods[i]
		if start+i < partition || p == nil || p.Labels[api.ControllerRevisionHashLabel] == update {
			continue
		}
		for _, q := range pods {
			if q != nil && !runningAndReady(q) {
				return false, fmt.Sprintf("waiting for %s to be Running and Ready before updating %s", q.Name, p.Name), nil
			}
		}
		if err := s.deletePod(ctx, set, p); err != nil {
			return false, "", err
		}
		return true, "", nil
	}
	return false, "", nil
}

func (s *StatefulSetLoop) createPod(ctx *Context, set *api.StatefulSet, name string, ordinal int, update string, current *api.ControllerRevision) error {
	for _, t := range set.Spec.VolumeClaimTemplates {
		claim := claimFor(set, &t, name)
		if ctx.Cache.Get("PersistentVolumeClaim", set.Namespace+"/"+claim.Name) != nil {
			continue
		}
		_, err := ctx.Create(claim, func(o api.Object) Action { return On(Create, "claim", o.Meta().Name, "") })
		switch {
		case err == ErrCrashed:
			return err
		case errors.Is(err, store.ErrExists):
		case err != nil:
			ctx.Event(set, "Warning", "FailedCreate", "create Claim %s for Pod %s in StatefulSet %s failed error: %v", claim.Name, name, set.Name, err)
			return err
		default:
			ctx.Event(set, "Normal", "SuccessfulCreate", "create Claim %s Pod %s in StatefulSet %s success", claim.Name, name, set.Name)
		}
	}
	podSet, revision := versionedSet(set, current, update, ordinal)
	_, err := ctx.Create(statefulPod(podSet, name, ordinal, revision), func(o api.Object) Action { return OnPod(Create, o.Meta().Name, "") })
	switch {
	case err == ErrCrashed:
		return err
	case errors.Is(err, store.ErrExists):
		return nil // made by an earlier pass the cache has not shown yet
	case err != nil:
		ctx.Event(set, "Warning", "FailedCreate", "create Pod %s in StatefulSet %s failed error: %v", name, set.Name, err)
		return err
	}
	ctx.Event(set, "Normal", "SuccessfulCreate", "create Pod %s in StatefulSet %s successful", name, set.Name)
	return nil
}

func (s *StatefulSetLoop) deletePod(ctx *Context, set *api.StatefulSet, p *api.Pod) error {
	err := ctx.Delete("Pod", p.Namespace, p.Name, false, OnPod(Delete, p.Name, ""))
	if err == ErrCrashed {
		return err
	}
	if err != nil {
		ctx.Event(set, "Warning", "FailedDelete", "delete Pod %s in StatefulSet %s failed error: %v", p.Name, set.Name, err)
		return err
	}
	ctx.Event(set, "Normal", "SuccessfulDelete", "delete Pod %s in StatefulSet %s successful", p.Name, set.Name)
	return nil
}

// claimFor is the claim a set's pod gets from a volumeClaimTemplate:
// <template>-<pod>, labelled with the set's selector, owned by nobody (the
// retention policy Retain keeps it when the pod or the set goes).
func claimFor(set *api.StatefulSet, t *api.PersistentVolumeClaim, pod string) *api.PersistentVolumeClaim {
	c := t.DeepCopy()
	labels := map[string]string{}
	for k, v := range c.Labels {
		labels[k] = v
	}
	if set.Spec.Selector != nil {
		for k, v := range set.Spec.Selector.MatchLabels {
			labels[k] = v
		}
	}
	return &api.PersistentVolumeClaim{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "PersistentVolumeClaim"},
		ObjectMeta: api.ObjectMeta{Name: c.Name + "-" + pod, Namespace: set.Namespace, Labels: labels, Annotations: c.Annotations},
		Spec:       c.Spec,
	}
}

// statefulPod makes the set's pod of an ordinal: its stable name, the
// revision and identity labels, and its claims mounted as volumes.
func statefulPod(set *api.StatefulSet, name string, ordinal int, update string) *api.Pod {
	t := set.Spec.Template.DeepCopy()
	labels := map[string]string{}
	for k, v := range t.Labels {
		labels[k] = v
	}
	labels[api.ControllerRevisionHashLabel] = update
	labels[api.StatefulSetPodNameLabel] = name
	labels[api.PodIndexLabel] = strconv.Itoa(ordinal)
	spec := t.Spec
	for _, ct := range set.Spec.VolumeClaimTemplates {
		v := api.Volume{Name: ct.Name, PersistentVolumeClaim: &api.PersistentVolumeClaimReference{ClaimName: ct.Name + "-" + name}}
		replaced := false
		for i := range spec.More().Volumes {
			if spec.More().Volumes[i].Name == ct.Name {
				spec.More().Volumes[i], replaced = v, true
			}
		}
		if !replaced {
			spec.SetMore().Volumes = append(spec.More().Volumes, v)
		}
	}
	return &api.Pod{
		TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: set.Namespace, Labels: labels, Annotations: t.Annotations,
			OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "StatefulSet", Name: set.Name, UID: set.UID, Controller: true, BlockOwnerDeletion: true}}},
		Spec:   spec,
		Status: api.PodStatus{Phase: api.PodPending},
	}
}

// writeStatus counts the set's pods: replicas (created, not terminating),
// ready, available, of the current and of the update revision. When every
// replica is of the update revision, it becomes the current one.
func (s *StatefulSetLoop) writeStatus(ctx *Context, set *api.StatefulSet, pods []*api.Pod, update, current string) error {
	st := api.StatefulSetStatus{ObservedGeneration: set.Generation, UpdateRevision: update, CollisionCount: set.Status.CollisionCount}
	minReady := api.Duration(set.Spec.MinReadySeconds) * api.Second
	for _, p := range pods {
		if p == nil || p.DeletionTimestamp != nil {
			continue
		}
		st.Replicas++
		if IsPodReady(p) {
			st.ReadyReplicas++
			if IsPodAvailable(p, minReady, ctx.Now) {
				st.AvailableReplicas++
			}
		}
		switch p.Labels[api.ControllerRevisionHashLabel] {
		case update:
			st.UpdatedReplicas++
			if update == current {
				st.CurrentReplicas++
			}
		case current:
			st.CurrentReplicas++
		}
	}
	st.CurrentRevision = current
	replicas := api.Deref(set.Spec.Replicas, 1)
	if st.UpdatedReplicas == replicas && st.ReadyReplicas == replicas && st.Replicas == replicas {
		st.CurrentRevision, st.CurrentReplicas = update, st.UpdatedReplicas
	}
	if statefulStatusEqual(set.Status, st) {
		return nil
	}
	n := set.DeepCopy()
	n.Status = st
	_, err := ctx.UpdateStatus(n, Status(fmt.Sprintf("replicas %d, ready %d, updated %d", st.Replicas, st.ReadyReplicas, st.UpdatedReplicas)))
	return err
}

func statefulStatusEqual(a, b api.StatefulSetStatus) bool {
	a.CollisionCount, b.CollisionCount = nil, nil
	return a == b
}
