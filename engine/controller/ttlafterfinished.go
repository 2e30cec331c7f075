package controller

import (
	"fmt"

	"reconcile/engine/api"
	"reconcile/engine/informer"
	"reconcile/engine/store"
)

// TTLAfterFinishedController is the component that deletes finished Jobs
// whose spec.ttlSecondsAfterFinished has run out.
const TTLAfterFinishedController = "ttl-after-finished-controller"

// TTLAfterFinished is the TTL-after-finished controller
// (pkg/controller/ttlafterfinished).
//
// Desired: a Job that has finished (Complete or Failed) and sets
// ttlSecondsAfterFinished is gone that many seconds after it finished.
// Observed: when it finished. Difference: wait until then, then delete it
// with propagationPolicy Foreground, so that its pods go first.
type TTLAfterFinished struct{}

// NewTTLAfterFinished returns the TTL-after-finished controller.
func NewTTLAfterFinished() *TTLAfterFinished { return &TTLAfterFinished{} }

func (t *TTLAfterFinished) Name() string      { return TTLAfterFinishedController }
func (t *TTLAfterFinished) Watches() []string { return []string{"Job"} }
func (t *TTLAfterFinished) Clone() Reconciler { return &TTLAfterFinished{} }

// Keys maps a Job that needs cleaning up to itself: one not being deleted,
// with a TTL, finished.
func (t *TTLAfterFinished) Keys(_ *informer.Cache, ev store.WatchEvent) []string {
	if j, ok := ev.Object.(*api.Job); ok && ev.Type != store.Deleted && j.DeletionTimestamp == nil && needsCleanup(j) {
		return []string{api.RefOf(j).Key()}
	}
	return nil
}

// needsCleanup reports whether a Job has a TTL and has finished.
func needsCleanup(j *api.Job) bool {
	_, ok := jobFinishTime(j)
	return j.Spec.TTLSecondsAfterFinished != nil && ok
}

// jobFinishTime is when the Job's Complete or Failed condition became
// True.
func jobFinishTime(j *api.Job) (api.Time, bool) {
	for _, c := range j.Status.Conditions {
		if (c.Type == "Complete" || c.Type == "Failed") && c.Status == "True" {
			return c.LastTransitionTime, true
		}
	}
	return 0, false
}

// Reconcile runs one pass for a Job.
func (t *TTLAfterFinished) Reconcile(ctx *Context, req Request) (Result, error) {
	job, _ := ctx.Cache.Get("Job", req.Key).(*api.Job)
	if job == nil {
		ctx.Deleted("Job deleted")
		return ctx.NothingToDo(), nil
	}
	if job.DeletionTimestamp != nil || !needsCleanup(job) {
		ctx.Desired, ctx.Observed = "nothing to clean up", "no TTL, or not finished"
		return ctx.NothingToDo(), nil
	}
	finished, _ := jobFinishTime(job)
	ttl := api.Duration(*job.Spec.TTLSecondsAfterFinished) * api.Second
	expire := finished + api.Time(ttl)
	ctx.Desired = fmt.Sprintf("job %s gone %s after it finished", job.Name, api.HumanDuration(ttl))
	ctx.Observed = fmt.Sprintf("finished %s ago", api.HumanDuration(ctx.Now-finished))
	if ctx.Now < expire {
		ctx.Difference = "not yet"
		return Result{Outcome: InSync, RequeueAfter: expire - ctx.Now, RequeueReason: RequeueTTLAfterFinished}, nil
	}
	ctx.Difference = "its TTL has run out"
	a := On(Delete, "job", job.Name, "(TTL after finished)")
	if err := ctx.act(a, func() error {
		_, err := ctx.API.DeleteWith("Job", job.Namespace, job.Name, store.DeleteOptions{PropagationPolicy: store.Foreground})
		return err
	}); err != nil {
		return Result{}, err
	}
	return Result{Outcome: Acted}, nil
}
