package kinds

import (
	"reflect"

	"reconcile/engine/api"
	"reconcile/engine/validation"
)

var _ = Define(Def[*api.DaemonSet]{
	Kind:            "DaemonSet",
	Default:         validation.DefaultDaemonSet,
	Validate:        validation.ValidateDaemonSet,
	ValidateUpdate:  validation.ValidateDaemonSetUpdate,
	BumpsGeneration: func(old, new *api.DaemonSet) bool { return !reflect.DeepEqual(new.Spec, old.Spec) },
	KeepStatus:      func(obj, old *api.DaemonSet) { obj.Status = old.Status },
	KeepSpec:        func(obj, old *api.DaemonSet) { obj.Spec = old.Spec },
	Columns: append([]TypedColumn[*api.DaemonSet]{Name[*api.DaemonSet](),
		{Name: "DESIRED", Cell: func(d *api.DaemonSet, _ api.Time) string { return itoa(d.Status.DesiredNumberScheduled) }},
		{Name: "CURRENT", Cell: func(d *api.DaemonSet, _ api.Time) string { return itoa(d.Status.CurrentNumberScheduled) }},
		{Name: "READY", Cell: func(d *api.DaemonSet, _ api.Time) string { return itoa(d.Status.NumberReady) }},
		{Name: "UP-TO-DATE", Cell: func(d *api.DaemonSet, _ api.Time) string { return itoa(d.Status.UpdatedNumberScheduled) }},
		{Name: "AVAILABLE", Cell: func(d *api.DaemonSet, _ api.Time) string { return itoa(d.Status.NumberAvailable) }},
		{Name: "NODE SELECTOR", Cell: func(d *api.DaemonSet, _ api.Time) string { return FormatLabels(d.Spec.Template.Spec.NodeSelector) }},
		Age[*api.DaemonSet](),
	}, Workload(func(d *api.DaemonSet) (*api.PodTemplateSpec, *api.LabelSelector) {
		return &d.Spec.Template, d.Spec.Selector
	}, true)...),
})
