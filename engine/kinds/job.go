package kinds

import (
	"fmt"
	"reconcile/engine/api"
	"reconcile/engine/validation"
	"strings"
)

// A Job's status is written with its spec (no status subresource is
// simulated), and its generation is not bumped.
var _ = Define(Def[*api.Job]{
	Kind:    "Job",
	Default: validation.DefaultJob,
	// the selector and the template's labels that name the Job's uid
	PrepareForCreate: validation.GenerateJobSelector,
	Validate:         validation.ValidateJob,
	ValidateUpdate:   validation.ValidateJobUpdate,
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
	Describe:    withEvents(describeJob),
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

func describeJob(w *Describer, j *api.Job) {
	w.Line(0, "Name:\t%s\n", j.Name)
	w.Line(0, "Namespace:\t%s\n", j.Namespace)
	w.Line(0, "Selector:\t%s\n", strings.TrimSuffix(FormatSelector(j.Spec.Selector), "<none>"))
	labelsBlock(w, "Labels", j.Labels)
	annotationsBlock(w, "Annotations", j.Annotations)
	if ref := j.ControllerOf(); ref != nil {
		w.Line(0, "Controlled By:\t%s/%s\n", ref.Kind, ref.Name)
	}
	if j.Spec.Parallelism != nil {
		w.Line(0, "Parallelism:\t%d\n", *j.Spec.Parallelism)
	}
	if j.Spec.Completions != nil {
		w.Line(0, "Completions:\t%d\n", *j.Spec.Completions)
	} else {
		w.Line(0, "Completions:\t<unset>\n")
	}
	if j.Spec.CompletionMode != nil {
		w.Line(0, "Completion Mode:\t%s\n", *j.Spec.CompletionMode)
	}
	if j.Spec.Suspend != nil {
		w.Line(0, "Suspend:\t%v\n", *j.Spec.Suspend)
	}
	if j.Spec.BackoffLimit != nil {
		w.Line(0, "Backoff Limit:\t%v\n", *j.Spec.BackoffLimit)
	}
	if j.Spec.TTLSecondsAfterFinished != nil {
		w.Line(0, "TTL Seconds After Finished:\t%v\n", *j.Spec.TTLSecondsAfterFinished)
	}
	if j.Status.StartTime != nil {
		w.Line(0, "Start Time:\t%s\n", when(*j.Status.StartTime))
	}
	if j.Status.CompletionTime != nil {
		w.Line(0, "Completed At:\t%s\n", when(*j.Status.CompletionTime))
	}
	if j.Status.StartTime != nil && j.Status.CompletionTime != nil {
		w.Line(0, "Duration:\t%s\n", api.HumanDuration(*j.Status.CompletionTime-*j.Status.StartTime))
	}
	if j.Spec.ActiveDeadlineSeconds != nil {
		w.Line(0, "Active Deadline Seconds:\t%ds\n", *j.Spec.ActiveDeadlineSeconds)
	}
	if j.Status.Ready == nil {
		w.Line(0, "Pods Statuses:\t%d Active / %d Succeeded / %d Failed\n", j.Status.Active, j.Status.Succeeded, j.Status.Failed)
	} else {
		w.Line(0, "Pods Statuses:\t%d Active (%d Ready) / %d Succeeded / %d Failed\n", j.Status.Active, *j.Status.Ready, j.Status.Succeeded, j.Status.Failed)
	}
	if j.Spec.CompletionMode != nil && *j.Spec.CompletionMode == "Indexed" {
		w.Line(0, "Completed Indexes:\t%s\n", OrNone(j.Status.CompletedIndexes))
	}
	DescribePodTemplate(w, &j.Spec.Template)
}
