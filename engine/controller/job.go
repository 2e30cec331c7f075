package controller

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/informer"
	"reconcile/engine/store"
)

// JobLoop is the job controller.
//
// Desired: spec.completions pods that ran to success, at most
// spec.parallelism at a time. Observed: the Job's pods by phase. Difference:
// start pods until enough have succeeded, then mark the Job Complete; after
// pods failed, wait out the pod failure back-off (10 s, doubled for each
// failure in a row, at most 10 minutes; per index with a backoff limit per
// index) before starting more. What
// a Job's pods did outside the cluster — a migration, a message — is not the
// controller's to undo, and nothing here undoes it.
type JobLoop struct {
	// orphans are the cached pods no controller owns (claim.go).
	orphans orphanSet
	// backoff is each Job's record of failed pods, by key: the pod
	// failure back-off.
	backoff map[string]backoffRecord
}

// NewJob returns the job controller.
func NewJob() *JobLoop { return &JobLoop{orphans: orphanSet{}, backoff: map[string]backoffRecord{}} }

func (j *JobLoop) Name() string      { return JobController }
func (j *JobLoop) Watches() []string { return []string{"Job", "Pod"} }
func (j *JobLoop) Clone() Reconciler {
	return &JobLoop{orphans: maps.Clone(j.orphans), backoff: maps.Clone(j.backoff)}
}

