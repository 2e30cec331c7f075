package kinds

import (
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
})
