package controller

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/informer"
	"reconcile/engine/store"
)

// DisruptionController is the component that keeps the status of
// PodDisruptionBudgets.
const DisruptionController = "disruption-controller"

// PDBDeletionTimeout is how long the disruption controller trusts the
// Eviction API's word that a pod it let go will be deleted
// (status.disruptedPods): after it, the pod counts again.
const PDBDeletionTimeout = 2 * api.Minute

// RequeueDisruptedPod is the reason a budget is looked at again when an
// entry of its disruptedPods runs out.
const RequeueDisruptedPod = "a disrupted pod's deletion timeout"

// Disruption is the disruption controller (pkg/controller/disruption).
//
// Desired: a PodDisruptionBudget's status says how many of the pods its
// selector matches are healthy (Ready, not being deleted, not just let go
// by the Eviction API), how many must be (minAvailable, or the expected
// pods less maxUnavailable; a percentage is of the scale of the pods'
// controllers), and so how many more may be disrupted. Observed: the pods
// of its namespace its selector matches, and the scale of their
// Deployments, ReplicaSets and StatefulSets. Difference: a status that
// says otherwise is rewritten, with its DisruptionAllowed condition. The
// Eviction API reads that status to let an eviction through or refuse it.
type Disruption struct{}

// NewDisruption returns the disruption controller.
func NewDisruption() *Disruption { return &Disruption{} }

func (d *Disruption) Name() string { return DisruptionController }
func (d *Disruption) Watches() []string {
	return []string{"PodDisruptionBudget", "Pod", "ReplicaSet", "Deployment", "StatefulSet"}
}
func (d *Disruption) Clone() Reconciler { return &Disruption{} }

// Keys maps a budget created, or whose spec or disruptedPods changed (the
// Eviction API writes them), to itself; a pod created, deleted, or whose
// readiness, deletion, labels or owner changed, to the budgets of its
// namespace that select it (before or after). The workloads are read for
// their scale, as the controller's listers read them; they bring no pass.
func (d *Disruption) Keys(c *informer.Cache, ev store.WatchEvent) []string {
	switch o := ev.Object.(type) {
	case *api.PodDisruptionBudget:
		if ev.Type == store.Deleted {
			return nil
		}
		if old, ok := ev.Old.(*api.PodDisruptionBudget); ok && ev.Type == store.Modified &&
			old.Generation == o.Generation && maps.Equal(old.Status.DisruptedPods, o.Status.DisruptedPods) {
			return nil
		}
		return []string{api.RefOf(o).Key()}
	case *api.Pod:
		if c.Len("PodDisruptionBudget") == 0 {
			return nil
		}
		old, _ := ev.Old.(*api.Pod)
		if old != nil && ev.Type == store.Modified && IsPodReady(old) == IsPodReady(o) &&
			(old.DeletionTimestamp == nil) == (o.DeletionTimestamp == nil) && maps.Equal(old.Labels, o.Labels) &&
			controllerUID(old) == controllerUID(o) {
			return nil
		}
		var keys []string
		for _, k := range c.Keys("PodDisruptionBudget") {
			if !strings.HasPrefix(k, o.Namespace+"/") {
				continue
			}
			b, _ := c.Get("PodDisruptionBudget", k).(*api.PodDisruptionBudget)
			if b != nil && (PDBSelects(b, o.Labels) || old != nil && PDBSelects(b, old.Labels)) {
				keys = append(keys, k)
			}
		}
		return keys
	}
	return nil
}

func controllerUID(p *api.Pod) string {
	if r := p.ControllerOf(); r != nil {
		return r.UID
	}
	return ""
}

// PDBSelects reports whether a budget's selector matches labels, as
// policy/v1 reads it: a null selector matches nothing, an empty one
// everything.
func PDBSelects(b *api.PodDisruptionBudget, labels map[string]string) bool {
	return b.Spec.Selector != nil && (b.Spec.Selector.Empty() || b.Spec.Selector.Matches(labels))
}

// PDBPods is the pods of a budget's namespace its selector matches, in
// the order of pods lists, from objs (the pods of a cache or a store).
func PDBPods(b *api.PodDisruptionBudget, objs []api.Object) []*api.Pod {
	var pods []*api.Pod
	for _, o := range objs {
		if p := o.(*api.Pod); p.Namespace == b.Namespace && PDBSelects(b, p.Labels) {
			pods = append(pods, p)
		}
	}
	return pods
}

