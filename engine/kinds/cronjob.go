package kinds

import (
	"reflect"
	"strings"

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
	Describe:    withEvents(describeCronJob),
})

func describeCronJob(w *Describer, c *api.CronJob) {
	w.Line(0, "Name:\t%s\n", c.Name)
	w.Line(0, "Namespace:\t%s\n", c.Namespace)
	labelsBlock(w, "Labels", c.Labels)
	annotationsBlock(w, "Annotations", c.Annotations)
	w.Line(0, "Schedule:\t%s\n", c.Spec.Schedule)
	if c.Spec.TimeZone != nil {
		w.Line(0, "TimeZone:\t%s\n", *c.Spec.TimeZone)
	}
	w.Line(0, "Concurrency Policy:\t%s\n", c.Spec.ConcurrencyPolicy)
	suspend := "<unset>"
	if c.Spec.Suspend != nil {
		suspend = map[bool]string{true: "True", false: "False"}[*c.Spec.Suspend]
	}
	w.Line(0, "Suspend:\t%s\n", suspend)
	int32Line := func(title string, p *int32) {
		if p == nil {
			w.Line(0, "%s:\t<unset>\n", title)
		} else {
			w.Line(0, "%s:\t%d\n", title, *p)
		}
	}
	int32Line("Successful Job History Limit", c.Spec.SuccessfulJobsHistoryLimit)
	int32Line("Failed Job History Limit", c.Spec.FailedJobsHistoryLimit)
	if c.Spec.StartingDeadlineSeconds != nil {
		w.Line(0, "Starting Deadline Seconds:\t%ds\n", *c.Spec.StartingDeadlineSeconds)
	} else {
		w.Line(0, "Starting Deadline Seconds:\t<unset>\n")
	}
	js := c.Spec.JobTemplate.Spec
	if js.Selector != nil {
		w.Line(0, "Selector:\t%s\n", FormatSelector(js.Selector))
	} else {
		w.Line(0, "Selector:\t<unset>\n")
	}
	int32Line("Parallelism", js.Parallelism)
	int32Line("Completions", js.Completions)
	DescribePodTemplate(w, &js.Template)
	if c.Status.LastScheduleTime != nil {
		w.Line(0, "Last Schedule Time:\t%s\n", when(*c.Status.LastScheduleTime))
	} else {
		w.Line(0, "Last Schedule Time:\t<unset>\n")
	}
	var active []string
	for _, r := range c.Status.Active {
		active = append(active, r.Name)
	}
	w.Line(0, "Active Jobs:\t%s\n", OrNone(strings.Join(active, ", ")))
}
