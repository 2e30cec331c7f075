package kubectl

import (
	"fmt"
	"sort"
	"time"

	"reconcile/engine/api"
	"reconcile/engine/kinds"
)

// Describers and table cells of the kinds that scope and scale workloads:
// Namespace, LimitRange and HorizontalPodAutoscaler.

// describeNamespace prints a namespace, its deletion conditions, and the
// quotas and limit ranges in it, as kubectl does.
func (k *cmd) describeNamespace(w *pw, ns *api.Namespace) {
	w.line(0, "Name:\t%s\n", ns.Name)
	labelsBlock(w, "Labels", ns.Labels)
	annotationsBlock(w, "Annotations", ns.Annotations)
	w.line(0, "Status:\t%s\n", ns.Status.Phase)
	if len(ns.Status.Conditions) > 0 {
		w.line(0, "Conditions:\n")
		w.line(1, "Type\tStatus\tLastTransitionTime\tReason\tMessage\n")
		w.line(1, "----\t------\t------------------\t------\t-------\n")
		for _, c := range ns.Status.Conditions {
			w.line(1, "%v\t%v\t%s\t%v\t%v\n", c.Type, c.Status, c.LastTransitionTime.Wall().Format(time.RFC1123Z), c.Reason, c.Message)
		}
	}
	w.line(0, "\n")
	var quotas []*api.ResourceQuota
	for _, o := range k.st.List("ResourceQuota") {
		if q := o.(*api.ResourceQuota); q.Namespace == ns.Name {
			quotas = append(quotas, q)
		}
	}
	if len(quotas) == 0 {
		w.line(0, "No resource quota.\n")
	} else {
		w.line(0, "Resource Quotas\n")
		for _, q := range quotas {
			w.line(1, "Name:\t%s\n", q.Name)
			w.line(1, "Resource\tUsed\tHard\n")
			w.line(1, "--------\t---\t---\n")
			for _, r := range sortedQuantityKeys(q.Status.Hard) {
				used := q.Status.Used[r]
				if used == "" {
					used = "0"
				}
				w.line(1, "%s\t%s\t%s\n", r, used, q.Status.Hard[r])
			}
		}
	}
	w.line(0, "\n")
	var ranges []*api.LimitRange
	for _, o := range k.st.List("LimitRange") {
		if lr := o.(*api.LimitRange); lr.Namespace == ns.Name {
			ranges = append(ranges, lr)
		}
	}
	if len(ranges) == 0 {
		w.line(0, "No LimitRange resource.\n")
		return
	}
	w.line(0, "Resource Limits\n Type\tResource\tMin\tMax\tDefault Request\tDefault Limit\tMax Limit/Request Ratio\n")
	w.line(0, " ----\t--------\t---\t---\t---------------\t-------------\t-----------------------\n")
	for _, lr := range ranges {
		limitRangeRows(w, lr, " ")
	}
}

// describeLimitRange prints a LimitRange's table, a row per type and
// resource.
func describeLimitRange(w *pw, lr *api.LimitRange) {
	w.line(0, "Name:\t%s\n", lr.Name)
	w.line(0, "Namespace:\t%s\n", lr.Namespace)
	w.line(0, "Type\tResource\tMin\tMax\tDefault Request\tDefault Limit\tMax Limit/Request Ratio\n")
	w.line(0, "----\t--------\t---\t---\t---------------\t-------------\t-----------------------\n")
	limitRangeRows(w, lr, "")
}

func limitRangeRows(w *pw, lr *api.LimitRange, prefix string) {
	for _, it := range lr.Spec.Limits {
		set := map[string]bool{}
		for _, m := range []map[string]api.Quantity{it.Max, it.Min, it.Default, it.DefaultRequest, it.MaxLimitRequestRatio} {
			for r := range m { // a set: order does not matter
				set[r] = true
			}
		}
		names := make([]string, 0, len(set))
		for r := range set {
			names = append(names, r)
		}
		sort.Strings(names)
		cell := func(m map[string]api.Quantity, r string) string {
			if q, ok := m[r]; ok {
				return string(q)
			}
			return "-"
		}
		for _, r := range names {
			w.line(0, "%s%s\t%v\t%v\t%v\t%v\t%v\t%v\n", prefix, it.Type, r, cell(it.Min, r), cell(it.Max, r),
				cell(it.DefaultRequest, r), cell(it.Default, r), cell(it.MaxLimitRequestRatio, r))
		}
	}
}

