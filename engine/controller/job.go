package controller

import (
	"fmt"
	"maps"
	"slices"

	"reconcile/engine/api"
	"reconcile/engine/informer"
	"reconcile/engine/store"
)

// JobLoop is the job controller.
//
// Desired: spec.completions pods that ran to success, at most
// spec.parallelism at a time. Observed: the Job's pods by phase. Difference:
// start pods until enough have succeeded, then mark the Job Complete. What
// a Job's pods did outside the cluster — a migration, a message — is not the
// controller's to undo, and nothing here undoes it.
type JobLoop struct {
	// orphans are the cached pods no controller owns (claim.go).
	orphans orphanSet
}

// NewJob returns the job controller.
func NewJob() *JobLoop { return &JobLoop{orphans: orphanSet{}} }

func (j *JobLoop) Name() string      { return JobController }
func (j *JobLoop) Watches() []string { return []string{"Job", "Pod"} }
func (j *JobLoop) Clone() Reconciler { return &JobLoop{orphans: maps.Clone(j.orphans)} }

// Restarted forgets the orphans; a restart lists every pod again.
func (j *JobLoop) Restarted() { j.orphans = orphanSet{} }

// Keys maps a Job to itself and a pod to the Job that owns it.
func (j *JobLoop) Keys(c *informer.Cache, ev store.WatchEvent) []string {
	switch o := ev.Object.(type) {
	case *api.Job:
		return []string{api.RefOf(o).Key()}
	case *api.Pod:
		j.orphans.note(o, ev.Type == store.Deleted)
		var keys []string
		if prev := previousController(c, o, "Job"); prev != "" {
			keys = append(keys, prev) // released: its old Job counts again
		}
		ref := o.ControllerOf()
		switch {
		case ref != nil && ref.Kind == "Job":
			keys = append(keys, o.Namespace+"/"+ref.Name)
		case ref == nil && ev.Type != store.Deleted && o.DeletionTimestamp == nil:
			for _, jo := range c.List("Job") {
				if job := jo.(*api.Job); job.Namespace == o.Namespace && job.DeletionTimestamp == nil && !job.Spec.Selector.Empty() && job.Spec.Selector.Matches(o.Labels) {
					keys = append(keys, api.RefOf(job).Key()) // an orphan: who may adopt it
				}
			}
		}
		return keys
	}
	return nil
}

