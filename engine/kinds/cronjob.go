package kinds

import (
	"reflect"

	"reconcile/engine/api"
	"reconcile/engine/validation"
)

var _ = Define(Def[*api.CronJob]{
	Kind:            "CronJob",
	Default:         validation.DefaultCronJob,
	Validate:        validation.ValidateCronJob,
	BumpsGeneration: func(old, new *api.CronJob) bool { return !reflect.DeepEqual(new.Spec, old.Spec) },
	KeepStatus:      func(obj, old *api.CronJob) { obj.Status = old.Status },
	KeepSpec:        func(obj, old *api.CronJob) { obj.Spec = old.Spec },
	Columns: append([]TypedColumn[*api.CronJob]{Name[*api.CronJob](),
		{Name: "SCHEDULE", Cell: func(c *api.CronJob, _ api.Time) string { return c.Spec.Schedule }},
		{Name: "TIMEZONE", Cell: func(c *api.CronJob, _ api.Time) string { return DerefOr(c.Spec.TimeZone, "<none>") }},
		{Name: "SUSPEND", Cell: func(c *api.CronJob, _ api.Time) string {
			if c.Spec.Suspend == nil {
				return "<unset>"
			}
			return map[bool]string{true: "True", false: "False"}[*c.Spec.Suspend]
		}},
		{Name: "ACTIVE", Cell: func(c *api.CronJob, _ api.Time) string { return itoa(len(c.Status.Active)) }},
		{Name: "LAST SCHEDULE", Cell: func(c *api.CronJob, now api.Time) string {
			if c.Status.LastScheduleTime == nil {
				return "<none>"
			}
			return AgeOf(now, *c.Status.LastScheduleTime)
		}},
		Age[*api.CronJob](),
	}, Workload(func(c *api.CronJob) (*api.PodTemplateSpec, *api.LabelSelector) {
		return &c.Spec.JobTemplate.Spec.Template, c.Spec.JobTemplate.Spec.Selector
	}, true)...),
	PodTemplate: func(c *api.CronJob) *api.PodTemplateSpec { return &c.Spec.JobTemplate.Spec.Template },
})
