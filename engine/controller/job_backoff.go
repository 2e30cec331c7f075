package controller

import (
	"strconv"

	"reconcile/engine/api"
)

// The job controller's back-off before it creates pods again after pods
// failed (pkg/controller/job: DefaultJobPodFailureBackOff,
// MaxJobPodFailureBackOff).
const (
	JobPodFailureBackOff    = 10 * api.Second
	MaxJobPodFailureBackOff = 10 * api.Minute
)

// podFailureBackOff is the back-off after failures failures in a row:
// 10 s, doubled for each failure after the first, at most 10 minutes
// (getRemainingTimeForFailuresCount); 0 for none.
func podFailureBackOff(failures int32) api.Duration {
	if failures <= 0 {
		return 0
	}
	d := JobPodFailureBackOff
	for i := int32(1); i < failures; i++ {
		d *= 2
		if d >= MaxJobPodFailureBackOff {
			return MaxJobPodFailureBackOff
		}
	}
	return d
}

// backOffLeft is what remains at now of the back-off after failures
// failures in a row, the last at last.
func backOffLeft(failures int32, last, now api.Time) api.Duration {
	d := podFailureBackOff(failures)
	if elapsed := now - last; d > elapsed {
		return d - elapsed
	}
	return 0
}

// podFinishedTime is when a pod finished, as the job controller reads it
// (getFinishedTime): the last of its containers' ends once all have
// ended, else when it became not Ready, else its deletion less its grace
// period, else its creation.
func podFinishedTime(p *api.Pod) api.Time {
	var last api.Time
	all := len(p.Status.ContainerStatuses) > 0
	for _, cs := range p.Status.ContainerStatuses {
		t := cs.State.Terminated
		if t == nil || t.FinishedAt == 0 {
			all = false
			break
		}
		last = max(last, t.FinishedAt)
	}
	if all {
		return last
	}
	if c := PodCondition(p, "Ready"); c != nil && c.Status == "False" && c.LastTransitionTime != 0 {
		return c.LastTransitionTime
	}
	if d := p.DeletionTimestamp; d != nil {
		var grace int64
		if g := p.DeletionGracePeriodSeconds; g != nil {
			grace = *g
		}
		return *d - api.Time(grace)*api.Second
	}
	return p.CreationTimestamp
}

// backoffRecord is the job controller's record of a Job's failures
// (backoff_utils.go backoffRecord): the pods that failed since the last
// one that succeeded, and when the last of them finished. The controller
// keeps it in memory, from the pods it counts: a failed pod that is gone
// still counts, and a restarted controller has none.
type backoffRecord struct {
	failures    int32
	lastFailure api.Time
}

// with is the record once the pods that newly succeeded and failed are
// counted (newBackoffRecord): a success starts it over, counting only the
// failures that finished after the last success.
func (r backoffRecord) with(succeeded, failed []*api.Pod) backoffRecord {
	if len(succeeded) == 0 {
		for _, p := range failed {
			r.failures++
			r.lastFailure = max(r.lastFailure, podFinishedTime(p))
		}
		return r
	}
	var lastSuccess api.Time
	for _, p := range succeeded {
		lastSuccess = max(lastSuccess, podFinishedTime(p))
	}
	r = backoffRecord{}
	for _, p := range failed {
		if t := podFinishedTime(p); t > lastSuccess {
			r.failures++
			r.lastFailure = max(r.lastFailure, t)
		}
	}
	return r
}

// The annotations that count the failures of an Indexed Job's index on
// its pods when the Job has a backoff limit per index: the failures
// counted against it, and those a podFailurePolicy Ignore rule matched.
const (
	JobIndexFailureCount        = "batch.kubernetes.io/job-index-failure-count"
	JobIndexIgnoredFailureCount = "batch.kubernetes.io/job-index-ignored-failure-count"
)

// indexFailureCounts reads a pod's two index failure counts (0 when an
// annotation is missing or not a count).
func indexFailureCounts(p *api.Pod) (failed, ignored int32) {
	read := func(k string) int32 {
		n, err := strconv.ParseInt(p.Annotations[k], 10, 32)
		if err != nil || n < 0 {
			return 0
		}
		return int32(n)
	}
	return read(JobIndexFailureCount), read(JobIndexIgnoredFailureCount)
}

// laterFailure is the failed pod an index's next pod replaces, of the
// last one seen and p: the one with more failures before it, the later to
// finish of two with as many (getPodsWithDelayedDeletionPerIndex).
func laterFailure(last, p *api.Pod) *api.Pod {
	if last == nil {
		return p
	}
	lf, li := indexFailureCounts(last)
	pf, pi := indexFailureCounts(p)
	if lf+li <= pf+pi && podFinishedTime(p) >= podFinishedTime(last) {
		return p
	}
	return last
}

// indexBackOffLeft is what remains at now of an index's back-off after
// its pod last failed (nil: none has): one failure more than the pod's
// counts say, from when it finished (getRemainingTimePerIndex).
func indexBackOffLeft(last *api.Pod, now api.Time) api.Duration {
	if last == nil {
		return 0
	}
	f, i := indexFailureCounts(last)
	return backOffLeft(f+i+1, podFinishedTime(last), now)
}

// withIndexFailureCounts gives the pod p that replaces the index's last
// failed pod last (nil: the index's first pod) its failure counts: last's
// and its failure, counted or ignored by the Job's podFailurePolicy
// (addIndexFailureCountAnnotation). The ignored count is set once there
// is one.
func withIndexFailureCounts(p *api.Pod, job *api.Job, last *api.Pod) {
	var failed, ignored int32
	if last != nil {
		failed, ignored = indexFailureCounts(last)
		if action, _ := matchPodFailurePolicy(job.Spec.PodFailurePolicy, last); action == "Ignore" {
			ignored++
		} else {
			failed++
		}
	}
	p.Annotations[JobIndexFailureCount] = strconv.Itoa(int(failed))
	if ignored > 0 {
		p.Annotations[JobIndexIgnoredFailureCount] = strconv.Itoa(int(ignored))
	}
}
