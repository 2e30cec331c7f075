package store

import (
	"fmt"
	"sort"
	"strings"

	"reconcile/engine/api"
)

// limitRangerAnnotation is the annotation the LimitRanger plugin leaves on
// a pod whose resources it filled in.
const limitRangerAnnotation = "kubernetes.io/limit-ranger"

// limitRanger is the LimitRanger admission plugin, for pods being
// created: every LimitRange of the pod's namespace first fills in the
// container requests and limits the pod leaves out (the defaults), then
// checks min, max and maxLimitRequestRatio, per container and per pod.
func (s *Store) limitRanger(op string, obj api.Object, name string) error {
	p, ok := obj.(*api.Pod)
	if !ok || op != "CREATE" {
		return nil
	}
	var ranges []*api.LimitRange
	for _, o := range s.List("LimitRange") {
		if lr := o.(*api.LimitRange); lr.Namespace == p.Namespace {
			ranges = append(ranges, lr)
		}
	}
	if len(ranges) == 0 {
		return nil
	}
	var set []string
	for _, lr := range ranges {
		for _, it := range lr.Spec.Limits {
			if it.Type != "Container" {
				continue
			}
			for i := range p.Spec.Containers {
				set = append(set, fillContainer(&p.Spec.Containers[i], it)...)
			}
		}
	}
	if len(set) > 0 {
		if p.Annotations == nil {
			p.Annotations = map[string]string{}
		}
		p.Annotations[limitRangerAnnotation] = "LimitRanger plugin set: " + strings.Join(set, "; ")
	}
	var errs []string
	for _, lr := range ranges {
		for _, it := range lr.Spec.Limits {
			switch it.Type {
			case "Container":
				for _, c := range p.Spec.Containers {
					errs = append(errs, bounds("Container", it, c.Resources.Requests, c.Resources.Limits)...)
				}
			case "Pod":
				req, lim := podTotals(p)
				errs = append(errs, bounds("Pod", it, req, lim)...)
			}
		}
	}
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return &StatusError{Reason: "Forbidden", Message: fmt.Sprintf("pods %q is forbidden: %s", name, errs[0])}
	}
	return &StatusError{Reason: "Forbidden", Message: fmt.Sprintf("pods %q is forbidden: [%s]", name, strings.Join(errs, ", "))}
}

// fillContainer gives c the item's default limits and requests it does
// not have, and says what it set, as the plugin's annotation does.
func fillContainer(c *api.Container, it api.LimitRangeItem) []string {
	var reqs, lims []string
	for _, k := range sortedKeys(it.Default) {
		if _, ok := c.Resources.Limits[k]; !ok {
			if c.Resources.Limits == nil {
				c.Resources.Limits = map[string]api.Quantity{}
			}
			c.Resources.Limits[k] = it.Default[k]
			lims = append(lims, k)
		}
	}
	for _, k := range sortedKeys(it.DefaultRequest) {
		if _, ok := c.Resources.Requests[k]; !ok {
			if c.Resources.Requests == nil {
				c.Resources.Requests = map[string]api.Quantity{}
			}
			c.Resources.Requests[k] = it.DefaultRequest[k]
			reqs = append(reqs, k)
		}
	}
	var out []string
	if len(reqs) > 0 {
		out = append(out, strings.Join(reqs, ", ")+" request for container "+c.Name)
	}
	if len(lims) > 0 {
		out = append(out, strings.Join(lims, ", ")+" limit for container "+c.Name)
	}
	return out
}

// podTotals sums a pod's container requests and limits; a resource some
// container has no limit for has no pod limit.
func podTotals(p *api.Pod) (req, lim map[string]api.Quantity) {
	reqM, limM := map[string]int64{}, map[string]int64{}
	limCount := map[string]int{}
	for _, c := range p.Spec.Containers {
		for k, v := range c.Resources.Requests {
			reqM[k] += amount(k, v)
		}
		for k, v := range c.Resources.Limits {
			limM[k] += amount(k, v)
			limCount[k]++
		}
	}
	req, lim = map[string]api.Quantity{}, map[string]api.Quantity{}
	for k, v := range reqM {
		req[k] = api.Quantity(formatAmount(k, v))
	}
	for k, v := range limM {
		if limCount[k] == len(p.Spec.Containers) {
			lim[k] = api.Quantity(formatAmount(k, v))
		}
	}
	return req, lim
}

