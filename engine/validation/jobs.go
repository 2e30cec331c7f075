package validation

import (
	"sort"
	"strings"

	"reconcile/engine/api"
)

func defaultJob(j *api.Job) {
	if j.Spec.Parallelism == nil {
		j.Spec.Parallelism = api.Int32(1)
	}
	if j.Spec.Completions == nil {
		j.Spec.Completions = api.Int32(1)
	}
	if j.Spec.BackoffLimit == nil {
		j.Spec.BackoffLimit = api.Int32(6)
	}
	if j.Spec.Template.Labels == nil {
		j.Spec.Template.Labels = map[string]string{}
	}
	if j.Name != "" {
		j.Spec.Template.Labels["batch.kubernetes.io/job-name"] = j.Name
		j.Spec.Template.Labels["job-name"] = j.Name
	}
	if j.Spec.Selector == nil && j.Name != "" {
		j.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"batch.kubernetes.io/job-name": j.Name}}
	}
	// A Job without labels of its own has its template's, the job-name
	// labels with them (as it reads back from the API server), so that
	// kubectl get jobs -l job-name=NAME finds it.
	if len(j.Labels) == 0 && len(j.Spec.Template.Labels) > 0 {
		j.Labels = make(map[string]string, len(j.Spec.Template.Labels))
		// order does not matter: each key is copied
		for k, v := range j.Spec.Template.Labels {
			j.Labels[k] = v
		}
	}
	// batch/v1's SetDefaults_Job
	if j.Spec.CompletionMode == nil {
		j.Spec.CompletionMode = api.String("NonIndexed")
	}
	if j.Spec.Suspend == nil {
		j.Spec.Suspend = api.Bool(false)
	}
	if j.Spec.PodReplacementPolicy == nil {
		if j.Spec.PodFailurePolicy != nil {
			j.Spec.PodReplacementPolicy = api.String("Failed")
		} else {
			j.Spec.PodReplacementPolicy = api.String("TerminatingOrFailed")
		}
	}
	defaultPodSpec(&j.Spec.Template.Spec)
}

func validateJobSpec(s *api.JobSpec, p Path) ErrorList {
	var errs ErrorList
	errs = append(errs, nonNegative(int64(api.Deref(s.Parallelism, 1)), p.Child("parallelism"))...)
	errs = append(errs, nonNegative(int64(api.Deref(s.Completions, 1)), p.Child("completions"))...)
	errs = append(errs, nonNegative(int64(api.Deref(s.BackoffLimit, 6)), p.Child("backoffLimit"))...)
	errs = append(errs, validateJobTemplate(&s.Template, p.Child("template"))...)
	return append(errs, validateJobSpecMore(s, p)...)
}

// validateJobTemplate checks a Job's pod template: a pod that runs to
// completion restarts OnFailure or Never.
func validateJobTemplate(t *api.PodTemplateSpec, p Path) ErrorList {
	errs := validatePodTemplate(t, p)
	if rp := t.Spec.RestartPolicy; rp != "OnFailure" && rp != "Never" {
		if rp == "" || rp == "Always" {
			errs = append(errs, Required(p.Child("spec", "restartPolicy"), `valid values: "OnFailure", "Never"`))
		} else {
			errs = append(errs, NotSupported(p.Child("spec", "restartPolicy"), rp, "OnFailure", "Never"))
		}
	}
	return errs
}

func validateJobUpdate(old, new *api.Job) ErrorList {
	var errs ErrorList
	if !selectorsEqual(old.Spec.Selector, new.Spec.Selector) {
		errs = append(errs, Immutable(Path("spec.selector"), new.Spec.Selector))
	}
	o, n := old.Spec.Template.DeepCopy(), new.Spec.Template.DeepCopy()
	if !templatesEqual(&o, &n) {
		errs = append(errs, Immutable(Path("spec.template"), new.Spec.Template))
	}
	if api.Deref(old.Spec.Completions, 1) != api.Deref(new.Spec.Completions, 1) {
		errs = append(errs, Immutable(Path("spec.completions"), api.Deref(new.Spec.Completions, 1)))
	}
	return errs
}

func templatesEqual(a, b *api.PodTemplateSpec) bool {
	norm := func(m map[string]string) map[string]string {
		if len(m) == 0 {
			return nil
		}
		return m
	}
	return podSpecsEqual(&a.Spec, &b.Spec) && fmtMap(norm(a.Labels)) == fmtMap(norm(b.Labels)) &&
		fmtMap(norm(a.Annotations)) == fmtMap(norm(b.Annotations))
}

func fmtMap(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k + "=" + m[k] + "\x00")
	}
	return b.String()
}
