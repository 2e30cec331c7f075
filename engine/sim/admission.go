package sim

import (
	"fmt"
	"sort"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/store"
)

// admit is the API server's admission chain for this world: default
// tolerations, validating webhooks, then ResourceQuota.
func (w *world) admit(op string, obj api.Object) error {
	if err := defaultTolerations(op, obj); err != nil {
		return err
	}
	if err := w.webhooks(op, obj); err != nil {
		return err
	}
	if err := w.quota(op, obj); err != nil {
		return err
	}
	if w.extraAdmit != nil {
		return w.extraAdmit(op, obj)
	}
	return nil
}

// resourceOf names the API group and resource of a kind, as webhook rules
// match them.
func resourceOf(kind string) (group, resource string) {
	switch kind {
	case "Deployment", "ReplicaSet":
		return "apps", strings.ToLower(kind) + "s"
	case "Job":
		return "batch", "jobs"
	case "Lease":
		return "coordination.k8s.io", "leases"
	case "ValidatingWebhookConfiguration":
		return "admissionregistration.k8s.io", "validatingwebhookconfigurations"
	}
	return "", strings.ToLower(kind) + "s"
}

func matchAny(list []string, v string) bool {
	for _, x := range list {
		if x == "*" || x == v {
			return true
		}
	}
	return false
}

// webhooks calls every validating webhook whose rules match the request.
// A webhook that is down times out; failurePolicy Fail (the default)
// refuses the request, Ignore lets it through.
func (w *world) webhooks(op string, obj api.Object) error {
	kind := obj.GetTypeMeta().Kind
	if kind == "ValidatingWebhookConfiguration" || kind == "Event" || kind == "Lease" || kind == "Node" {
		return nil
	}
	group, resource := resourceOf(kind)
	for _, o := range w.store.List("ValidatingWebhookConfiguration") {
		cfg := o.(*api.ValidatingWebhookConfiguration)
		for _, wh := range cfg.Webhooks {
			matched := false
			for _, r := range wh.Rules {
				if matchAny(r.Operations, op) && matchAny(r.APIGroups, group) && matchAny(r.Resources, resource) {
					matched = true
				}
			}
			if !matched || wh.ObjectSelector != nil && !wh.ObjectSelector.Empty() && !wh.ObjectSelector.Matches(obj.Meta().Labels) {
				continue
			}
			if !w.webhookDown[wh.Name] && !w.webhookDown[cfg.Name] {
				continue // the webhook answers allowed: true
			}
			if wh.FailurePolicy == "Ignore" {
				continue // fails open
			}
			timeout := api.Deref(wh.TimeoutSeconds, 10)
			url := wh.ClientConfig.URL
			if s := wh.ClientConfig.Service; s != nil {
				port := api.Deref(s.Port, 443)
				url = fmt.Sprintf("https://%s.%s.svc:%d%s", s.Name, s.Namespace, port, s.Path)
			}
			return &store.StatusError{Reason: "InternalError", Message: fmt.Sprintf(
				"Internal error occurred: failed calling webhook %q: failed to call webhook: Post %q: context deadline exceeded",
				wh.Name, fmt.Sprintf("%s?timeout=%ds", url, timeout))}
		}
	}
	return nil
}

// quota refuses a pod that would take its namespace over a ResourceQuota.
func (w *world) quota(op string, obj api.Object) error {
	p, ok := obj.(*api.Pod)
	if !ok || op != "CREATE" {
		return nil
	}
	var quotas []*api.ResourceQuota
	for _, o := range w.store.List("ResourceQuota") {
		if q := o.(*api.ResourceQuota); q.Namespace == p.Namespace {
			quotas = append(quotas, q)
		}
	}
	if len(quotas) == 0 {
		return nil
	}
	used := map[string]int64{}
	for _, o := range w.store.List("Pod") {
		op := o.(*api.Pod)
		if op.Namespace != p.Namespace || op.Status.Phase == api.PodSucceeded || op.Status.Phase == api.PodFailed {
			continue
		}
		addUsage(used, op)
	}
	req := map[string]int64{}
	addUsage(req, p)
	for _, q := range quotas {
		var names []string
		for k := range q.Spec.Hard {
			names = append(names, k)
		}
		sort.Strings(names)
		var exceeded, missing []string
		for _, k := range names {
			res := k
			if k == "cpu" || k == "memory" {
				res = "requests." + k
			}
			if _, ok := req[res]; !ok && res != "pods" && strings.HasPrefix(res, "requests.") {
				missing = append(missing, res)
				continue
			}
			if used[res]+req[res] > quantityOf(res, q.Spec.Hard[k]) {
				exceeded = append(exceeded, k)
			}
		}
		if len(missing) > 0 {
			return &store.StatusError{Reason: "Forbidden", Message: fmt.Sprintf("pods %q is forbidden: failed quota: %s: must specify %s", p.Name, q.Name, strings.Join(missing, ","))}
		}
		if len(exceeded) > 0 {
			show := func(m map[string]int64, hard bool) string {
				var parts []string
				for _, k := range exceeded {
					res := k
					if k == "cpu" || k == "memory" {
						res = "requests." + k
					}
					v := m[res]
					if hard {
						v = quantityOf(res, q.Spec.Hard[k])
					}
					parts = append(parts, k+"="+formatQuantity(res, v))
				}
				return strings.Join(parts, ",")
			}
			return &store.StatusError{Reason: "Forbidden", Message: fmt.Sprintf(
				"pods %q is forbidden: exceeded quota: %s, requested: %s, used: %s, limited: %s",
				p.Name, q.Name, show(req, false), show(used, false), show(nil, true))}
		}
	}
	return nil
}

func addUsage(m map[string]int64, p *api.Pod) {
	m["pods"]++
	for _, c := range p.Spec.Containers {
		if v, ok := c.Resources.Requests["cpu"]; ok {
			m["requests.cpu"] += v.Milli()
		}
		if v, ok := c.Resources.Requests["memory"]; ok {
			m["requests.memory"] += v.Value()
		}
	}
}

func quantityOf(res string, q api.Quantity) int64 {
	if res == "requests.cpu" {
		return q.Milli()
	}
	return q.Value()
}

func formatQuantity(res string, v int64) string {
	switch res {
	case "requests.cpu":
		return api.FormatMilliCPU(v)
	case "requests.memory":
		return api.FormatBytes(v)
	}
	return fmt.Sprint(v)
}