// Restarted forgets the orphans, which a restart lists again, and the
// back-off records, which it does not keep.
func (j *JobLoop) Restarted() { j.orphans, j.backoff = orphanSet{}, map[string]backoffRecord{} }

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
		delete(j.backoff, key)
		ctx.Deleted("Job deleted")
		// Its pods, which the garbage collector deletes, are held for it
		// no longer.
		if err := releaseOrphans(ctx, key); err != nil {
			return Result{}, err
		}
		if len(ctx.Actions) > 0 {
			return Result{Outcome: Acted}, nil
		}
		return ctx.NothingToDo(), nil
	}
	want := api.Deref(job.Spec.Completions, 1)
	par := api.Deref(job.Spec.Parallelism, 1)
	var pods []*api.Pod
	for _, o := range ctx.Cache.Owned("Pod", job.UID) {
		pods = append(pods, o.(*api.Pod))
	}
	ref := api.OwnerReference{APIVersion: "batch/v1", Kind: "Job", Name: job.Name, UID: job.UID, Controller: true, BlockOwnerDeletion: true}
	claim, err := claimPods(ctx, job, job.Spec.Selector, ref, j.orphans.in(job.Namespace), pods, JobTrackingFinalizer)
	if err != nil {
		return Result{}, err
	}
	if claim.changed() {
		pods = slices.DeleteFunc(pods, func(p *api.Pod) bool {
			return slices.ContainsFunc(claim.released, func(r *api.Pod) bool { return r.UID == p.UID })
		})
		pods = append(pods, claim.adopted...)
	}
	ctx.Desired = fmt.Sprintf("%d completion(s), %d at a time", want, par)
	if finished := jobFinishedCondition(job); finished != "" {
		// A finished Job is not synced again: its counts stay as they
		// were, and no pod of it is held for counting any more.
		ctx.Observed = fmt.Sprintf("%d succeeded, %d failed, %s", job.Status.Succeeded, job.Status.Failed, strings.ToLower(finished))
		ctx.Difference = "+0 pods to start"
		delete(j.backoff, key)
		if err := releaseTracked(ctx, pods, true, nil); err != nil {
			return Result{}, err
		}
		if len(ctx.Actions) > 0 {
			return Result{Outcome: Acted}, nil
		}
		return ctx.NothingToDo(), nil
	}
	var active, ready, terminating int32
	var running []*api.Pod
	// What the pod failure policy makes of the failed pods: ignored ones
	// are not counted, a FailJob match fails the Job, a FailIndex match
	// its pod's index.
	var policyFail *api.JobCondition
	suspendedNow := job.Spec.Suspend != nil && *job.Spec.Suspend
	replaceFailedOnly := job.Spec.PodReplacementPolicy != nil && *job.Spec.PodReplacementPolicy == "Failed"
	// The pods the job-tracking finalizer holds and the Job has not noted
	// in status.uncountedTerminatedPods yet (getNewFinishedPods): they
	// ended since the last pass, and the back-off record counts them.
	var newSucceeded, newFailed []*api.Pod
	var finished []*api.Pod // failed pods held for counting, the ones to count
	counted := map[string]bool{}
	failIndex := map[string]bool{} // the failed pods a FailIndex rule matched
	noted := uncountedSets(&job.Status)
	for _, p := range pods {
		uid := string(p.UID)
		switch {
		case p.Status.Phase == api.PodSucceeded:
			if tracked(p) && !noted.succeeded[uid] && !noted.failed[uid] {
				newSucceeded = append(newSucceeded, p)
			}
		case p.Status.Phase == api.PodFailed && suspendedNow && p.DeletionTimestamp != nil:
			continue // deleted by the suspension: not a failure
		case p.Status.Phase == api.PodFailed:
			if tracked(p) && !noted.failed[uid] {
				newFailed = append(newFailed, p) // an ignored failure too
			}
			action, msg := matchPodFailurePolicy(job.Spec.PodFailurePolicy, p)
			switch action {
			case "Ignore":
				continue
			case "FailJob":
				if policyFail == nil {
					policyFail = &api.JobCondition{Type: "FailureTarget", Status: "True", Reason: "PodFailurePolicy", Message: msg}
				}
			case "FailIndex":
				failIndex[uid] = true
			}
			counted[uid] = true
			if tracked(p) {
				finished = append(finished, p)
			}
		case p.DeletionTimestamp != nil && tracked(p) && !suspendedNow && !replaceFailedOnly:
			// A deleted pod still held for counting is a failure at once
			// when any terminating pod is replaced: it may never reach the
			// phase Failed (podReplacementPolicy TerminatingOrFailed).
			counted[uid] = true
			finished = append(finished, p)
			terminating++
			if !noted.failed[uid] {
				newFailed = append(newFailed, p)
			}
		case p.DeletionTimestamp != nil:
			terminating++
		default:
			active++
			running = append(running, p)
			if IsPodReady(p) {
				ready++
			}
		}
	}
	indexed := job.Spec.CompletionMode != nil && *job.Spec.CompletionMode == "Indexed"
	var done, busy, lost []bool // an Indexed Job's indexes: succeeded, active, failed
	var lastFailed []*api.Pod   // with a backoff limit per index: each index's last failed pod
	perIndex := indexed && job.Spec.BackoffLimitPerIndex != nil
	if indexed {
		// The indexes succeeded and failed are those the status lists and
		// those of the pods held for counting (calculateSucceededIndexes,
		// calculateFailedIndexes): a pod counted and then deleted leaves
		// its index where it was.
		done, busy = indexSet(job.Status.CompletedIndexes, want), make([]bool, want)
		if perIndex {
			var prev string
			if f := job.Status.FailedIndexes; f != nil {
				prev = *f
			}
			lost, lastFailed = indexSet(prev, want), make([]*api.Pod, want)
		} else {
			lost = make([]bool, want)
		}
		for _, p := range pods {
			i, ok := completionIndex(p, want)
			switch {
			case !ok:
			case p.Status.Phase == api.PodSucceeded && tracked(p):
				done[i] = true
			case p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed && p.DeletionTimestamp == nil:
				busy[i] = true
			case perIndex && tracked(p) && counted[string(p.UID)]:
				// With a backoff limit per index, the index fails with a
				// pod a FailIndex rule matched, or one whose index had
				// failed backoffLimitPerIndex times before it, as its
				// batch.kubernetes.io/job-index-failure-count annotation
				// says (isIndexFailed).
				if f, _ := indexFailureCounts(p); failIndex[string(p.UID)] || f >= *job.Spec.BackoffLimitPerIndex {
					lost[i] = true
				}
			}
		}
		if perIndex {
			// Each index to be retried is replaced from its last failed pod
			// the finalizer still holds (getPodsWithDelayedDeletionPerIndex).
			for _, p := range pods {
				i, ok := completionIndex(p, want)
				if ok && tracked(p) && (p.Status.Phase == api.PodFailed || counted[string(p.UID)]) && !done[i] && !busy[i] && !lost[i] {
					lastFailed[i] = laterFailure(lastFailed[i], p)
				}
			}
		}
	}
	// Succeeded and failed as the job controller counts them: the counts
	// in the status, the pods noted in status.uncountedTerminatedPods, and
	// the pods the finalizer still holds (an Indexed Job counts its
	// succeeded indexes instead).
	succeeded := job.Status.Succeeded + int32(len(noted.succeeded)+len(newSucceeded))
	if indexed {
		succeeded = int32(countSet(done))
	}
	failed := job.Status.Failed + int32(len(noted.failed))
	for _, p := range finished {
		if !noted.failed[string(p.UID)] {
			failed++
		}
	}
	// With a backoff limit per index, the last failed pod of an index to
	// be retried keeps its finalizer, uncounted, until its replacement
	// exists: the replacement's failure counts are read from it
	// (canRemoveFinalizer, getPodsWithDelayedDeletionPerIndex).
	var held map[string]bool
	for _, p := range lastFailed {
		if p != nil {
			if held == nil {
				held = map[string]bool{}
			}
			held[string(p.UID)] = true
		}
	}
	if held != nil {
		newFailed = slices.DeleteFunc(newFailed, func(p *api.Pod) bool { return held[string(p.UID)] })
	}
	ctx.Observed = fmt.Sprintf("%d active, %d succeeded, %d failed", active, succeeded, failed)
	st := job.DeepCopy().Status
	backoff := j.backoff[key].with(newSucceeded, newFailed)
	if backoff == (backoffRecord{}) {
		delete(j.backoff, key)
	} else {
		j.backoff[key] = backoff
	}
	if indexed {
		st.CompletedIndexes = indexIntervals(done)
		st.Succeeded = succeeded
	}
	var lostCount int32
	if perIndex {
		st.FailedIndexes = api.String(indexIntervals(lost))
		lostCount = int32(countSet(lost))
	}
	suspended := job.Spec.Suspend != nil && *job.Spec.Suspend
	if st.StartTime == nil && !suspended {
		t := ctx.Now
		st.StartTime = &t
	}
	res := Result{}
	// Why the Job fails, if it does: a FailureTarget already set, the
	// backoff limit, the active deadline.
	var fail *api.JobCondition
	if c := findJobCondition(st.Conditions, "FailureTarget"); c != nil && c.Status == "True" {
		fail = c
	} else if policyFail != nil {
		fail = policyFail
	} else if failed > api.Deref(job.Spec.BackoffLimit, 6) || pastBackoffLimitOnFailure(job, running) {
		fail = &api.JobCondition{Type: "FailureTarget", Status: "True", Reason: "BackoffLimitExceeded", Message: "Job has reached the specified backoff limit"}
	} else if m := job.Spec.MaxFailedIndexes; perIndex && m != nil && lostCount > *m {
		fail = &api.JobCondition{Type: "FailureTarget", Status: "True", Reason: "MaxFailedIndexesExceeded", Message: "Job has exceeded the specified maximal number of failed indexes"}
	} else if perIndex && lostCount > 0 && lostCount+succeeded >= want {
		fail = &api.JobCondition{Type: "FailureTarget", Status: "True", Reason: "FailedIndexes", Message: "Job has failed indexes"}
	} else if d := job.Spec.ActiveDeadlineSeconds; d != nil && st.StartTime != nil && !suspended {
		if left := api.Duration(*d)*api.Second - (ctx.Now - *st.StartTime); left <= 0 {
			fail = &api.JobCondition{Type: "FailureTarget", Status: "True", Reason: "DeadlineExceeded", Message: "Job was active longer than specified deadline"}
		} else {
			res.RequeueAfter, res.RequeueReason = left, RequeueActiveDeadline
		}
	}
	start := int32(0)
	complete := false
	switch {
	case fail != nil:
		// Its pods still running are stopped, and count as failed.
		tail := "(backoff limit reached)"
		switch fail.Reason {
		case "DeadlineExceeded":
			tail = "(active deadline exceeded)"
		case "PodFailurePolicy":
			tail = "(a pod failure policy rule failed the Job)"
		case "MaxFailedIndexesExceeded", "FailedIndexes":
			tail = "(failed indexes)"
		}
		for _, p := range running {
			if err := ctx.Delete("Pod", p.Namespace, p.Name, false, OnPod(Delete, p.Name, tail)); err != nil {
				return Result{}, err
			}
			ctx.Event(job, "Normal", "SuccessfulDelete", "Deleted pod: %s", p.Name)
			terminating++
		}
		active, ready = 0, 0
		if findJobCondition(st.Conditions, "FailureTarget") == nil {
			c := *fail
			c.LastProbeTime, c.LastTransitionTime = ctx.Now, ctx.Now
			st.Conditions = append(st.Conditions, c)
		}
		res.RequeueAfter = 0
	case suspended:
		// A suspended Job's active pods are deleted; none counts as failed.
		for _, p := range running {
			if err := ctx.Delete("Pod", p.Namespace, p.Name, false, OnPod(Delete, p.Name, "(job suspended)")); err != nil {
				return Result{}, err
			}
			ctx.Event(job, "Normal", "SuccessfulDelete", "Deleted pod: %s", p.Name)
			terminating++
		}
		active, ready = 0, 0
		// The pods it deleted are no failures: none is held for counting.
		for _, p := range pods {
			if tracked(p) && (p.DeletionTimestamp != nil || slices.Contains(running, p)) {
				if err := release(ctx, p); err != nil {
					return Result{}, err
				}
			}
		}
		if setJobCondition(&st, "Suspended", "True", "JobSuspended", "Job suspended", ctx.Now) {
			ctx.Event(job, "Normal", "Suspended", "Job suspended")
		}
	default:
		if succeeded < want {
			start = min(par-active, want-succeeded-active)
			if job.Spec.PodReplacementPolicy != nil && *job.Spec.PodReplacementPolicy == "Failed" {
				start -= terminating // a replacement waits for the pod it replaces to be gone
			}
			start = max(start, 0)
		}
		// Pods failed: new ones wait for the back-off, counted from the
		// last failure (manageJob's getRemainingTime). A backoff limit per
		// index backs off each index on its own.
		if n := backoff.failures; start > 0 && !perIndex && n > 0 {
			if left := backOffLeft(n, backoff.lastFailure, ctx.Now); left > 0 {
				start = 0
				ctx.Difference = fmt.Sprintf("+0 pods to start: %d failed pod(s) in a row, back off %s (%s left)", n, api.FormatDuration(podFailureBackOff(n)), api.FormatDuration(left))
				res.requeueSooner(left, RequeuePodFailureBackOff)
			}
		}
		var pending []int // an Indexed Job's indexes to start, lowest first
		for i := range done {
			if !done[i] && !busy[i] && !lost[i] {
				pending = append(pending, i)
			}
		}
		if indexed {
			start = min(start, int32(len(pending)))
		}
		if perIndex && start > 0 {
			// Each index backs off on its own, from its last failed pod
			// (getPodCreationInfoForIndependentIndexes).
			var now []int
			var soonest api.Duration
			for _, i := range pending[:start] {
				left := indexBackOffLeft(lastFailed[i], ctx.Now)
				switch {
				case left == 0:
					now = append(now, i)
				case soonest == 0 || left < soonest:
					soonest = left
				}
			}
			if len(now) == 0 {
				ctx.Difference = fmt.Sprintf("+0 pods to start: index back-off (%s left)", api.FormatDuration(soonest))
				res.requeueSooner(soonest, RequeuePodFailureBackOff)
			}
			pending, start = now, int32(len(now))
		}
		for i := int32(0); i < start; i++ {
			p := podFromJob(job)
			if indexed {
				withCompletionIndex(p, job.Name, pending[i])
			}
			if perIndex {
				withIndexFailureCounts(p, job, lastFailed[pending[i]])
			}
			created, err := ctx.Create(p, func(o api.Object) Action { return OnPod(Create, o.Meta().Name, "") })
			if err != nil {
				if err != ErrCrashed {
					ctx.Event(job, "Warning", "FailedCreate", "Error creating: %v", err)
				}
				return Result{}, err
			}
			ctx.Event(job, "Normal", "SuccessfulCreate", "Created pod: %s", created.Meta().Name)
		}
		active += start
		if succeeded >= want && active == 0 {
			// The interim SuccessCriteriaMet condition goes with the
			// pods noted for counting; Complete once they are counted.
			complete = true
			if findJobCondition(st.Conditions, "SuccessCriteriaMet") == nil {
				st.Conditions = append(st.Conditions, api.JobCondition{Type: "SuccessCriteriaMet", Status: "True", LastProbeTime: ctx.Now, LastTransitionTime: ctx.Now, Reason: "CompletionsReached", Message: "Reached expected number of succeeded pods"})
			}
		} else if setJobCondition(&st, "Suspended", "False", "JobResumed", "Job resumed", ctx.Now) {
			ctx.Event(job, "Normal", "Resumed", "Job resumed")
			// The active deadline counts from the resume.
			t := ctx.Now
			st.StartTime = &t
		}
	}
	if ctx.Difference == "" {
		ctx.Difference = fmt.Sprintf("%+d pods to start", start)
	}
	st.Active = active
	st.Ready, st.Terminating = api.Int32(ready), api.Int32(terminating)
	// The pods that ended are counted as the job controller does it
	// (trackJobStatusAndRemoveFinalizers): their uids are noted in
	// status.uncountedTerminatedPods (written first, with the rest of the
	// status), the finalizer is removed from every finished pod, then the
	// noted pods no longer held are counted. A crash between two of the
	// steps neither loses nor repeats a count. A Job that fails counts
	// every pod still held but those succeeded as failed, and holds none.
	toNote := slices.DeleteFunc(slices.Clone(finished), func(p *api.Pod) bool { return held[string(p.UID)] })
	finishing := fail != nil || complete
	if finishing {
		held = nil
	}
	if fail != nil {
		toNote = nil
		for _, p := range pods {
			uid := string(p.UID)
			if !tracked(p) || p.Status.Phase == api.PodSucceeded {
				continue
			}
			if counted[uid] || slices.Contains(running, p) || p.Status.Phase != api.PodFailed && p.DeletionTimestamp != nil {
				toNote = append(toNote, p)
			}
		}
	}
	if !indexed {
		toNote = append(slices.Clone(toNote), newSucceeded...)
	}
	job, err = countFinished(ctx, job, &st, pods, toNote, finishing, held)
	if err != nil {
		return Result{}, err
	}
	// Finished once every pod noted is counted (enactJobFinished); failed
	// once none of its pods is terminating either.
	if u := st.UncountedTerminatedPods; len(u.Succeeded)+len(u.Failed) == 0 {
		switch {
		case fail != nil && terminating == 0:
			st.Conditions = append(st.Conditions, api.JobCondition{Type: "Failed", Status: "True", LastProbeTime: ctx.Now, LastTransitionTime: ctx.Now, Reason: fail.Reason, Message: fail.Message})
			ctx.Event(job, "Warning", fail.Reason, "%s", fail.Message)
		case complete:
			t := ctx.Now
			st.CompletionTime = &t
			st.Conditions = append(st.Conditions, api.JobCondition{Type: "Complete", Status: "True", LastProbeTime: t, LastTransitionTime: t, Reason: "CompletionsReached", Message: "Reached expected number of succeeded pods"})
			ctx.Event(job, "Normal", "Completed", "Job completed")
		}
	}
	if !jobStatusEqual(job.Status, st) {
		n := job.DeepCopy()
		n.Status = st
		if _, err := ctx.UpdateStatus(n, Status(fmt.Sprintf("active %d, succeeded %d", st.Active, st.Succeeded))); err != nil {
			return Result{}, err
		}
	}
	if start == 0 && len(ctx.Actions) == 0 {
		r := ctx.NothingToDo()
		r.RequeueAfter, r.RequeueReason = res.RequeueAfter, res.RequeueReason
		return r, nil
	}
	res.Outcome = Acted
	return res, nil
}

