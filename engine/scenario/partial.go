package scenario

import (
	"fmt"

	"reconcile/engine/api"
	"reconcile/engine/controller"
)

// partialNotes says what of a simulated object the engine does not act on,
// where a learner would expect it to: a LimitRange's items of a type other
// than Container and Pod (the API server stores them; no admission
// enforces them here), and an autoscaler's metrics beyond the one it
// scales by (the first Resource metric on cpu with a Utilization target).
func partialNotes(obj api.Object) []string {
	var out []string
	switch o := obj.(type) {
	case *api.LimitRange:
		for i, it := range o.Spec.Limits {
			if it.Type != "Container" && it.Type != "Pod" {
				out = append(out, fmt.Sprintf("LimitRange %s: spec.limits[%d] of type %s is stored, not enforced: only Container and Pod limits are simulated", o.Name, i, it.Type))
			}
		}
	case *api.HorizontalPodAutoscaler:
		used := false
		for i, m := range o.Spec.Metrics {
			if controller.ScalesBy(m) && !used {
				used = true
				continue
			}
			what := m.Type
			if m.Resource != nil {
				what += " " + m.Resource.Name
			}
			out = append(out, fmt.Sprintf("HorizontalPodAutoscaler %s: spec.metrics[%d] (%s) is stored, not simulated: it scales by the first Resource metric on cpu with a Utilization target only", o.Name, i, what))
		}
	}
	return out
}
