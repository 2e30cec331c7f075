package controller

import (
	"errors"
	"fmt"
	"sort"
	"time"

	"reconcile/engine/api"
	"reconcile/engine/cron"
	"reconcile/engine/informer"
	"reconcile/engine/store"
)

// CronJobLoop is the cronjob controller.
//
// Desired: a Job for the latest time the schedule fired (read in the
// simulated clock, rendered from its fixed epoch, in UTC), unless the
// CronJob is suspended, the time is older than startingDeadlineSeconds, or
// the concurrency policy forbids it while a Job runs; and no more finished
// Jobs than the history limits keep. Observed: the CronJob's Jobs and its
// status (active, lastScheduleTime). Difference: note the Jobs that
// finished, delete the oldest beyond the limits, start the Job that is due
// (named <cronjob>-<scheduled time in minutes since the Unix epoch>), and
// come back at the next time the schedule fires.
type CronJobLoop struct{}

// CronJobController is the component's name.
const CronJobController = "cronjob-controller"

// nextScheduleDelta is how long after a scheduled time the controller
// looks again, so that the time has surely passed.
const nextScheduleDelta = 100 * api.Millisecond

// tooManyMissed is how many missed times the controller tolerates before
// it warns.
const tooManyMissed = 100

// NewCronJob returns the cronjob controller.
func NewCronJob() *CronJobLoop { return &CronJobLoop{} }

func (c *CronJobLoop) Name() string      { return CronJobController }
func (c *CronJobLoop) Watches() []string { return []string{"CronJob", "Job"} }
func (c *CronJobLoop) Clone() Reconciler { return &CronJobLoop{} }

// Keys maps a CronJob to itself and a Job to the CronJob that owns it.
func (c *CronJobLoop) Keys(_ *informer.Cache, ev store.WatchEvent) []string {
	switch o := ev.Object.(type) {
	case *api.CronJob:
		return []string{api.RefOf(o).Key()}
	case *api.Job:
		if ref := o.ControllerOf(); ref != nil && ref.Kind == "CronJob" {
			return []string{o.Namespace + "/" + ref.Name}
		}
	}
	return nil
}

// jobFinished returns "Complete" or "Failed" for a finished Job, else "".
func jobFinished(j *api.Job) string {
	for _, c := range j.Status.Conditions {
		if (c.Type == "Complete" || c.Type == "Failed") && c.Status == "True" {
			return c.Type
		}
	}
	return ""
}

// CronJobName is the name of the Job a CronJob creates for a scheduled
// time: the minutes since the Unix epoch.
func CronJobName(cj string, scheduled api.Time) string {
	return fmt.Sprintf("%s-%d", cj, scheduled.Wall().Unix()/60)
}

// fromWall turns a wall-clock instant back into simulated time.
func fromWall(t time.Time) api.Time { return api.Time(t.Sub(api.Epoch) / time.Millisecond) }

