package validation

import (
	"encoding/json"

	"reconcile/engine/api"
)

// ValidatePodDisruptionBudget checks a budget as policy's
// ValidatePodDisruptionBudget does, on create and on update (its spec may
// change): minAvailable and maxUnavailable not both set, each a
// non-negative number or a percentage of at most 100%, the selector, and
// the unhealthy pod eviction policy.
func ValidatePodDisruptionBudget(b *api.PodDisruptionBudget) ErrorList {
	errs := validateObjectMeta(&b.ObjectMeta, "PodDisruptionBudget", Path("metadata"))
	p := Path("spec")
	s := &b.Spec
	if s.MinAvailable != nil && s.MaxUnavailable != nil {
		// The API server prints its internal struct here, field names and all.
		errs = append(errs, Invalid(p, internalPDBSpec(s), "minAvailable and maxUnavailable cannot be both set"))
	}
	for _, f := range []struct {
		name string
		v    *api.IntOrString
	}{{"minAvailable", s.MinAvailable}, {"maxUnavailable", s.MaxUnavailable}} {
		if f.v == nil {
			continue
		}
		errs = append(errs, validateIntOrPercent(*f.v, p.Child(f.name))...)
		if v, ok := percentValue(*f.v); ok && v > 100 {
			errs = append(errs, Invalid(p.Child(f.name), *f.v, "must not be greater than 100%"))
		}
	}
	if s.Selector != nil {
		selErrs, _ := validateLabelSelector(s.Selector, p.Child("selector"))
		errs = append(errs, selErrs...)
	}
	if pol := s.UnhealthyPodEvictionPolicy; pol != nil && *pol != api.AlwaysAllow && *pol != api.IfHealthyBudget {
		errs = append(errs, NotSupported(p.Child("unhealthyPodEvictionPolicy"), *pol, api.AlwaysAllow, api.IfHealthyBudget))
	}
	return errs
}

// internalPDBSpec renders a budget's spec as the API server renders its
// internal type: Go field names, the selector in its JSON.
func internalPDBSpec(s *api.PodDisruptionBudgetSpec) rawValue {
	v := struct {
		MinAvailable               *api.IntOrString
		Selector                   *api.LabelSelector
		MaxUnavailable             *api.IntOrString
		UnhealthyPodEvictionPolicy *string
	}{s.MinAvailable, s.Selector, s.MaxUnavailable, s.UnhealthyPodEvictionPolicy}
	b, _ := json.Marshal(v)
	return rawValue(b)
}
