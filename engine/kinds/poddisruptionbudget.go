package kinds

import (
	"reflect"

	"reconcile/engine/api"
	"reconcile/engine/validation"
)

// PodDisruptionBudgets (policy/v1): no defaults; the spec may change
// (since v1.15) and bumps the generation; status is the disruption
// controller's, and the Eviction API's (disruptedPods).
var _ = Define(Def[*api.PodDisruptionBudget]{
	Kind:            "PodDisruptionBudget",
	Validate:        validation.ValidatePodDisruptionBudget,
	BumpsGeneration: func(old, new *api.PodDisruptionBudget) bool { return !reflect.DeepEqual(new.Spec, old.Spec) },
	KeepStatus:      func(obj, old *api.PodDisruptionBudget) { obj.Status = old.Status },
	KeepSpec:        func(obj, old *api.PodDisruptionBudget) { obj.Spec = old.Spec },
	Columns: []TypedColumn[*api.PodDisruptionBudget]{Name[*api.PodDisruptionBudget](),
		{Name: "MIN AVAILABLE", Cell: func(b *api.PodDisruptionBudget, _ api.Time) string { return intOrNA(b.Spec.MinAvailable) }},
		{Name: "MAX UNAVAILABLE", Cell: func(b *api.PodDisruptionBudget, _ api.Time) string { return intOrNA(b.Spec.MaxUnavailable) }},
		{Name: "ALLOWED DISRUPTIONS", Cell: func(b *api.PodDisruptionBudget, _ api.Time) string { return itoa(b.Status.DisruptionsAllowed) }},
		Age[*api.PodDisruptionBudget](),
	},
	Describe: withEvents(describePDB),
})

// intOrNA is a number or percentage as written, "N/A" when unset, as
// kubectl's printer writes minAvailable and maxUnavailable.
func intOrNA(v *api.IntOrString) string {
	if v == nil {
		return "N/A"
	}
	return v.String()
}

// describePDB prints a budget as kubectl's policy/v1 describer does (its
// events follow).
func describePDB(w *Describer, b *api.PodDisruptionBudget) {
	w.Line(0, "Name:\t%s\n", b.Name)
	w.Line(0, "Namespace:\t%s\n", b.Namespace)
	if b.Spec.MinAvailable != nil {
		w.Line(0, "Min available:\t%s\n", b.Spec.MinAvailable.String())
	} else if b.Spec.MaxUnavailable != nil {
		w.Line(0, "Max unavailable:\t%s\n", b.Spec.MaxUnavailable.String())
	}
	if b.Spec.Selector != nil {
		w.Line(0, "Selector:\t%s\n", FormatSelector(b.Spec.Selector))
	} else {
		w.Line(0, "Selector:\t<unset>\n")
	}
	w.Line(0, "Status:\n")
	w.Line(2, "Allowed disruptions:\t%d\n", b.Status.DisruptionsAllowed)
	w.Line(2, "Current:\t%d\n", b.Status.CurrentHealthy)
	w.Line(2, "Desired:\t%d\n", b.Status.DesiredHealthy)
	w.Line(2, "Total:\t%d\n", b.Status.ExpectedPods)
}