// Reconcile runs one pass for a CronJob.
func (c *CronJobLoop) Reconcile(ctx *Context, req Request) (Result, error) {
	cj, _ := ctx.Cache.Get("CronJob", req.Key).(*api.CronJob)
	if cj == nil {
		ctx.Deleted("CronJob deleted")
		return ctx.NothingToDo(), nil
	}
	st := cj.DeepCopy().Status
	var jobs []*api.Job
	for _, o := range ctx.Cache.Owned("Job", cj.UID) {
		jobs = append(jobs, o.(*api.Job))
	}
	sort.SliceStable(jobs, func(i, j int) bool { return jobs[i].CreationTimestamp < jobs[j].CreationTimestamp })
	// What finished since the last pass, and what went missing.
	var active []api.ObjectReference
	isActive := map[string]bool{} // lookup only
	for _, j := range jobs {
		if jobFinished(j) == "" {
			active = append(active, api.ObjectReference{Kind: "Job", Namespace: j.Namespace, Name: j.Name, UID: j.UID, APIVersion: "batch/v1"})
			isActive[j.UID] = true
		}
	}
	for _, ref := range st.Active {
		j, _ := ctx.Cache.Get("Job", ref.Namespace+"/"+ref.Name).(*api.Job)
		switch {
		case j == nil || j.UID != ref.UID:
			ctx.Event(cj, "Warning", "MissingJob", "Active job went missing: %v", ref.Name)
		case !isActive[j.UID]:
			cond := jobFinished(j)
			ctx.Event(cj, "Normal", "SawCompletedJob", "Saw completed job: %s, condition: %v", j.Name, cond)
			if cond == "Complete" && j.Status.CompletionTime != nil && (st.LastSuccessfulTime == nil || *st.LastSuccessfulTime < *j.Status.CompletionTime) {
				t := *j.Status.CompletionTime
				st.LastSuccessfulTime = &t
			}
		}
	}
	st.Active = active
	suspended := cj.Spec.Suspend != nil && *cj.Spec.Suspend
	ctx.Desired = fmt.Sprintf("a Job each time %q fires", cj.Spec.Schedule)
	if suspended {
		ctx.Desired = "suspended: no new Jobs"
	}
	ctx.Observed = fmt.Sprintf("%d active Job(s), %d finished", len(active), len(jobs)-len(active))
	acted := false
	// History: the oldest finished Jobs beyond the limits go.
	deleted, err := c.cleanHistory(ctx, cj, jobs)
	if err != nil {
		return Result{}, err
	}
	acted = deleted > 0
	var res Result
	var diff []string
	if deleted > 0 {
		diff = append(diff, fmt.Sprintf("%d old Job(s) beyond the history limits", deleted))
	}
	if !suspended && cj.DeletionTimestamp == nil {
		created, next, why, err := c.schedule(ctx, cj, &st)
		if err != nil {
			return Result{}, err
		}
		if why != "" {
			diff = append(diff, why)
		}
		acted = acted || created
		if next > 0 {
			res.RequeueAfter, res.RequeueReason = next-ctx.Now, RequeueNextSchedule(next)
		}
	}
	if len(diff) == 0 {
		diff = append(diff, "none")
	}
	ctx.Difference = joinWords(diff)
	if !cronStatusEqual(cj.Status, st) {
		n := cj.DeepCopy()
		n.Status = st
		if _, err := ctx.UpdateStatus(n, Status(fmt.Sprintf("%d active", len(st.Active)))); err != nil {
			return Result{}, err
		}
	}
	if acted {
		res.Outcome = Acted
	} else {
		res.Outcome = InSync
	}
	return res, nil
}

func joinWords(parts []string) string {
	out := parts[0]
	for _, p := range parts[1:] {
		out += "; " + p
	}
	return out
}

// schedule starts the Job that is due, if any, and returns when the
// schedule next fires (0: never).
func (c *CronJobLoop) schedule(ctx *Context, cj *api.CronJob, st *api.CronJobStatus) (created bool, next api.Time, why string, err error) {
	sched, perr := cron.Parse(cj.Spec.Schedule)
	if perr != nil {
		ctx.Event(cj, "Warning", "UnparseableSchedule", "unparseable schedule for cronjob: %s", cj.Spec.Schedule)
		return false, 0, "unparseable schedule", nil
	}
	if tz := cj.Spec.TimeZone; tz != nil && *tz != "UTC" && *tz != "Etc/UTC" {
		ctx.Event(cj, "Warning", "UnknownTimeZone", "invalid timeZone: %q: only UTC is simulated", *tz)
		return false, 0, "time zone " + *tz + " not simulated", nil
	}
	earliest := cj.CreationTimestamp
	if st.LastScheduleTime != nil {
		earliest = *st.LastScheduleTime
	}
	var deadline api.Duration = -1
	if d := cj.Spec.StartingDeadlineSeconds; d != nil {
		deadline = api.Duration(*d) * api.Second
		if ctx.Now-deadline > earliest {
			earliest = ctx.Now - deadline
		}
	}
	// The latest time the schedule fired in (earliest, now], and how many
	// times it fired there.
	var due api.Time
	missed := 0
	for t := earliest.Wall(); ; {
		n, ok := sched.Next(t)
		if !ok || fromWall(n) > ctx.Now {
			if ok {
				next = fromWall(n) + nextScheduleDelta
			}
			break
		}
		due, t = fromWall(n), n
		missed++
	}
	if missed > tooManyMissed {
		ctx.Event(cj, "Warning", "TooManyMissedTimes", "too many missed start times: %d. Set or decrease .spec.startingDeadlineSeconds or check clock skew", missed)
	}
	if missed == 0 {
		return false, next, fmt.Sprintf("nothing due; next at t=%s", (next - nextScheduleDelta).String()), nil
	}
	if deadline >= 0 && due+deadline < ctx.Now {
		ctx.Event(cj, "Warning", "MissSchedule", "Missed scheduled time to start a job: %s", due.Wall().Format(time.RFC1123Z))
		return false, next, "missed the starting deadline", nil
	}
	if len(st.Active) > 0 {
		switch cj.Spec.ConcurrencyPolicy {
		case api.ForbidConcurrent:
			ctx.Event(cj, "Normal", "JobAlreadyActive", "Not starting job because prior execution is running and concurrency policy is Forbid")
			return false, next, "a Job is still running (Forbid)", nil
		case api.ReplaceConcurrent:
			for _, ref := range st.Active {
				if err := ctx.Delete("Job", ref.Namespace, ref.Name, false, On(Delete, "job", ref.Name, "(Replace)")); err != nil {
					if err == ErrCrashed {
						return false, 0, "", err
					}
					ctx.Event(cj, "Warning", "FailedDelete", "Deleted job: %v", err)
					return false, 0, "", err
				}
				ctx.Event(cj, "Normal", "SuccessfulDelete", "Deleted job %v", ref.Name)
			}
			st.Active = nil
			created = true
		}
	}
	job := jobFromCronJob(cj, due)
	out, err := ctx.Create(job, func(o api.Object) Action { return On(Create, "job", o.Meta().Name, "") })
	switch {
	case err == ErrCrashed:
		return created, 0, "", err
	case errors.Is(err, store.ErrExists):
		// made by an earlier pass whose write the cache has not shown
	case err != nil:
		ctx.Event(cj, "Warning", "FailedCreate", "Error creating job: %v", err)
		return created, 0, "", err
	default:
		ctx.Event(cj, "Normal", "SuccessfulCreate", "Created job %v", out.Meta().Name)
		st.Active = append(st.Active, api.ObjectReference{Kind: "Job", Namespace: out.Meta().Namespace, Name: out.Meta().Name, UID: out.Meta().UID, APIVersion: "batch/v1"})
		created = true
	}
	t0 := due
	st.LastScheduleTime = &t0
	return created, next, fmt.Sprintf("the time %s is due", due.Wall().Format("15:04")), nil
}

