package validation

import (
	"math"
	"slices"

	"reconcile/engine/api"
)

// validatePodFailurePolicy is pkg/apis/batch/validation's: at most 20
// rules, each with a known action and exactly one of onExitCodes and
// onPodConditions, well formed.
func validatePodFailurePolicy(s *api.JobSpec, p Path) ErrorList {
	var errs ErrorList
	rules := p.Child("rules")
	if n := len(s.PodFailurePolicy.Rules); n > 20 {
		errs = append(errs, &FieldError{Type: TypeTooMany, Field: rules.String(), BadValue: n, Detail: "must have at most 20 items"})
	}
	names := map[string]bool{}
	for _, c := range s.Template.Spec.Containers {
		names[c.Name] = true
	}
	for _, c := range s.Template.Spec.More().InitContainers {
		names[c.Name] = true
	}
	for i, r := range s.PodFailurePolicy.Rules {
		rp := rules.Index(i)
		action := rp.Child("action")
		switch r.Action {
		case "":
			errs = append(errs, Required(action, `valid values: ["Count" "FailIndex" "FailJob" "Ignore"]`))
		case "FailIndex":
			if s.BackoffLimitPerIndex == nil {
				errs = append(errs, Invalid(action, r.Action, "requires the backoffLimitPerIndex to be set"))
			}
		case "Count", "FailJob", "Ignore":
		default:
			errs = append(errs, NotSupported(action, r.Action, "Count", "FailIndex", "FailJob", "Ignore"))
		}
		if r.OnExitCodes != nil {
			errs = append(errs, validateOnExitCodes(r.OnExitCodes, rp.Child("onExitCodes"), names)...)
		}
		for j, pat := range r.OnPodConditions {
			pp := rp.Child("onPodConditions").Index(j)
			typ, _ := pat["type"].(string)
			for _, m := range isQualifiedName(typ) {
				errs = append(errs, Invalid(pp.Child("type"), typ, m))
			}
			switch st, _ := pat["status"].(string); st {
			case "":
				errs = append(errs, Required(pp.Child("status"), `valid values: ["False" "True" "Unknown"]`))
			case "False", "True", "Unknown":
			default:
				errs = append(errs, NotSupported(pp.Child("status"), st, "False", "True", "Unknown"))
			}
		}
		switch {
		case r.OnExitCodes != nil && len(r.OnPodConditions) > 0:
			errs = append(errs, Invalid(rp, omitValue{}, "specifying both OnExitCodes and OnPodConditions is not supported"))
		case r.OnExitCodes == nil && len(r.OnPodConditions) == 0:
			errs = append(errs, Invalid(rp, omitValue{}, "specifying one of OnExitCodes and OnPodConditions is required"))
		}
	}
	return errs
}

// validateOnExitCodes checks an onExitCodes requirement: an operator, a
// container of the template, 1 to 255 values, ordered, unique, no 0 for In.
func validateOnExitCodes(req map[string]any, p Path, names map[string]bool) ErrorList {
	var errs ErrorList
	op, _ := req["operator"].(string)
	switch op {
	case "":
		errs = append(errs, Required(p.Child("operator"), `valid values: ["In" "NotIn"]`))
	case "In", "NotIn":
	default:
		errs = append(errs, NotSupported(p.Child("operator"), op, "In", "NotIn"))
	}
	if name, ok := req["containerName"].(string); ok && !names[name] {
		errs = append(errs, Invalid(p.Child("containerName"), name, "must be one of the container or initContainer names in the pod template"))
	}
	raw, _ := req["values"].([]any)
	values := make([]int64, 0, len(raw))
	for _, v := range raw {
		n, _ := exitCode(v)
		values = append(values, n)
	}
	vp := p.Child("values")
	switch {
	case len(values) == 0:
		errs = append(errs, Invalid(vp, []int64{}, "at least one value is required"))
	case len(values) > 255:
		errs = append(errs, &FieldError{Type: TypeTooMany, Field: vp.String(), BadValue: len(values), Detail: "must have at most 255 items"})
	}
	seen := map[int64]bool{}
	for j, v := range values {
		if op == "In" && v == 0 {
			errs = append(errs, Invalid(vp.Index(j), v, "must not be 0 for the In operator"))
		}
		if seen[v] {
			errs = append(errs, Duplicate(vp.Index(j), v))
		}
		seen[v] = true
	}
	if !slices.IsSorted(values) {
		errs = append(errs, Invalid(vp, values, "must be ordered"))
	}
	return errs
}

// exitCode reads a number of onExitCodes.values as decoded.
func exitCode(v any) (int64, bool) {
	switch n := v.(type) {
	case int:
		return int64(n), true
	case int64:
		return n, true
	case uint64:
		return int64(n), n <= math.MaxInt64
	case float64:
		return int64(n), n == math.Trunc(n)
	}
	return 0, false
}
