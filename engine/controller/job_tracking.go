package controller

import (
	"slices"
	"strings"

	"reconcile/engine/api"
)

// JobTrackingFinalizer is the finalizer the job controller gives the pods
// it creates: a pod that ends, or is deleted, stays until the controller
// has counted it.
const JobTrackingFinalizer = "batch.kubernetes.io/job-tracking"

func tracked(p *api.Pod) bool { return slices.Contains(p.Finalizers, JobTrackingFinalizer) }

// countFinished counts the failed pods in finished, each once, and lets go
// of every pod of the Job that has finished: their uids are written to
// status.uncountedTerminatedPods.failed first, then their finalizers are
// removed, then the noted pods (no longer held) are counted in st.Failed.
// The pods held (by uid) keep their finalizer.
func (j *JobLoop) countFinished(ctx *Context, job *api.Job, st *api.JobStatus, pods, finished []*api.Pod, held map[string]bool) (*api.Job, error) {
	// The controller tracks every Job it syncs with finalizers: the
	// field is set, empty while no pod waits to be counted
	// (uncountedTerminatedPods: {}).
	if st.UncountedTerminatedPods == nil {
		st.UncountedTerminatedPods = &api.UncountedTerminatedPods{}
	}
	noted := uncountedFailed(st)
	var add []string
	for _, p := range finished {
		if !noted[string(p.UID)] {
			add = append(add, string(p.UID))
			noted[string(p.UID)] = true
		}
	}
	if len(add) > 0 {
		st.UncountedTerminatedPods = &api.UncountedTerminatedPods{Succeeded: st.UncountedTerminatedPods.Succeeded}
		st.UncountedTerminatedPods.Failed = append(slices.Clone(st.UncountedTerminatedPods.Failed), add...)
		n := job.DeepCopy()
		n.Status = *st
		written, err := ctx.UpdateStatus(n, Status("noting failed pods to count"))
		if err != nil {
			return job, err
		}
		job = written.(*api.Job)
	}
	if err := releaseTracked(ctx, pods, false, held); err != nil {
		return job, err
	}
	for _, p := range finished {
		if p.DeletionTimestamp != nil && p.Status.Phase != api.PodFailed && tracked(p) {
			if err := release(ctx, p); err != nil { // counted while it terminates
				return job, err
			}
		}
	}
	if len(st.UncountedTerminatedPods.Failed) == 0 {
		return job, nil
	}
	// None of the noted pods is held any more: they are counted.
	st.Failed += int32(len(st.UncountedTerminatedPods.Failed))
	st.UncountedTerminatedPods = &api.UncountedTerminatedPods{}
	return job, nil
}

// uncountedFailed is the set of the uids in st's
// uncountedTerminatedPods.failed: failed pods noted, not counted yet.
func uncountedFailed(st *api.JobStatus) map[string]bool {
	noted := map[string]bool{}
	if u := st.UncountedTerminatedPods; u != nil {
		for _, uid := range u.Failed {
			noted[uid] = true
		}
	}
	return noted
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
