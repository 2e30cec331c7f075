package validation

import (
	"fmt"
	"strings"

	"reconcile/engine/api"
)

// The limits autoscaling/v2 validation puts on an autoscaler's behavior.
const (
	maxPeriodSeconds              = 1800
	maxStabilizationWindowSeconds = 3600
)

// ValidateHorizontalPodAutoscaler checks an autoscaler as autoscaling/v2's
// ValidateHorizontalPodAutoscaler does (HPAScaleToZero off, as by default):
// its bounds, the workload it scales, its metrics and its behavior. An
// update is checked the same (minReplicas 0, which would relax it, cannot
// be stored).
func ValidateHorizontalPodAutoscaler(h *api.HorizontalPodAutoscaler) ErrorList {
	return append(validateObjectMeta(&h.ObjectMeta, "HorizontalPodAutoscaler", Path("metadata")), validateHPASpec(&h.Spec, Path("spec"), 1)...)
}

func validateHPASpec(s *api.HPASpec, p Path, lower int32) ErrorList {
	var errs ErrorList
	if s.MinReplicas != nil && *s.MinReplicas < lower {
		errs = append(errs, Invalid(p.Child("minReplicas"), *s.MinReplicas, fmt.Sprintf("must be greater than or equal to %d", lower)))
	}
	if s.MaxReplicas < 1 {
		errs = append(errs, Invalid(p.Child("maxReplicas"), s.MaxReplicas, "must be greater than 0"))
	}
	if s.MinReplicas != nil && s.MaxReplicas < *s.MinReplicas {
		errs = append(errs, Invalid(p.Child("maxReplicas"), s.MaxReplicas, "must be greater than or equal to `minReplicas`"))
	}
	errs = append(errs, validateCrossVersionObjectReference(s.ScaleTargetRef, p.Child("scaleTargetRef"))...)
	errs = append(errs, validateMetrics(s.Metrics, p.Child("metrics"), s.MinReplicas)...)
	if b := s.Behavior; b != nil {
		errs = append(errs, validateScalingRules(b.ScaleUp, p.Child("behavior", "scaleUp"))...)
		errs = append(errs, validateScalingRules(b.ScaleDown, p.Child("behavior", "scaleDown"))...)
	}
	return errs
}

func validateCrossVersionObjectReference(ref api.CrossVersionObjectReference, p Path) ErrorList {
	var errs ErrorList
	for _, f := range []struct{ name, value string }{{"kind", ref.Kind}, {"name", ref.Name}} {
		if f.value == "" {
			errs = append(errs, Required(p.Child(f.name), ""))
			continue
		}
		for _, msg := range isValidPathSegmentName(f.value) {
			errs = append(errs, Invalid(p.Child(f.name), f.value, msg))
		}
	}
	return errs
}

// isValidPathSegmentName is apimachinery's IsValidPathSegmentName: a name
// that can be one segment of a URL path.
func isValidPathSegmentName(name string) []string {
	if name == "." || name == ".." {
		return []string{fmt.Sprintf("may not be '%s'", name)}
	}
	var msgs []string
	for _, bad := range []string{"/", "%"} {
		if strings.Contains(name, bad) {
			msgs = append(msgs, fmt.Sprintf("may not contain '%s'", bad))
		}
	}
	return msgs
}

// metricSourceTypes are the metric types autoscaling/v2 knows, sorted as
// the API server lists them.
var metricSourceTypes = []string{"ContainerResource", "External", "Object", "Pods", "Resource"}

func validateMetrics(ms []api.MetricSpec, p Path, minReplicas *int32) ErrorList {
	var errs ErrorList
	objectOrExternal := false
	for i, m := range ms {
		errs = append(errs, validateMetricSpec(m, p.Index(i))...)
		if m.Type == "Object" || m.Type == "External" {
			objectOrExternal = true
		}
	}
	if minReplicas != nil && *minReplicas == 0 && !objectOrExternal {
		errs = append(errs, Forbidden(p, "must specify at least one Object or External metric to support scaling to zero replicas"))
	}
	return errs
}

