package kinds

import (
	"reconcile/engine/api"
	"reconcile/engine/validation"
)

// A pod's generation is set at create and never bumped: its spec barely
// changes (validation says what may).
var _ = Define(Def[*api.Pod]{
	Kind:           "Pod",
	Default:        validation.DefaultPod,
	Validate:       validation.ValidatePod,
	ValidateUpdate: validation.ValidatePodUpdate,
	KeepStatus:     func(obj, old *api.Pod) { obj.Status = old.Status },
	KeepSpec:       func(obj, old *api.Pod) { obj.Spec = old.Spec },
	Columns: []TypedColumn[*api.Pod]{Name[*api.Pod](),
		{Name: "READY", Cell: func(p *api.Pod, now api.Time) string { r, _ := podReady(p, now); return r }},
		{Name: "STATUS", Cell: func(p *api.Pod, _ api.Time) string { return PodStatus(p) }},
		{Name: "RESTARTS", Cell: func(p *api.Pod, now api.Time) string { _, r := podReady(p, now); return r }},
		Age[*api.Pod](),
		{Name: "IP", Wide: true, Cell: func(p *api.Pod, _ api.Time) string { return OrNone(p.Status.PodIP) }},
		{Name: "NODE", Wide: true, Cell: func(p *api.Pod, _ api.Time) string { return OrNone(p.Spec.NodeName) }},
		{Name: "NOMINATED NODE", Wide: true, Cell: func(*api.Pod, api.Time) string { return "<none>" }},
		{Name: "READINESS GATES", Wide: true, Cell: func(*api.Pod, api.Time) string { return "<none>" }},
	},
})