func jobStatusEqual(a, b api.JobStatus) bool {
	return a.Active == b.Active && a.Succeeded == b.Succeeded && a.Failed == b.Failed && a.CompletedIndexes == b.CompletedIndexes && ptrEqual(a.FailedIndexes, b.FailedIndexes) && uncountedEqual(a.UncountedTerminatedPods, b.UncountedTerminatedPods) &&
		ptrEqual(a.Ready, b.Ready) && ptrEqual(a.Terminating, b.Terminating) &&
		slices.Equal(a.Conditions, b.Conditions) && ptrEqual(a.StartTime, b.StartTime)
}

func ptrEqual[T comparable](a, b *T) bool { return a == b || a != nil && b != nil && *a == *b }

// findJobCondition returns the condition of that type, or nil.
func findJobCondition(cs []api.JobCondition, typ string) *api.JobCondition {
	for i := range cs {
		if cs[i].Type == typ {
			return &cs[i]
		}
	}
	return nil
}

// setJobCondition is the job controller's ensureJobConditionStatus: it
// sets the condition of that type to status, reason and message, adding
// it only when status is not False, and reports whether it changed.
func setJobCondition(st *api.JobStatus, typ, status, reason, message string, now api.Time) bool {
	c := api.JobCondition{Type: typ, Status: status, LastProbeTime: now, LastTransitionTime: now, Reason: reason, Message: message}
	if old := findJobCondition(st.Conditions, typ); old != nil {
		if old.Status == status && old.Reason == reason && old.Message == message {
			return false
		}
		c.LastProbeTime = old.LastProbeTime // set when the condition was added
		*old = c
		return true
	}
	if status == "False" {
		return false
	}
	st.Conditions = append(st.Conditions, c)
	return true
}