// Reconcile runs one pass for a budget.
func (d *Disruption) Reconcile(ctx *Context, req Request) (Result, error) {
	pdb, _ := ctx.Cache.Get("PodDisruptionBudget", req.Key).(*api.PodDisruptionBudget)
	if pdb == nil {
		ctx.Deleted("PodDisruptionBudget deleted")
		return ctx.NothingToDo(), nil
	}
	pods := PDBPods(pdb, ctx.Cache.List("Pod"))
	if len(pods) == 0 {
		pdbEvent(ctx, pdb, "Normal", "NoPods", "No matching pods found")
	}
	expected, desired, unmanaged, err := expectedPodCount(ctx.Cache, pdb, pods)
	if err != nil {
		pdbEvent(ctx, pdb, "Warning", "CalculateExpectedPodCountFailed", "Failed to calculate the number of expected pods: %v", err)
		return d.failSafe(ctx, pdb, err)
	}
	if len(unmanaged) > 0 {
		pdbEvent(ctx, pdb, "Warning", "UnmanagedPods", "Pods selected by this PodDisruptionBudget (selector: %s) were found "+
			"to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. "+
			"To account for these pods please set \".spec.minAvailable\" field of the PDB to an integer value.", selectorText(pdb.Spec.Selector))
	}
	disrupted, recheck := disruptedPodMap(ctx, pods, pdb)
	healthy := countHealthyPods(pods, disrupted, ctx.Now)
	allowed := healthy - desired
	if expected <= 0 || allowed <= 0 {
		allowed = 0
	}
	ctx.Desired = fmt.Sprintf("status of budget %s = what its %d pods say", pdb.Name, len(pods))
	ctx.Observed = fmt.Sprintf("%d healthy, %d desired, %d expected: %d disruptions allowed", healthy, desired, expected, allowed)
	result := Result{Outcome: InSync}
	if recheck > 0 {
		result.RequeueAfter, result.RequeueReason = recheck, RequeueDisruptedPod
	}
	st := pdb.Status
	if st.CurrentHealthy == healthy && st.DesiredHealthy == desired && st.ExpectedPods == expected &&
		st.DisruptionsAllowed == allowed && maps.Equal(st.DisruptedPods, disrupted) &&
		st.ObservedGeneration == pdb.Generation && pdbConditionsUpToDate(pdb) {
		ctx.Difference = "status up to date"
		if recheck > 0 {
			return result, nil
		}
		return ctx.NothingToDo(), nil
	}
	ctx.Difference = fmt.Sprintf("status said %d healthy, %d desired, %d expected: %d disruptions allowed",
		st.CurrentHealthy, st.DesiredHealthy, st.ExpectedPods, st.DisruptionsAllowed)
	upd := pdb.DeepCopy()
	upd.Status = api.PodDisruptionBudgetStatus{CurrentHealthy: healthy, DesiredHealthy: desired, ExpectedPods: expected,
		DisruptionsAllowed: allowed, DisruptedPods: disrupted, ObservedGeneration: pdb.Generation, Conditions: upd.Status.Conditions}
	UpdateDisruptionAllowedCondition(upd, ctx.Now)
	if _, err := ctx.UpdateStatus(upd, Status(fmt.Sprintf("disruptionsAllowed %d (%d healthy, %d desired)", allowed, healthy, desired))); err != nil {
		return Result{}, err
	}
	return result, nil
}

// failSafe is what the controller writes when it cannot compute a
// budget's status: no disruption allowed, DisruptionAllowed False with
// reason SyncFailed and the error. A write that goes through ends the
// sync without error, so nothing retries it: a pod's or the budget's next
// change brings the next pass.
func (d *Disruption) failSafe(ctx *Context, pdb *api.PodDisruptionBudget, cause error) (Result, error) {
	ctx.Desired = "status of budget " + pdb.Name
	ctx.Observed = cause.Error()
	ctx.Difference = "cannot compute it: no disruption allowed"
	upd := pdb.DeepCopy()
	upd.Status.DisruptionsAllowed = 0
	api.SetCondition(&upd.Status.Conditions, api.Condition{Type: api.DisruptionAllowedCondition, Status: "False",
		Reason: api.SyncFailedReason, Message: cause.Error(), ObservedGeneration: upd.Status.ObservedGeneration}, ctx.Now)
	if _, err := ctx.UpdateStatus(upd, Status("disruptionsAllowed 0 (SyncFailed)")); err != nil {
		return Result{}, err
	}
	return Result{Outcome: InSync}, nil
}

