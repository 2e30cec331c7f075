package kinds

import (
	"fmt"
	"reflect"

	"reconcile/engine/api"
	"reconcile/engine/validation"
)

var _ = Define(Def[*api.HorizontalPodAutoscaler]{
	Kind: "HorizontalPodAutoscaler",
	// autoscaling/v2's defaults: minReplicas 1, and without metrics, cpu
	// at 80% of the request. (Its default behavior is applied by the
	// controller, not stored.)
	Default: func(h *api.HorizontalPodAutoscaler) {
		if h.Spec.MinReplicas == nil {
			h.Spec.MinReplicas = api.Int32(1)
		}
		if len(h.Spec.Metrics) == 0 {
			h.Spec.Metrics = []api.MetricSpec{{Type: "Resource", Resource: &api.ResourceMetricSource{Name: "cpu",
				Target: api.MetricTarget{Type: "Utilization", AverageUtilization: api.Int32(80)}}}}
		}
	},
	Validate:        validation.ValidateHorizontalPodAutoscaler,
	BumpsGeneration: func(old, new *api.HorizontalPodAutoscaler) bool { return !reflect.DeepEqual(new.Spec, old.Spec) },
	KeepStatus:      func(obj, old *api.HorizontalPodAutoscaler) { obj.Status = old.Status },
	KeepSpec:        func(obj, old *api.HorizontalPodAutoscaler) { obj.Spec = old.Spec },
	Columns: []TypedColumn[*api.HorizontalPodAutoscaler]{Name[*api.HorizontalPodAutoscaler](),
		{Name: "REFERENCE", Cell: func(h *api.HorizontalPodAutoscaler, _ api.Time) string {
			return h.Spec.ScaleTargetRef.Kind + "/" + h.Spec.ScaleTargetRef.Name
		}},
		{Name: "TARGETS", Cell: func(h *api.HorizontalPodAutoscaler, _ api.Time) string { return hpaTargets(h) }},
		{Name: "MINPODS", Cell: func(h *api.HorizontalPodAutoscaler, _ api.Time) string {
			if h.Spec.MinReplicas == nil {
				return "<unset>"
			}
			return itoa(*h.Spec.MinReplicas)
		}},
		{Name: "MAXPODS", Cell: func(h *api.HorizontalPodAutoscaler, _ api.Time) string { return itoa(h.Spec.MaxReplicas) }},
		{Name: "REPLICAS", Cell: func(h *api.HorizontalPodAutoscaler, _ api.Time) string { return itoa(h.Status.CurrentReplicas) }},
		Age[*api.HorizontalPodAutoscaler](),
	},
	Describe: withEvents(describeHPA),
})

// hpaTargets is the TARGETS column: "cpu: 45%/50%", two at most and a
// count of the rest.
func hpaTargets(h *api.HorizontalPodAutoscaler) string {
	var targets []string
	for i, m := range h.Spec.Metrics {
		if m.Type != "Resource" || m.Resource == nil {
			targets = append(targets, "<unknown>")
			continue
		}
		var cur *api.ResourceMetricStatus
		if i < len(h.Status.CurrentMetrics) {
			cur = h.Status.CurrentMetrics[i].Resource
		}
		current := "<unknown>"
		if m.Resource.Target.AverageValue != nil {
			if cur != nil && cur.Current.AverageValue != nil {
				current = string(*cur.Current.AverageValue)
			}
			targets = append(targets, fmt.Sprintf("%s: %s/%s", m.Resource.Name, current, *m.Resource.Target.AverageValue))
			continue
		}
		if cur != nil && cur.Current.AverageUtilization != nil {
			current = fmt.Sprintf("%d%%", *cur.Current.AverageUtilization)
		}
		target := "<auto>"
		if m.Resource.Target.AverageUtilization != nil {
			target = fmt.Sprintf("%d%%", *m.Resource.Target.AverageUtilization)
		}
		targets = append(targets, fmt.Sprintf("%s: %s/%s", m.Resource.Name, current, target))
	}
	switch {
	case len(targets) > 2:
		return fmt.Sprintf("%s, %s + %d more...", targets[0], targets[1], len(targets)-2)
	case len(targets) == 2:
		return targets[0] + ", " + targets[1]
	case len(targets) == 1:
		return targets[0]
	}
	return "<none>"
}