// jobFinishedCondition returns "Complete" or "Failed" for a finished Job,
// "" for one that is not.
func jobFinishedCondition(job *api.Job) string {
	for _, c := range job.Status.Conditions {
		if (c.Type == "Complete" || c.Type == "Failed") && c.Status == "True" {
			return c.Type
		}
	}
	return ""
}

func podFromJob(j *api.Job) *api.Pod {
	t := j.Spec.Template.DeepCopy()
	return &api.Pod{
		TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{GenerateName: j.Name + "-", Namespace: j.Namespace, Labels: t.Labels, Annotations: t.Annotations,
			Finalizers:      []string{JobTrackingFinalizer},
			OwnerReferences: []api.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: j.Name, UID: j.UID, Controller: true, BlockOwnerDeletion: true}}},
		Spec:   t.Spec,
		Status: api.PodStatus{Phase: api.PodPending},
	}
}

// JobCompletionIndex is the annotation and label that give an Indexed
// Job's pod its index.
const JobCompletionIndex = "batch.kubernetes.io/job-completion-index"

// withCompletionIndex makes p the pod of index i of an Indexed Job: the
// index as annotation and label, hostname <job>-<i>, generateName
// <job>-<i>-, and JOB_COMPLETION_INDEX in every container's environment.
func withCompletionIndex(p *api.Pod, job string, i int) {
	ix := strconv.Itoa(i)
	p.Annotations = maps.Clone(p.Annotations)
	if p.Annotations == nil {
		p.Annotations = map[string]string{}
	}
	p.Annotations[JobCompletionIndex] = ix
	p.Labels = maps.Clone(p.Labels)
	if p.Labels == nil {
		p.Labels = map[string]string{}
	}
	p.Labels[JobCompletionIndex] = ix
	p.GenerateName = job + "-" + ix + "-"
	p.Spec.SetMore().Hostname = job + "-" + ix
	env := api.EnvVar{Name: "JOB_COMPLETION_INDEX", ValueFrom: &api.EnvVarSource{FieldRef: map[string]any{"fieldPath": "metadata.labels['" + JobCompletionIndex + "']"}}}
	for _, cs := range [][]api.Container{p.Spec.More().InitContainers, p.Spec.Containers} {
		for k := range cs {
			if !slices.ContainsFunc(cs[k].Env, func(e api.EnvVar) bool { return e.Name == env.Name }) {
				cs[k].Env = append(slices.Clip(cs[k].Env), env)
			}
		}
	}
}

