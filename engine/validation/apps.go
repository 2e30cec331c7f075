package validation

import (
	"strconv"
	"strings"

	"reconcile/engine/api"
)

// validateDeploymentSpec checks a Deployment's desired state in the order
// the API server does: replicas, selector, template, strategy, timings.
func validateDeploymentSpec(s *api.DeploymentSpec, p Path) ErrorList {
	errs := nonNegative(int64(api.Deref(s.Replicas, 1)), p.Child("replicas"))
	errs = append(errs, validateSelectorAndTemplate(s.Selector, &s.Template, p)...)
	errs = append(errs, validateStrategy(&s.Strategy, p.Child("strategy"))...)
	errs = append(errs, nonNegative(int64(s.MinReadySeconds), p.Child("minReadySeconds"))...)
	if s.RevisionHistoryLimit != nil {
		errs = append(errs, nonNegative(int64(*s.RevisionHistoryLimit), p.Child("revisionHistoryLimit"))...)
	}
	if s.ProgressDeadlineSeconds != nil {
		errs = append(errs, nonNegative(int64(*s.ProgressDeadlineSeconds), p.Child("progressDeadlineSeconds"))...)
		if *s.ProgressDeadlineSeconds <= s.MinReadySeconds {
			errs = append(errs, Invalid(p.Child("progressDeadlineSeconds"), s.ProgressDeadlineSeconds, "must be greater than minReadySeconds"))
		}
	}
	return errs
}

// validateReplicaSetSpec checks a ReplicaSet's desired state.
func validateReplicaSetSpec(s *api.ReplicaSetSpec, p Path) ErrorList {
	errs := nonNegative(int64(api.Deref(s.Replicas, 1)), p.Child("replicas"))
	errs = append(errs, nonNegative(int64(s.MinReadySeconds), p.Child("minReadySeconds"))...)
	return append(errs, validateSelectorAndTemplate(s.Selector, &s.Template, p)...)
}

// validateSelectorAndTemplate checks the selector, then that it selects the
// pods the template makes, then the template itself. A missing selector
// selects nothing, so it also fails to match the template's labels — the API
// server reports both.
func validateSelectorAndTemplate(sel *api.LabelSelector, t *api.PodTemplateSpec, p Path) ErrorList {
	var errs ErrorList
	sp := p.Child("selector")
	parsable := true
	if sel == nil {
		errs = append(errs, Required(sp, ""))
	} else {
		var selErrs ErrorList
		selErrs, parsable = validateLabelSelector(sel, sp)
		errs = append(errs, selErrs...)
		if sel.Empty() {
			// Kubernetes uses the Deployment wording for ReplicaSets too.
			errs = append(errs, Invalid(sp, sel, "empty selector is invalid for deployment"))
		}
	}
	if !parsable {
		return append(errs, Invalid(sp, sel, "invalid label selector"))
	}
	tp := p.Child("template")
	// A missing selector selects nothing; an empty one, everything.
	if (sel == nil || !sel.Empty()) && !sel.Matches(t.Labels) {
		errs = append(errs, Invalid(tp.Child("metadata", "labels"), t.Labels, "`selector` does not match template `labels`"))
	}
	errs = append(errs, validatePodTemplate(t, tp)...)
	if t.Spec.RestartPolicy != "Always" {
		errs = append(errs, NotSupported(tp.Child("spec", "restartPolicy"), t.Spec.RestartPolicy, "Always"))
	}
	return errs
}

