package controller

import (
	"fmt"
	"slices"
	"strings"

	"reconcile/engine/api"
)

// JobTrackingFinalizer is the finalizer the job controller gives the pods
// it creates: a pod that ends, or is deleted, stays until the controller
// has counted it.
const JobTrackingFinalizer = "batch.kubernetes.io/job-tracking"

func tracked(p *api.Pod) bool { return slices.Contains(p.Finalizers, JobTrackingFinalizer) }

// countFinished counts the pods of a Job that ended as the job controller
// does it (trackJobStatusAndRemoveFinalizers, flushUncountedAndRemoveFinalizers):
// the uids of toNote are added to status.uncountedTerminatedPods (succeeded
// or failed, by phase), and the status is written with them; then the
// job-tracking finalizer is removed from every pod that has finished, or
// from all of them (all: the Job finishes), but the pods held (by uid);
// then each uid noted whose pod no longer has the finalizer moves to
// st.Succeeded or st.Failed (cleanUncountedPodsWithoutFinalizers). The
// caller writes that second status.
func countFinished(ctx *Context, job *api.Job, st *api.JobStatus, pods, toNote []*api.Pod, all bool, held map[string]bool) (*api.Job, error) {
	// The controller tracks every Job it syncs with finalizers: the
	// field is set, empty while no pod waits to be counted
	// (uncountedTerminatedPods: {}).
	if st.UncountedTerminatedPods == nil {
		st.UncountedTerminatedPods = &api.UncountedTerminatedPods{}
	}
	withFinalizer := map[string]bool{}
	for _, p := range pods {
		if tracked(p) {
			withFinalizer[string(p.UID)] = true
		}
	}
	// A pod noted in an earlier pass whose finalizer is gone is counted
	// first.
	countReleased(st, withFinalizer)
	noted := uncountedSets(st)
	u := &api.UncountedTerminatedPods{Succeeded: slices.Clone(st.UncountedTerminatedPods.Succeeded), Failed: slices.Clone(st.UncountedTerminatedPods.Failed)}
	added := false
	for _, p := range toNote {
		uid := string(p.UID)
		if noted.succeeded[uid] || noted.failed[uid] {
			continue
		}
		if p.Status.Phase == api.PodSucceeded {
			u.Succeeded, noted.succeeded[uid] = append(u.Succeeded, uid), true
		} else {
			u.Failed, noted.failed[uid] = append(u.Failed, uid), true
		}
		added = true
	}
	st.UncountedTerminatedPods = u
	if !jobStatusEqual(job.Status, *st) {
		report := fmt.Sprintf("active %d, succeeded %d", st.Active, st.Succeeded)
		if added {
			report = "noting finished pods to count"
		}
		n := job.DeepCopy()
		n.Status = *st
		written, err := ctx.UpdateStatus(n, Status(report))
		if err != nil {
			return job, err
		}
		job = written.(*api.Job)
	}
	for _, p := range pods {
		uid := string(p.UID)
		done := p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed || noted.failed[uid]
		if !tracked(p) || held[uid] || !done && !all {
			continue
		}
		if err := release(ctx, p); err != nil {
			return job, err
		}
		delete(withFinalizer, uid)
	}
	countReleased(st, withFinalizer)
	return job, nil
}

// countReleased moves the uids noted in st.uncountedTerminatedPods whose
// pods have no finalizer any more (not in withFinalizer) to the counts.
func countReleased(st *api.JobStatus, withFinalizer map[string]bool) {
	u := st.UncountedTerminatedPods
	keep := func(uids []string) []string {
		var out []string
		for _, uid := range uids {
			if withFinalizer[uid] {
				out = append(out, uid)
			}
		}
		return out
	}
	s, f := keep(u.Succeeded), keep(u.Failed)
	if len(s) == len(u.Succeeded) && len(f) == len(u.Failed) {
		return
	}
	st.Succeeded += int32(len(u.Succeeded) - len(s))
	st.Failed += int32(len(u.Failed) - len(f))
	st.UncountedTerminatedPods = &api.UncountedTerminatedPods{Succeeded: s, Failed: f}
}

// uncounted is what st's uncountedTerminatedPods notes: the pods that
// ended, succeeded or failed, not counted yet.
type uncounted struct{ succeeded, failed map[string]bool }

func uncountedSets(st *api.JobStatus) uncounted {
	n := uncounted{succeeded: map[string]bool{}, failed: map[string]bool{}}
	if u := st.UncountedTerminatedPods; u != nil {
		for _, uid := range u.Succeeded {
			n.succeeded[uid] = true
		}
		for _, uid := range u.Failed {
			n.failed[uid] = true
		}
	}
	return n
}

// releaseTracked removes the job-tracking finalizer from the pods that
// have finished but those held, or from all of them (a Job that has
// finished or fails).
func releaseTracked(ctx *Context, pods []*api.Pod, all bool, held map[string]bool) error {
	for _, p := range pods {
		done := p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed
		if !tracked(p) || !done && !all || held[string(p.UID)] {
			continue
		}
		if err := release(ctx, p); err != nil {
			return err
		}
	}
	return nil
}

func release(ctx *Context, p *api.Pod) error {
	return patchMeta(ctx, p, Do(Remove, "finalizer "+JobTrackingFinalizer+" from pod "+p.Name), func(m *api.ObjectMeta) {
		m.Finalizers = slices.DeleteFunc(slices.Clone(m.Finalizers), func(f string) bool { return f == JobTrackingFinalizer })
	})
}

// releaseOrphans removes the job-tracking finalizer from the pods of the
// Job key, which is gone.
func releaseOrphans(ctx *Context, key string) error {
	ns, name, _ := strings.Cut(key, "/")
	for _, o := range ctx.Cache.List("Pod") {
		p := o.(*api.Pod)
		if ref := p.ControllerOf(); p.Namespace == ns && ref != nil && ref.Kind == "Job" && ref.Name == name && tracked(p) {
			if err := release(ctx, p); err != nil {
				return err
			}
		}
	}
	return nil
}

func uncountedEqual(a, b *api.UncountedTerminatedPods) bool {
	if a == nil || b == nil {
		return a == b
	}
	return slices.Equal(a.Failed, b.Failed) && slices.Equal(a.Succeeded, b.Succeeded)
}
