package store

import (
	"fmt"
	"sort"
	"strings"

	"reconcile/engine/api"
)

// admit is the API server's admission chain after validation: validating
// webhooks, then ResourceQuota. (The default tolerations of the
// DefaultTolerationSeconds plugin come with defaulting: kinds.Default.)
// name is the object's name as admission sees it: for an object named
// by its generateName, the prefix, as admission's refusals name it
// (admission.NewForbidden: "name generation has not occurred yet").
func (s *Store) admit(op string, obj api.Object, name string) error {
	if err := s.limitRanger(op, obj, name); err != nil {
		return err
	}
	if err := s.webhooks(op, obj); err != nil {
		return err
	}
	return s.quota(op, obj, name)
}

// SetWebhookDown makes a validating webhook (or every webhook of a
// configuration, by the configuration's name) stop answering, or answer
// again. A webhook that does not answer times out: with failurePolicy Fail
// (the default) the request is refused, with Ignore it goes through.
func (s *Store) SetWebhookDown(name string, down bool) {
	if !down {
		delete(s.down, name)
		return
	}
	if s.down == nil {
		s.down = map[string]bool{}
	}
	s.down[name] = true
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
func (s *Store) webhooks(op string, obj api.Object) error {
	kind := obj.GetTypeMeta().Kind
	if kind == "ValidatingWebhookConfiguration" || kind == "Event" || kind == "Lease" || kind == "Node" {
		return nil
	}
	k, _ := api.KindOf(kind)
	group, resource := k.Group, k.Resource
	for _, o := range s.List("ValidatingWebhookConfiguration") {
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
			if !s.down[wh.Name] && !s.down[cfg.Name] {
				continue // the webhook answers allowed: true
			}
			if wh.FailurePolicy == "Ignore" {
				continue // fails open
			}
			timeout := api.Deref(wh.TimeoutSeconds, 10)
			url := wh.ClientConfig.URL
			if svc := wh.ClientConfig.Service; svc != nil {
				port := api.Deref(svc.Port, 443)
				url = fmt.Sprintf("https://%s.%s.svc:%d%s", svc.Name, svc.Namespace, port, svc.Path)
			}
			return &StatusError{Reason: "InternalError", Message: fmt.Sprintf(
				"Internal error occurred: failed calling webhook %q: failed to call webhook: Post %q: context deadline exceeded",
				wh.Name, fmt.Sprintf("%s?timeout=%ds", url, timeout))}
		}
	}
	return nil
}

// quota refuses an object that would take its namespace over a
// ResourceQuota: a pod (pods, cpu and memory requests), a
// PersistentVolumeClaim (claims, storage requests) or a Service (services,
// load balancers, node ports), each counted as the quota evaluator of its
// resource counts it.
func (s *Store) quota(op string, obj api.Object, name string) error {
	if op != "CREATE" {
		return nil
	}
	var kind, resource string
	switch obj.(type) {
	case *api.Pod:
		kind, resource = "Pod", "pods"
	case *api.PersistentVolumeClaim:
		kind, resource = "PersistentVolumeClaim", "persistentvolumeclaims"
	case *api.Service:
		kind, resource = "Service", "services"
	default:
		return nil
	}
	ns := obj.Meta().Namespace
	var quotas []*api.ResourceQuota
	for _, o := range s.List("ResourceQuota") {
		if q := o.(*api.ResourceQuota); q.Namespace == ns {
			quotas = append(quotas, q)
		}
	}
	if len(quotas) == 0 {
		return nil
	}
	used := map[string]int64{}
	for _, o := range s.List(kind) {
		if o.Meta().Namespace == ns {
			addUsage(used, o)
		}
	}
	req := map[string]int64{}
	addUsage(req, obj)
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
			if _, ok := req[res]; !ok && kind == "Pod" && (res == "requests.cpu" || res == "requests.memory") {
				missing = append(missing, res)
				continue
			}
			if used[res]+req[res] > quantityOf(res, q.Spec.Hard[k]) {
				exceeded = append(exceeded, k)
			}
		}
		if len(missing) > 0 {
			return &StatusError{Reason: "Forbidden", Message: fmt.Sprintf("%s %q is forbidden: failed quota: %s: must specify %s", resource, name, q.Name, strings.Join(missing, ","))}
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
			return &StatusError{Reason: "Forbidden", Message: fmt.Sprintf(
				"%s %q is forbidden: exceeded quota: %s, requested: %s, used: %s, limited: %s",
				resource, name, q.Name, show(req, false), show(used, false), show(nil, true))}
		}
	}
	return nil
}

// addUsage adds what obj counts against a quota: a pod that has not
// finished counts itself and its containers' cpu and memory requests; a
// claim counts itself (by its storage class too) and the storage it
// requests; a Service, itself, as a load balancer, and its node ports.
func addUsage(m map[string]int64, obj api.Object) {
	switch o := obj.(type) {
	case *api.Pod:
		if o.Status.Phase == api.PodSucceeded || o.Status.Phase == api.PodFailed {
			return
		}
		m["pods"]++
		for _, c := range o.Spec.Containers {
			if v, ok := c.Resources.Requests["cpu"]; ok {
				m["requests.cpu"] += v.Milli()
			}
			if v, ok := c.Resources.Requests["memory"]; ok {
				m["requests.memory"] += v.Value()
			}
		}
	case *api.PersistentVolumeClaim:
		// A sum: order does not matter.
		for k, v := range api.ClaimQuotaUsage(o) {
			m[k] += v
		}
	case *api.Service:
		// A sum: order does not matter.
		for k, v := range api.ServiceQuotaUsage(o) {
			m[k] += v
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
	if strings.HasSuffix(res, "requests.storage") {
		return api.FormatBytes(v)
	}
	return fmt.Sprint(v)
}