// UpdateDisruptionAllowedCondition sets a budget's DisruptionAllowed
// condition from its disruptionsAllowed, as component-helpers' does: True
// (SufficientPods) when some disruption is allowed, False
// (InsufficientPods) otherwise.
func UpdateDisruptionAllowedCondition(b *api.PodDisruptionBudget, now api.Time) {
	c := api.Condition{Type: api.DisruptionAllowedCondition, Status: "False", Reason: api.InsufficientPodsReason, ObservedGeneration: b.Status.ObservedGeneration}
	if b.Status.DisruptionsAllowed > 0 {
		c.Status, c.Reason = "True", api.SufficientPodsReason
	}
	if b.Status.Conditions == nil {
		b.Status.Conditions = []api.Condition{}
	}
	api.SetCondition(&b.Status.Conditions, c, now)
}

func pdbConditionsUpToDate(b *api.PodDisruptionBudget) bool {
	c := api.FindCondition(b.Status.Conditions, api.DisruptionAllowedCondition)
	if c == nil || b.Status.ObservedGeneration != b.Generation {
		return false
	}
	if b.Status.DisruptionsAllowed > 0 {
		return c.Status == "True" && c.Reason == api.SufficientPodsReason
	}
	return c.Status == "False" && c.Reason == api.InsufficientPodsReason
}

// expectedPodCount is the pods a budget expects and how many of them must
// be healthy: for maxUnavailable, or a percentage minAvailable, the sum of
// the scale of the pods' controllers (a percentage rounded up); for an
// integer minAvailable, the pods matched. Pods with no controller are
// returned as unmanaged.
func expectedPodCount(c *informer.Cache, b *api.PodDisruptionBudget, pods []*api.Pod) (expected, desired int32, unmanaged []string, err error) {
	switch {
	case b.Spec.MaxUnavailable != nil:
		if expected, unmanaged, err = expectedScale(c, pods); err != nil {
			return
		}
		var maxUnavailable int32
		if maxUnavailable, err = b.Spec.MaxUnavailable.Scaled(expected, true); err != nil {
			return
		}
		desired = max(expected-maxUnavailable, 0)
	case b.Spec.MinAvailable != nil && !b.Spec.MinAvailable.IsString:
		desired, expected = b.Spec.MinAvailable.Int, int32(len(pods))
	case b.Spec.MinAvailable != nil:
		if expected, unmanaged, err = expectedScale(c, pods); err != nil {
			return
		}
		desired, err = b.Spec.MinAvailable.Scaled(expected, true)
	}
	return
}

// expectedScale sums the scale of the controllers of pods, each counted
// once: a ReplicaSet's Deployment when a Deployment owns it, the
// ReplicaSet otherwise, a StatefulSet. A controller of another kind has
// no scale subresource here: an error, as the scale client's NotFound is.
func expectedScale(c *informer.Cache, pods []*api.Pod) (expected int32, unmanaged []string, err error) {
	scale := map[string]int32{}
	var order []string
	for _, p := range pods {
		ref := p.ControllerOf()
		if ref == nil {
			unmanaged = append(unmanaged, p.Name)
			continue
		}
		if _, ok := scale[ref.UID]; ok {
			continue
		}
		uid, n, found, ferr := controllerScale(c, p.Namespace, ref)
		if ferr != nil {
			return 0, nil, ferr
		}
		if !found {
			return 0, nil, fmt.Errorf("found no controllers for pod %q", p.Name)
		}
		if _, ok := scale[uid]; !ok {
			order = append(order, uid)
		}
		scale[uid] = n
	}
	for _, uid := range order {
		expected += scale[uid]
	}
	return expected, unmanaged, nil
}