// completionIndex reads a pod's completion index, ok when it is one of
// the Job's (below completions).
func completionIndex(p *api.Pod, completions int32) (int, bool) {
	i, err := strconv.Atoi(p.Annotations[JobCompletionIndex])
	return i, err == nil && i >= 0 && i < int(completions)
}

// indexIntervals writes the indexes set as the job controller does:
// "0-2,4", two neighbours as "5,6".
func indexIntervals(set []bool) string {
	var b strings.Builder
	for i := 0; i < len(set); i++ {
		if !set[i] {
			continue
		}
		j := i
		for j+1 < len(set) && set[j+1] {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(i))
		switch {
		case j == i+1:
			b.WriteString("," + strconv.Itoa(j))
		case j > i+1:
			b.WriteString("-" + strconv.Itoa(j))
		}
		i = j
	}
	return b.String()
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

// indexSet reads indexes written as indexIntervals writes them into a set
// of n, as the job controller parses status.completedIndexes and
// status.failedIndexes (parseIndexesFromString): an interval it cannot
// read is skipped, indexes from n on are dropped.
func indexSet(s string, n int32) []bool {
	set := make([]bool, n)
	if s == "" {
		return set
	}
	for _, iv := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(iv, "-")
		first, err := strconv.Atoi(lo)
		if err != nil || first < 0 {
			continue
		}
		last := first
		if isRange {
			if last, err = strconv.Atoi(hi); err != nil {
				continue
			}
		}
		for i := first; i <= last && i < int(n); i++ {
			set[i] = true
		}
	}
	return set
}

// countSet is how many indexes set holds.
func countSet(set []bool) int {
	n := 0
	for _, b := range set {
		if b {
			n++
		}
	}
	return n
}