// Reconcile runs one pass for a Job.
func (j *JobLoop) Reconcile(ctx *Context, req Request) (Result, error) {
	key := req.Key
	job, _ := ctx.Cache.Get("Job", key).(*api.Job)
	if job == nil {
		ctx.Deleted("Job deleted")
		return ctx.NothingToDo(), nil
	}
	want := api.Deref(job.Spec.Completions, 1)
	par := api.Deref(job.Spec.Parallelism, 1)
	var pods []*api.Pod
	for _, o := range ctx.Cache.Owned("Pod", job.UID) {
		pods = append(pods, o.(*api.Pod))
	}
	ref := api.OwnerReference{APIVersion: "batch/v1", Kind: "Job", Name: job.Name, UID: job.UID, Controller: true, BlockOwnerDeletion: true}
	claim, err := claimPods(ctx, job, job.Spec.Selector, ref, j.orphans.in(job.Namespace), pods)
	if err != nil {
		return Result{}, err
	}
	if claim.changed() {
		pods = slices.DeleteFunc(pods, func(p *api.Pod) bool {
			return slices.ContainsFunc(claim.released, func(r *api.Pod) bool { return r.UID == p.UID })
		})
		pods = append(pods, claim.adopted...)
	}
	var active, succeeded, failed int32
	var running []*api.Pod
	for _, p := range pods {
		switch {
		case p.Status.Phase == api.PodSucceeded:
			succeeded++
		case p.Status.Phase == api.PodFailed:
			failed++
		case p.DeletionTimestamp == nil:
			active++
			running = append(running, p)
		}
	}
	ctx.Desired = fmt.Sprintf("%d completion(s), %d at a time", want, par)
	ctx.Observed = fmt.Sprintf("%d active, %d succeeded, %d failed", active, succeeded, failed)
	done := succeeded >= want
	giveUp := failed > api.Deref(job.Spec.BackoffLimit, 6) || pastBackoffLimitOnFailure(job, running) || jobFailed(job)
	start := int32(0)
	if !done && !giveUp {
		start = min(par-active, want-succeeded-active)
	}
	ctx.Difference = fmt.Sprintf("%+d pods to start", start)
	for i := int32(0); i < start; i++ {
		p := podFromJob(job)
		created, err := ctx.Create(p, func(o api.Object) Action { return OnPod(Create, o.Meta().Name, "") })
		if err != nil {
			if err != ErrCrashed {
				ctx.Event(job, "Warning", "FailedCreate", "Error creating: %v", err)
			}
			return Result{}, err
		}
		ctx.Event(job, "Normal", "SuccessfulCreate", "Created pod: %s", created.Meta().Name)
	}
	st := job.DeepCopy().Status
	st.Active, st.Succeeded, st.Failed = active+start, succeeded, failed
	if st.StartTime == nil {
		t := ctx.Now
		st.StartTime = &t
	}
	if done && len(st.Conditions) == 0 {
		t := ctx.Now
		st.CompletionTime = &t
		st.Conditions = []api.JobCondition{{Type: "SuccessCriteriaMet", Status: "True", LastTransitionTime: t, Reason: "CompletionsReached", Message: "Reached expected number of succeeded pods"},
			{Type: "Complete", Status: "True", LastTransitionTime: t, Reason: "CompletionsReached", Message: "Reached expected number of succeeded pods"}}
		ctx.Event(job, "Normal", "Completed", "Job completed")
	}
	if giveUp && len(st.Conditions) == 0 {
		// The pods that still run (restarting in place) are stopped.
		for _, p := range running {
			if err := ctx.Delete("Pod", p.Namespace, p.Name, false, OnPod(Delete, p.Name, "(backoff limit reached)")); err != nil {
				return Result{}, err
			}
		}
		st.Active = 0
		t := ctx.Now
		st.Conditions = []api.JobCondition{{Type: "Failed", Status: "True", LastTransitionTime: t, Reason: "BackoffLimitExceeded", Message: "Job has reached the specified backoff limit"}}
		ctx.Event(job, "Warning", "BackoffLimitExceeded", "Job has reached the specified backoff limit")
	}
	if !jobStatusEqual(job.Status, st) {
		n := job.DeepCopy()
		n.Status = st
		if _, err := ctx.UpdateStatus(n, Status(fmt.Sprintf("active %d, succeeded %d", st.Active, st.Succeeded))); err != nil {
			return Result{}, err
		}
	}
	if start == 0 {
		return ctx.NothingToDo(), nil
	}
	return Result{Outcome: Acted}, nil
}

func jobStatusEqual(a, b api.JobStatus) bool {
	return a.Active == b.Active && a.Succeeded == b.Succeeded && a.Failed == b.Failed && len(a.Conditions) == len(b.Conditions) &&
		(a.StartTime == nil) == (b.StartTime == nil)
}

func podFromJob(j *api.Job) *api.Pod {
	t := j.Spec.Template.DeepCopy()
	return &api.Pod{
		TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{GenerateName: j.Name + "-", Namespace: j.Namespace, Labels: t.Labels, Annotations: t.Annotations,
			OwnerReferences: []api.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: j.Name, UID: j.UID, Controller: true, BlockOwnerDeletion: true}}},
		Spec:   t.Spec,
		Status: api.PodStatus{Phase: api.PodPending},
	}
}

// pastBackoffLimitOnFailure reports whether the pods of a Job with
// restartPolicy OnFailure, restarted in place by their kubelet, have
// restarted backoffLimit times between them (any restart for a limit of 0).
func pastBackoffLimitOnFailure(job *api.Job, active []*api.Pod) bool {
	if job.Spec.Template.Spec.RestartPolicy != "OnFailure" {
		return false
	}
	var restarts int32
	for _, p := range active {
		for _, cs := range append(append([]api.ContainerStatus(nil), p.Status.InitContainerStatuses...), p.Status.ContainerStatuses...) {
			restarts += cs.RestartCount
		}
	}
	limit := api.Deref(job.Spec.BackoffLimit, 6)
	if limit == 0 {
		return restarts > 0
	}
	return restarts >= limit
}

// jobFailed reports whether the Job has already failed: it starts no pod.
func jobFailed(job *api.Job) bool {
	for _, c := range job.Status.Conditions {
		if c.Type == "Failed" && c.Status == "True" {
			return true
		}
	}
	return false
}