// bounds checks one item's min, max and maxLimitRequestRatio against
// requests and limits, with the plugin's messages.
func bounds(typ string, it api.LimitRangeItem, req, lim map[string]api.Quantity) []string {
	var errs []string
	for _, k := range sortedKeys(it.Min) {
		min := amount(k, it.Min[k])
		r, hasReq := req[k]
		l, hasLim := lim[k]
		switch {
		case !hasReq:
			errs = append(errs, fmt.Sprintf("minimum %s usage per %s is %s.  No request is specified", k, typ, canonical(k, it.Min[k])))
		case amount(k, r) < min:
			errs = append(errs, fmt.Sprintf("minimum %s usage per %s is %s, but request is %s", k, typ, canonical(k, it.Min[k]), canonical(k, r)))
		case hasLim && amount(k, l) < min:
			errs = append(errs, fmt.Sprintf("minimum %s usage per %s is %s, but limit is %s", k, typ, canonical(k, it.Min[k]), canonical(k, l)))
		}
	}
	for _, k := range sortedKeys(it.Max) {
		max := amount(k, it.Max[k])
		r, hasReq := req[k]
		l, hasLim := lim[k]
		switch {
		case !hasLim:
			errs = append(errs, fmt.Sprintf("maximum %s usage per %s is %s.  No limit is specified", k, typ, canonical(k, it.Max[k])))
		case amount(k, l) > max:
			errs = append(errs, fmt.Sprintf("maximum %s usage per %s is %s, but limit is %s", k, typ, canonical(k, it.Max[k]), canonical(k, l)))
		case hasReq && amount(k, r) > max:
			errs = append(errs, fmt.Sprintf("maximum %s usage per %s is %s, but request is %s", k, typ, canonical(k, it.Max[k]), canonical(k, r)))
		}
	}
	for _, k := range sortedKeys(it.MaxLimitRequestRatio) {
		ratio := it.MaxLimitRequestRatio[k]
		r, l := amount(k, req[k]), amount(k, lim[k])
		switch {
		case r == 0:
			errs = append(errs, fmt.Sprintf("%s max limit to request ratio per %s is %s, but no request is specified or request is 0", k, typ, canonical("", ratio)))
		case l == 0:
			errs = append(errs, fmt.Sprintf("%s max limit to request ratio per %s is %s, but no limit is specified or limit is 0", k, typ, canonical("", ratio)))
		default:
			observed := float64(l) / float64(r)
			if observed*1000 > float64(ratio.Milli()) {
				errs = append(errs, fmt.Sprintf("%s max limit to request ratio per %s is %s, but provided ratio is %f", k, typ, canonical("", ratio), observed))
			}
		}
	}
	return errs
}

// amount is a quantity in the unit the engine counts a resource in:
// millicores for cpu, bytes (or units) for the rest.
func amount(resource string, q api.Quantity) int64 {
	if resource == "cpu" {
		return q.Milli()
	}
	return q.Value()
}

func formatAmount(resource string, v int64) string {
	if resource == "cpu" {
		return api.FormatMilliCPU(v)
	}
	return api.FormatBytes(v)
}

// canonical writes a quantity as the API server prints one back: cpu in
// cores or millicores ("1500m", "2"), binary amounts with their largest
// exact suffix ("1Gi"), the rest as written.
func canonical(resource string, q api.Quantity) string {
	s := strings.TrimSpace(string(q))
	switch {
	case resource == "cpu":
		return api.FormatMilliCPU(q.Milli())
	case strings.HasSuffix(s, "i"):
		return api.FormatBytes(q.Value())
	case resource == "" && q.Milli()%1000 != 0:
		return api.FormatMilliCPU(q.Milli())
	}
	return s
}

func sortedKeys(m map[string]api.Quantity) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