// cleanHistory deletes the oldest finished Jobs beyond the history
// limits, successful and failed counted apart.
func (c *CronJobLoop) cleanHistory(ctx *Context, cj *api.CronJob, jobs []*api.Job) (int, error) {
	var ok, failed []*api.Job
	for _, j := range jobs {
		switch jobFinished(j) {
		case "Complete":
			ok = append(ok, j)
		case "Failed":
			failed = append(failed, j)
		}
	}
	deleted := 0
	for _, g := range []struct {
		jobs  []*api.Job
		limit *int32
	}{{ok, cj.Spec.SuccessfulJobsHistoryLimit}, {failed, cj.Spec.FailedJobsHistoryLimit}} {
		if g.limit == nil || len(g.jobs) <= int(*g.limit) {
			continue
		}
		for _, j := range g.jobs[:len(g.jobs)-int(*g.limit)] {
			err := ctx.Delete("Job", j.Namespace, j.Name, false, On(Delete, "job", j.Name, "(history limit)"))
			if err == ErrCrashed {
				return deleted, err
			}
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				ctx.Event(cj, "Warning", "FailedDelete", "Deleted job: %v", err)
				return deleted, err
			}
			ctx.Event(cj, "Normal", "SuccessfulDelete", "Deleted job %v", j.Name)
			deleted++
		}
	}
	return deleted, nil
}

// jobFromCronJob makes the Job of a scheduled time from the template.
func jobFromCronJob(cj *api.CronJob, scheduled api.Time) *api.Job {
	t := cj.Spec.JobTemplate.DeepCopy()
	ann := map[string]string{}
	for k, v := range t.Annotations {
		ann[k] = v
	}
	ann["batch.kubernetes.io/cronjob-scheduled-timestamp"] = scheduled.Wall().Format(time.RFC3339)
	return &api.Job{
		TypeMeta: api.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
		ObjectMeta: api.ObjectMeta{Name: CronJobName(cj.Name, scheduled), Namespace: cj.Namespace, Labels: t.Labels, Annotations: ann,
			OwnerReferences: []api.OwnerReference{{APIVersion: "batch/v1", Kind: "CronJob", Name: cj.Name, UID: cj.UID, Controller: true, BlockOwnerDeletion: true}}},
		Spec: t.Spec,
	}
}

func cronStatusEqual(a, b api.CronJobStatus) bool {
	if len(a.Active) != len(b.Active) || (a.LastScheduleTime == nil) != (b.LastScheduleTime == nil) || (a.LastSuccessfulTime == nil) != (b.LastSuccessfulTime == nil) {
		return false
	}
	for i := range a.Active {
		if a.Active[i] != b.Active[i] {
			return false
		}
	}
	if a.LastScheduleTime != nil && *a.LastScheduleTime != *b.LastScheduleTime {
		return false
	}
	return a.LastSuccessfulTime == nil || *a.LastSuccessfulTime == *b.LastSuccessfulTime
}