func validateMetricSpec(m api.MetricSpec, p Path) ErrorList {
	var errs ErrorList
	if m.Type == "" {
		errs = append(errs, Required(p.Child("type"), "must specify a metric source type"))
	}
	var present []string
	if m.Object != nil {
		present = append(present, "object")
	}
	if m.External != nil {
		present = append(present, "external")
	}
	if m.Pods != nil {
		present = append(present, "pods")
	}
	if m.Resource != nil {
		present = append(present, "resource")
		if len(present) == 1 {
			errs = append(errs, validateResourceSource(m.Resource, p.Child("resource"))...)
		}
	}
	expected := ""
	switch m.Type {
	case "Object", "Pods", "Resource", "External":
		expected = strings.ToLower(m.Type)
		if !containsString(present, expected) {
			errs = append(errs, Required(p.Child(expected), "must populate information for the given metric source"))
		}
	case "ContainerResource":
		expected = "containerResource" // not simulated: never present here
		errs = append(errs, Required(p.Child(expected), "must populate information for the given metric source"))
	default:
		errs = append(errs, NotSupported(p.Child("type"), m.Type, metricSourceTypes...))
	}
	if len(present) > 1 {
		for _, typ := range present {
			if typ != expected {
				errs = append(errs, Forbidden(p.Child(typ), "must populate the given metric source only"))
			}
		}
	}
	return errs
}

func validateResourceSource(r *api.ResourceMetricSource, p Path) ErrorList {
	var errs ErrorList
	if r.Name == "" {
		errs = append(errs, Required(p.Child("name"), "must specify a resource name"))
	}
	t, tp := r.Target, p.Child("target")
	errs = append(errs, validateMetricTarget(t, tp)...)
	if t.AverageUtilization == nil && t.AverageValue == nil {
		errs = append(errs, Required(tp.Child("averageUtilization"), "must set either a target raw value or a target utilization"))
	}
	if t.AverageUtilization != nil && t.AverageValue != nil {
		errs = append(errs, Forbidden(tp.Child("averageValue"), "may not set both a target raw value and a target utilization"))
	}
	return errs
}

func validateMetricTarget(t api.MetricTarget, p Path) ErrorList {
	var errs ErrorList
	if t.Type == "" {
		errs = append(errs, Required(p.Child("type"), "must specify a metric target type"))
	}
	if t.Type != "Utilization" && t.Type != "Value" && t.Type != "AverageValue" {
		errs = append(errs, Invalid(p.Child("type"), t.Type, "must be either Utilization, Value, or AverageValue"))
	}
	if t.Value != nil && !positive(*t.Value) {
		errs = append(errs, Invalid(p.Child("value"), *t.Value, "must be positive"))
	}
	if t.AverageValue != nil && !positive(*t.AverageValue) {
		errs = append(errs, Invalid(p.Child("averageValue"), *t.AverageValue, "must be positive"))
	}
	if t.AverageUtilization != nil && *t.AverageUtilization < 1 {
		errs = append(errs, Invalid(p.Child("averageUtilization"), *t.AverageUtilization, "must be greater than 0"))
	}
	return errs
}

func validateScalingRules(r *api.HPAScalingRules, p Path) ErrorList {
	if r == nil {
		return nil
	}
	var errs ErrorList
	if w := r.StabilizationWindowSeconds; w != nil && *w < 0 {
		errs = append(errs, Invalid(p.Child("stabilizationWindowSeconds"), *w, "must be greater than or equal to zero"))
	}
	if w := r.StabilizationWindowSeconds; w != nil && *w > maxStabilizationWindowSeconds {
		errs = append(errs, Invalid(p.Child("stabilizationWindowSeconds"), *w, fmt.Sprintf("must be less than or equal to %d", maxStabilizationWindowSeconds)))
	}
	if sp := r.SelectPolicy; sp != nil && *sp != "Disabled" && *sp != "Max" && *sp != "Min" {
		errs = append(errs, NotSupported(p.Child("selectPolicy"), *sp, "Disabled", "Max", "Min"))
	}
	pp := p.Child("policies")
	if len(r.Policies) == 0 {
		errs = append(errs, Required(pp, "must specify at least one Policy"))
	}
	for i, pol := range r.Policies {
		ip := pp.Index(i)
		if pol.Type != "Pods" && pol.Type != "Percent" {
			errs = append(errs, NotSupported(ip.Child("type"), pol.Type, "Percent", "Pods"))
		}
		if pol.Value <= 0 {
			errs = append(errs, Invalid(ip.Child("value"), pol.Value, "must be greater than zero"))
		}
		if pol.PeriodSeconds <= 0 {
			errs = append(errs, Invalid(ip.Child("periodSeconds"), pol.PeriodSeconds, "must be greater than zero"))
		}
		if pol.PeriodSeconds > maxPeriodSeconds {
			errs = append(errs, Invalid(ip.Child("periodSeconds"), pol.PeriodSeconds, fmt.Sprintf("must be less than or equal to %d", maxPeriodSeconds)))
		}
	}
	return errs
}

func positive(q api.Quantity) bool {
	v, err := q.Parse()
	return err == nil && v > 0
}