// describeHPA prints an autoscaler as kubectl's autoscaling/v2 describer
// does (its events follow).
func describeHPA(w *Describer, h *api.HorizontalPodAutoscaler) {
	w.Line(0, "Name:\t%s\n", h.Name)
	w.Line(0, "Namespace:\t%s\n", h.Namespace)
	labelsBlock(w, "Labels", h.Labels)
	annotationsBlock(w, "Annotations", h.Annotations)
	w.Line(0, "CreationTimestamp:\t%s\n", when(h.CreationTimestamp))
	w.Line(0, "Reference:\t%s/%s\n", h.Spec.ScaleTargetRef.Kind, h.Spec.ScaleTargetRef.Name)
	w.Line(0, "Metrics:\t( current / target )\n")
	for i, m := range h.Spec.Metrics {
		if m.Type != "Resource" || m.Resource == nil {
			w.Line(1, "<unknown metric type %q>\n", m.Type)
			continue
		}
		w.Line(1, "resource %s on pods", m.Resource.Name)
		var cur *api.ResourceMetricStatus
		if i < len(h.Status.CurrentMetrics) {
			cur = h.Status.CurrentMetrics[i].Resource
		}
		if m.Resource.Target.AverageValue != nil {
			current := "<unknown>"
			if cur != nil && cur.Current.AverageValue != nil {
				current = string(*cur.Current.AverageValue)
			}
			w.Line(0, ":\t%s / %s\n", current, *m.Resource.Target.AverageValue)
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
		w.Line(1, "(as a percentage of request):\t%s / %s\n", current, target)
	}
	minReplicas := "<unset>"
	if h.Spec.MinReplicas != nil {
		minReplicas = fmt.Sprint(*h.Spec.MinReplicas)
	}
	w.Line(0, "Min replicas:\t%s\n", minReplicas)
	w.Line(0, "Max replicas:\t%d\n", h.Spec.MaxReplicas)
	if b := h.Spec.Behavior; b != nil {
		w.Line(0, "Behavior:\n")
		scalingRules(w, "Scale Up", b.ScaleUp)
		scalingRules(w, "Scale Down", b.ScaleDown)
	}
	w.Line(0, "%s pods:\t", h.Spec.ScaleTargetRef.Kind)
	w.Line(0, "%d current / %d desired\n", h.Status.CurrentReplicas, h.Status.DesiredReplicas)
	if len(h.Status.Conditions) > 0 {
		w.Line(0, "Conditions:\n")
		w.Line(1, "Type\tStatus\tReason\tMessage\n")
		w.Line(1, "----\t------\t------\t-------\n")
		for _, c := range h.Status.Conditions {
			w.Line(1, "%v\t%v\t%v\t%v\n", c.Type, c.Status, c.Reason, c.Message)
		}
	}
}

// scalingRules prints one direction of an autoscaler's behavior.
func scalingRules(w *Describer, direction string, r *api.HPAScalingRules) {
	if r == nil {
		return
	}
	w.Line(1, "%s:\n", direction)
	if r.StabilizationWindowSeconds != nil {
		w.Line(2, "Stabilization Window: %d seconds\n", *r.StabilizationWindowSeconds)
	}
	if len(r.Policies) == 0 {
		return
	}
	policy := "Max"
	if r.SelectPolicy != nil {
		policy = *r.SelectPolicy
	}
	w.Line(2, "Select Policy: %s\n", policy)
	w.Line(2, "Policies:\n")
	for _, p := range r.Policies {
		w.Line(3, "- Type: %s\tValue: %d\tPeriod: %d seconds\n", p.Type, p.Value, p.PeriodSeconds)
	}
}
