package kinds

import (
	"fmt"
	"reconcile/engine/api"
	"reconcile/engine/validation"
)

// A Job's status is written with its spec (no status subresource is
// simulated), and its generation is not bumped.
var _ = Define(Def[*api.Job]{
	Kind:           "Job",
	Default:        validation.DefaultJob,
	Validate:       validation.ValidateJob,
	ValidateUpdate: validation.ValidateJobUpdate,
	Columns: append([]TypedColumn[*api.Job]{Name[*api.Job](),
		{Name: "STATUS", Cell: func(j *api.Job, _ api.Time) string { return jobStatus(j) }},
		{Name: "COMPLETIONS", Cell: func(j *api.Job, _ api.Time) string { return jobCompletions(j) }},
		{Name: "DURATION", Cell: func(j *api.Job, now api.Time) string {
			if j.Status.StartTime == nil {
				return "<none>"
			}
			end := now
			if j.Status.CompletionTime != nil {
				end = *j.Status.CompletionTime
			}
			return api.HumanDuration(end - *j.Status.StartTime)
		}},
		Age[*api.Job](),
	}, Workload(func(j *api.Job) (*api.PodTemplateSpec, *api.LabelSelector) { return &j.Spec.Template, j.Spec.Selector }, true)...),
	PodTemplate: func(j *api.Job) *api.PodTemplateSpec { return &j.Spec.Template },
})

func jobStatus(j *api.Job) string {
	status := "Running"
	for _, c := range j.Status.Conditions {
		if c.Status != "True" {
			continue
		}
		switch c.Type {
		case "Complete":
			status = "Complete"
		case "Failed":
			status = "Failed"
		}
	}
	return status
}

func jobCompletions(j *api.Job) string {
	switch {
	case j.Spec.Completions != nil:
		return fmt.Sprintf("%d/%d", j.Status.Succeeded, *j.Spec.Completions)
	case j.Spec.Parallelism != nil && *j.Spec.Parallelism > 1:
		return fmt.Sprintf("%d/1 of %d", j.Status.Succeeded, *j.Spec.Parallelism)
	}
	return fmt.Sprintf("%d/1", j.Status.Succeeded)
}
