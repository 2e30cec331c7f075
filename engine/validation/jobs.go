package validation

import (
	"maps"
	"reflect"
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
	// batch/v1's SetDefaults_Job gives a Job without labels its template's
	// map itself: the labels the create then adds to the template
	// (GenerateJobSelector) are the Job's too, as a Job reads back from the
	// API server (kubectl get jobs -l job-name=NAME finds it).
	// A stored Job (an update) gets a copy.
	if len(j.Labels) == 0 && j.Spec.Template.Labels != nil {
		j.Labels = j.Spec.Template.Labels
		if j.UID != "" {
			j.Labels = maps.Clone(j.Labels)
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

// GenerateJobSelector is what the Job strategy does on a create
// (pkg/registry/batch/job/strategy.go, generateSelector), the Job's uid
// known: unless spec.manualSelector, the template gets the job-name and
// controller-uid labels (each under its legacy and its
// batch.kubernetes.io/ name) and the selector matches
// batch.kubernetes.io/controller-uid=<uid>. A Job without labels of its
// own reads back with its template's.
func GenerateJobSelector(j *api.Job) {
	shared := len(j.Labels) > 0 && sameMap(j.Labels, j.Spec.Template.Labels)
	if j.Spec.ManualSelector == nil || !*j.Spec.ManualSelector {
		if j.Spec.Template.Labels == nil {
			j.Spec.Template.Labels = map[string]string{}
		}
		l := j.Spec.Template.Labels
		for _, k := range []string{"job-name", "batch.kubernetes.io/job-name"} {
			if _, ok := l[k]; !ok {
				l[k] = j.Name
			}
		}
		for _, k := range []string{"controller-uid", "batch.kubernetes.io/controller-uid"} {
			if _, ok := l[k]; !ok {
				l[k] = j.UID
			}
		}
		if j.Spec.Selector == nil {
			j.Spec.Selector = &api.LabelSelector{}
		}
		if j.Spec.Selector.MatchLabels == nil {
			j.Spec.Selector.MatchLabels = map[string]string{}
		}
		if _, ok := j.Spec.Selector.MatchLabels["batch.kubernetes.io/controller-uid"]; !ok {
			j.Spec.Selector.MatchLabels["batch.kubernetes.io/controller-uid"] = j.UID
		}
	}
	// The stored Job holds maps of its own; one without labels reads back
	// with its template's (batch/v1's defaults, applied on every read).
	if shared || len(j.Labels) == 0 {
		j.Labels = maps.Clone(j.Spec.Template.Labels)
	}
}

// sameMap reports whether a and b are one map (not two equal ones).
func sameMap(a, b map[string]string) bool {
	return a != nil && b != nil && reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
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