// describeHPA prints an autoscaler as kubectl's autoscaling/v2 describer
// does (its events follow).
func describeHPA(w *pw, h *api.HorizontalPodAutoscaler) {
	w.line(0, "Name:\t%s\n", h.Name)
	w.line(0, "Namespace:\t%s\n", h.Namespace)
	labelsBlock(w, "Labels", h.Labels)
	annotationsBlock(w, "Annotations", h.Annotations)
	w.line(0, "CreationTimestamp:\t%s\n", when(h.CreationTimestamp))
	w.line(0, "Reference:\t%s/%s\n", h.Spec.ScaleTargetRef.Kind, h.Spec.ScaleTargetRef.Name)
	w.line(0, "Metrics:\t( current / target )\n")
	for i, m := range h.Spec.Metrics {
		if m.Type != "Resource" || m.Resource == nil {
			w.line(1, "<unknown metric type %q>\n", m.Type)
			continue
		}
		w.line(1, "resource %s on pods", m.Resource.Name)
		var cur *api.ResourceMetricStatus
		if i < len(h.Status.CurrentMetrics) {
			cur = h.Status.CurrentMetrics[i].Resource
		}
		if m.Resource.Target.AverageValue != nil {
			current := "<unknown>"
			if cur != nil && cur.Current.AverageValue != nil {
				current = string(*cur.Current.AverageValue)
			}
			w.line(0, ":\t%s / %s\n", current, *m.Resource.Target.AverageValue)
			continue
		}
		current := "<unknown>"
		if cur != nil && cur.Current.AverageUtilization != nil && cur.Current.AverageValue != nil {
			current = fmt.Sprintf("%d%% (%s)", *cur.Current.AverageUtilization, *cur.Current.AverageValue)
		}
		target := "<auto>"
		if m.Resource.Target.AverageUtilization != nil {
			target = fmt.Sprintf("%d%%", *m.Resource.Target.AverageUtilization)
		}
		w.line(1, "(as a percentage of request):\t%s / %s\n", current, target)
	}
	minReplicas := "<unset>"
	if h.Spec.MinReplicas != nil {
		minReplicas = fmt.Sprint(*h.Spec.MinReplicas)
	}
	w.line(0, "Min replicas:\t%s\n", minReplicas)
	w.line(0, "Max replicas:\t%d\n", h.Spec.MaxReplicas)
	if b := h.Spec.Behavior; b != nil {
		w.line(0, "Behavior:\n")
		scalingRules(w, "Scale Up", b.ScaleUp)
		scalingRules(w, "Scale Down", b.ScaleDown)
	}
	w.line(0, "%s pods:\t", h.Spec.ScaleTargetRef.Kind)
	w.line(0, "%d current / %d desired\n", h.Status.CurrentReplicas, h.Status.DesiredReplicas)
	if len(h.Status.Conditions) > 0 {
		w.line(0, "Conditions:\n")
		w.line(1, "Type\tStatus\tReason\tMessage\n")
		w.line(1, "----\t------\t------\t-------\n")
		for _, c := range h.Status.Conditions {
			w.line(1, "%v\t%v\t%v\t%v\n", c.Type, c.Status, c.Reason, c.Message)
		}
	}
}

// createdAt is the CREATED AT column of kinds without their own table
// (LimitRange): the creation time in RFC 3339.
func createdAt(t api.Time) string { return kinds.CreatedAt(t) }

// scalingRules prints one direction of an autoscaler's behavior.
func scalingRules(w *pw, direction string, r *api.HPAScalingRules) {
	if r == nil {
		return
	}
	w.line(1, "%s:\n", direction)
	if r.StabilizationWindowSeconds != nil {
		w.line(2, "Stabilization Window: %d seconds\n", *r.StabilizationWindowSeconds)
	}
	if len(r.Policies) == 0 {
		return
	}
	policy := "Max"
	if r.SelectPolicy != nil {
		policy = *r.SelectPolicy
	}
	w.line(2, "Select Policy: %s\n", policy)
	w.line(2, "Policies:\n")
	for _, p := range r.Policies {
		w.line(3, "- Type: %s\tValue: %d\tPeriod: %d seconds\n", p.Type, p.Value, p.PeriodSeconds)
	}
}
