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
