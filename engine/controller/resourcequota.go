package controller

import (
	"fmt"
	"maps"
	"sort"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/informer"
	"reconcile/engine/store"
)

// ResourceQuotaController is the component that keeps quota usage.
const ResourceQuotaController = "resourcequota-controller"

// QuotaLoop is the resource quota controller.
//
// Desired: a ResourceQuota's status says what its namespace uses of each
// resource its spec caps (status.used) beside the caps (status.hard).
// Observed: the namespace's pods that are not finished, its
// PersistentVolumeClaims and its Services. Difference: a
// status that says otherwise is rewritten. (Admission refuses a pod over
// the quota whatever the status says: it counts for itself.)
type QuotaLoop struct{}

// NewResourceQuota returns the resource quota controller.
func NewResourceQuota() *QuotaLoop { return &QuotaLoop{} }

func (q *QuotaLoop) Name() string { return ResourceQuotaController }
func (q *QuotaLoop) Watches() []string {
	return []string{"ResourceQuota", "Pod", "PersistentVolumeClaim", "Service"}
}
func (q *QuotaLoop) Clone() Reconciler { return &QuotaLoop{} }

// Keys maps a new quota, or one whose spec.hard changed, to itself, and a
// pod that starts or stops counting (created, deleted, finished), a claim
// created, deleted or asking for other storage, or a Service created,
// deleted or counting otherwise (its type, its ports), to every quota of
// its namespace. Its own status writes bring no pass.
func (q *QuotaLoop) Keys(c *informer.Cache, ev store.WatchEvent) []string {
	switch o := ev.Object.(type) {
	case *api.ResourceQuota:
		if old, ok := ev.Old.(*api.ResourceQuota); ok && ev.Type == store.Modified && maps.Equal(old.Spec.Hard, o.Spec.Hard) {
			return nil
		}
		if ev.Type != store.Deleted {
			return []string{api.RefOf(o).Key()}
		}
	case *api.Pod:
		if c.Len("ResourceQuota") == 0 {
			return nil
		}
		if old, ok := ev.Old.(*api.Pod); ok && ev.Type == store.Modified && finished(old) == finished(o) {
			return nil
		}
		return quotasOf(c, o.Namespace)
	case *api.PersistentVolumeClaim:
		if c.Len("ResourceQuota") == 0 {
			return nil
		}
		if old, ok := ev.Old.(*api.PersistentVolumeClaim); ok && ev.Type == store.Modified &&
			maps.Equal(api.ClaimQuotaUsage(old), api.ClaimQuotaUsage(o)) {
			return nil
		}
		return quotasOf(c, o.Namespace)
	case *api.Service:
		if c.Len("ResourceQuota") == 0 {
			return nil
		}
		if old, ok := ev.Old.(*api.Service); ok && ev.Type == store.Modified &&
			maps.Equal(api.ServiceQuotaUsage(old), api.ServiceQuotaUsage(o)) {
			return nil
		}
		return quotasOf(c, o.Namespace)
	}
	return nil
}

// quotasOf is the keys of a namespace's quotas.
func quotasOf(c *informer.Cache, ns string) []string {
	var keys []string
	for _, k := range c.Keys("ResourceQuota") {
		if strings.HasPrefix(k, ns+"/") {
			keys = append(keys, k)
		}
	}
	return keys
}

// Reconcile runs one pass for a quota.
func (q *QuotaLoop) Reconcile(ctx *Context, req Request) (Result, error) {
	rq, _ := ctx.Cache.Get("ResourceQuota", req.Key).(*api.ResourceQuota)
	if rq == nil {
		ctx.Deleted("ResourceQuota deleted")
		return ctx.NothingToDo(), nil
	}
	var pods []*api.Pod
	for _, o := range ctx.Cache.List("Pod") {
		if p := o.(*api.Pod); p.Namespace == rq.Namespace && p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed {
			pods = append(pods, p)
		}
	}
	var claims []*api.PersistentVolumeClaim
	for _, o := range ctx.Cache.List("PersistentVolumeClaim") {
		if c := o.(*api.PersistentVolumeClaim); c.Namespace == rq.Namespace {
			claims = append(claims, c)
		}
	}
	var services []*api.Service
	for _, o := range ctx.Cache.List("Service") {
		if s := o.(*api.Service); s.Namespace == rq.Namespace {
			services = append(services, s)
		}
	}
	used := QuotaUsage(rq.Spec.Hard, pods, claims, services)
	ctx.Desired = "status.used = what namespace " + rq.Namespace + " uses"
	ctx.Observed = FormatResources(used)
	if maps.Equal(rq.Status.Used, used) && maps.Equal(rq.Status.Hard, rq.Spec.Hard) {
		ctx.Difference = "status up to date"
		return ctx.NothingToDo(), nil
	}
	ctx.Difference = "status.used was " + FormatResources(rq.Status.Used)
	upd := rq.DeepCopy()
	upd.Status.Hard = maps.Clone(rq.Spec.Hard)
	upd.Status.Used = used
	if _, err := ctx.UpdateStatus(upd, Status("used "+FormatResources(used))); err != nil {
		return Result{}, err
	}
	return Result{Outcome: InSync}, nil
}

// QuotaUsage is what pods, claims and Services use of each resource hard
// names: pods, cpu and memory (requests), requests.*, limits.* of the pods;
// the claims' count and storage (api.ClaimQuotaUsage); the Services' count,
// load balancers and node ports (api.ServiceQuotaUsage); other resources
// count 0.
func QuotaUsage(hard map[string]api.Quantity, pods []*api.Pod, claims []*api.PersistentVolumeClaim, services []*api.Service) map[string]api.Quantity {
	used := make(map[string]api.Quantity, len(hard))
	counted := map[string]int64{}
	for _, c := range claims {
		// A sum: order does not matter.
		for k, v := range api.ClaimQuotaUsage(c) {
			counted[k] += v
		}
	}
	for _, s := range services {
		// A sum: order does not matter.
		for k, v := range api.ServiceQuotaUsage(s) {
			counted[k] += v
		}
	}
	// Each name is computed on its own: order does not matter.
	for name := range hard {
		if v, ok := counted[name]; ok {
			if strings.HasSuffix(name, "requests.storage") {
				used[name] = api.Quantity(api.FormatBytes(v))
			} else {
				used[name] = api.Quantity(fmt.Sprint(v))
			}
			continue
		}
		var total int64
		field, res := "requests", name
		if f, r, ok := strings.Cut(name, "."); ok && (f == "requests" || f == "limits") {
			field, res = f, r
		}
		for _, p := range pods {
			if name == "pods" {
				total++
				continue
			}
			for _, c := range p.Spec.Containers {
				m := c.Resources.Requests
				if field == "limits" {
					m = c.Resources.Limits
				}
				if v, ok := m[res]; ok {
					if res == "cpu" {
						total += v.Milli()
					} else {
						total += v.Value()
					}
				}
			}
		}
		switch {
		case name == "pods":
			used[name] = api.Quantity(fmt.Sprint(total))
		case res == "cpu":
			used[name] = api.Quantity(api.FormatMilliCPU(total))
		case res == "memory" && total > 0:
			used[name] = api.Quantity(api.FormatBytes(total))
		default:
			used[name] = api.Quantity(fmt.Sprint(total))
		}
	}
	return used
}

// FormatResources writes resources as "cpu=500m,pods=3", by name.
func FormatResources(m map[string]api.Quantity) string {
	if len(m) == 0 {
		return "none"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + string(m[k])
	}
	return strings.Join(parts, ",")
}

func finished(p *api.Pod) bool {
	return p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed
}
