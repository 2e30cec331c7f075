package controller

import "reconcile/engine/api"

// The job controller's back-off before it creates pods again after pods
// failed (pkg/controller/job: DefaultJobPodFailureBackOff,
// MaxJobPodFailureBackOff).
const (
	JobPodFailureBackOff    = 10 * api.Second
	MaxJobPodFailureBackOff = 10 * api.Minute
)

// RequeuePodFailureBackOff is the reason a Job's pass gives for the
// requeue that comes due when its pod failure back-off is over.
const RequeuePodFailureBackOff = "a Job's pod failure back-off"

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