// validateLabelSelector checks matchLabels and matchExpressions; parsable is
// false when the selector could not be turned into a label query at all.
func validateLabelSelector(sel *api.LabelSelector, p Path) (errs ErrorList, parsable bool) {
	parsable = true
	errs = validateLabels(sel.MatchLabels, p.Child("matchLabels"))
	for i, r := range sel.MatchExpressions {
		rp := p.Child("matchExpressions").Index(i)
		switch r.Operator {
		case "In", "NotIn":
			if len(r.Values) == 0 {
				errs = append(errs, Required(rp.Child("values"), "must be specified when `operator` is 'In' or 'NotIn'"))
				parsable = false
			}
		case "Exists", "DoesNotExist":
			if len(r.Values) > 0 {
				errs = append(errs, Forbidden(rp.Child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
				parsable = false
			}
		default:
			errs = append(errs, Invalid(rp.Child("operator"), r.Operator, "not a valid selector operator"))
			parsable = false
		}
		for _, m := range isQualifiedName(r.Key) {
			errs = append(errs, Invalid(rp.Child("key"), r.Key, m))
			parsable = false
		}
		for j, v := range r.Values {
			for _, m := range isLabelValue(v) {
				errs = append(errs, Invalid(rp.Child("values").Index(j), v, m))
			}
		}
	}
	return errs, parsable
}

// validateStrategy checks RollingUpdate's bounds, or that Recreate has none.
func validateStrategy(s *api.DeploymentStrategy, p Path) ErrorList {
	switch s.Type {
	case api.RecreateStrategy:
		if s.RollingUpdate != nil {
			return ErrorList{Forbidden(p.Child("rollingUpdate"), "may not be specified when strategy `type` is 'Recreate'")}
		}
		return nil
	case api.RollingUpdateStrategy:
		if s.RollingUpdate == nil {
			return ErrorList{Required(p.Child("rollingUpdate"), "this should be defaulted and never be nil")}
		}
		return validateRollingUpdate(s.RollingUpdate, p.Child("rollingUpdate"))
	}
	// The API server prints its internal struct here, field names and all.
	return ErrorList{NotSupported(p, internalStrategy(s), api.RecreateStrategy, api.RollingUpdateStrategy)}
}

func internalStrategy(s *api.DeploymentStrategy) rawValue {
	ru := "null"
	if s.RollingUpdate != nil {
		ru = `{"MaxUnavailable":` + renderValue(intOrZero(s.RollingUpdate.MaxUnavailable)) +
			`,"MaxSurge":` + renderValue(intOrZero(s.RollingUpdate.MaxSurge)) + `}`
	}
	return rawValue(`{"Type":` + strconv.Quote(s.Type) + `,"RollingUpdate":` + ru + `}`)
}

func intOrZero(v *api.IntOrString) api.IntOrString {
	if v == nil {
		return api.FromInt(0)
	}
	return *v
}

func validateRollingUpdate(ru *api.RollingUpdateDeployment, p Path) ErrorList {
	unavailable, surge := intOrZero(ru.MaxUnavailable), intOrZero(ru.MaxSurge)
	errs := validateIntOrPercent(unavailable, p.Child("maxUnavailable"))
	errs = append(errs, validateIntOrPercent(surge, p.Child("maxSurge"))...)
	if intOrPercentValue(unavailable) == 0 && intOrPercentValue(surge) == 0 {
		errs = append(errs, Invalid(p.Child("maxUnavailable"), unavailable, "may not be 0 when `maxSurge` is 0"))
	}
	if v, ok := percentValue(unavailable); ok && v > 100 {
		errs = append(errs, Invalid(p.Child("maxUnavailable"), unavailable, "must not be greater than 100%"))
	}
	return errs
}

func validateIntOrPercent(v api.IntOrString, p Path) ErrorList {
	if v.IsString {
		if !matchPercent(v.Str) {
			return ErrorList{Invalid(p, v, regexError("a valid percent string must be a numeric string followed by an ending '%'", "[0-9]+%", "1%", "93%"))}
		}
		return nil
	}
	return nonNegative(int64(v.Int), p)
}

func percentValue(v api.IntOrString) (int, bool) {
	if !v.IsString || !matchPercent(v.Str) {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimSuffix(v.Str, "%"))
	return n, err == nil
}

func intOrPercentValue(v api.IntOrString) int {
	if p, ok := percentValue(v); ok {
		return p
	}
	if v.IsString {
		n, _ := strconv.Atoi(v.Str)
		return n
	}
	return int(v.Int)
}

// selectorsEqual compares selectors the way the API server does: an empty
// list or map equals a missing one.
func selectorsEqual(a, b *api.LabelSelector) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if len(a.MatchLabels) != len(b.MatchLabels) || len(a.MatchExpressions) != len(b.MatchExpressions) {
		return false
	}
	for k, v := range a.MatchLabels { // an all-of test: order cannot matter
		if w, ok := b.MatchLabels[k]; !ok || w != v {
			return false
		}
	}
	for i, r := range a.MatchExpressions {
		s := b.MatchExpressions[i]
		if r.Key != s.Key || r.Operator != s.Operator || strings.Join(r.Values, "\x00") != strings.Join(s.Values, "\x00") ||
			len(r.Values) != len(s.Values) {
			return false
		}
	}
	return true
}