// controllerScale finds the scale of a pod's controller, as the
// controller's finders do in turn.
func controllerScale(c *informer.Cache, ns string, ref *api.OwnerReference) (uid string, n int32, found bool, err error) {
	group, _, _ := strings.Cut(ref.APIVersion, "/")
	if !strings.Contains(ref.APIVersion, "/") {
		group = ""
	}
	switch {
	case ref.Kind == "ReplicaSet" && (group == "apps" || group == "extensions"):
		rs, _ := c.Get("ReplicaSet", ns+"/"+ref.Name).(*api.ReplicaSet)
		if rs == nil || rs.UID != ref.UID {
			return "", 0, false, nil
		}
		if dref := rs.ControllerOf(); dref != nil {
			if dref.Kind != "Deployment" {
				return "", 0, false, nil
			}
			dep, _ := c.Get("Deployment", ns+"/"+dref.Name).(*api.Deployment)
			if dep == nil || dep.UID != dref.UID {
				return "", 0, false, nil
			}
			return dep.UID, deref32(dep.Spec.Replicas), true, nil
		}
		return rs.UID, deref32(rs.Spec.Replicas), true, nil
	case ref.Kind == "StatefulSet" && group == "apps":
		ss, _ := c.Get("StatefulSet", ns+"/"+ref.Name).(*api.StatefulSet)
		if ss == nil || ss.UID != ref.UID {
			return "", 0, false, nil
		}
		return ss.UID, deref32(ss.Spec.Replicas), true, nil
	case ref.Kind == "Deployment" && group == "apps":
		// The scale subresource of a Deployment that owns a pod itself.
		dep, _ := c.Get("Deployment", ns+"/"+ref.Name).(*api.Deployment)
		if dep == nil || dep.UID != ref.UID {
			return "", 0, false, nil
		}
		return dep.UID, deref32(dep.Spec.Replicas), true, nil
	}
	k, _ := api.KindOf(ref.Kind)
	resource := k.Resource
	if k.Group != "" {
		resource += "." + k.Group
	}
	return "", 0, false, fmt.Errorf("%s does not implement the scale subresource", resource)
}

func deref32(p *int32) int32 {
	if p == nil {
		return 1
	}
	return *p
}

// disruptedPodMap keeps of a budget's disruptedPods the pods that still
// exist, are not being deleted and were let go less than
// PDBDeletionTimeout ago; a pod past it gets a NotDeleted event. recheck
// is how long until the first kept entry runs out (0: none).
func disruptedPodMap(ctx *Context, pods []*api.Pod, b *api.PodDisruptionBudget) (map[string]api.Time, api.Duration) {
	result := map[string]api.Time{}
	if b.Status.DisruptedPods == nil {
		return result, 0
	}
	var recheck api.Duration
	for _, p := range pods {
		if p.DeletionTimestamp != nil {
			continue
		}
		t, ok := b.Status.DisruptedPods[p.Name]
		if !ok {
			continue
		}
		expires := t + api.Time(PDBDeletionTimeout)
		if expires < ctx.Now {
			// The controller's own message names the namespace twice.
			pdbEvent(ctx, p, "Warning", "NotDeleted", "Pod was expected by PDB %s/%s to be deleted but it wasn't", b.Namespace, b.Namespace)
			continue
		}
		if d := api.Duration(expires - ctx.Now); recheck == 0 || d < recheck {
			recheck = d
		}
		result[p.Name] = t
	}
	return result, recheck
}

// countHealthyPods counts the pods that are Ready, not being deleted and
// not let go by the Eviction API within PDBDeletionTimeout.
func countHealthyPods(pods []*api.Pod, disrupted map[string]api.Time, now api.Time) int32 {
	var n int32
	for _, p := range pods {
		if p.DeletionTimestamp != nil {
			continue
		}
		if t, ok := disrupted[p.Name]; ok && t+api.Time(PDBDeletionTimeout) > now {
			continue
		}
		if IsPodReady(p) {
			n++
		}
	}
	return n
}

// selectorText is a selector as the controller's %v of a
// *metav1.LabelSelector prints it (its generated String):
// &LabelSelector{MatchLabels:map[string]string{app: web,},MatchExpressions:[]LabelSelectorRequirement{},}.
func selectorText(s *api.LabelSelector) string {
	if s == nil {
		return "nil"
	}
	labels := "map[string]string{"
	for _, k := range slices.Sorted(maps.Keys(s.MatchLabels)) {
		labels += fmt.Sprintf("%v: %v,", k, s.MatchLabels[k])
	}
	labels += "}"
	exprs := "[]LabelSelectorRequirement{"
	for _, r := range s.MatchExpressions {
		exprs += fmt.Sprintf("LabelSelectorRequirement{Key:%v,Operator:%v,Values:%v,},", r.Key, r.Operator, r.Values)
	}
	exprs += "}"
	return "&LabelSelector{MatchLabels:" + labels + ",MatchExpressions:" + exprs + ",}"
}

// pdbEvent records an event as the disruption controller's recorder does:
// its source component is "controllermanager", not the controller's name.
func pdbEvent(ctx *Context, obj api.Object, typ, reason, format string, args ...any) {
	ctx.API.Record("controllermanager", ctx.Host, obj, typ, reason, fmt.Sprintf(format, args...))
}
