package controller

import (
	"time"

	"reconcile/engine/api"
)

// The reasons the built-in controllers give a requeue (Result.RequeueReason),
// named so that what reads a pass's trigger compares values, not words.
const (
	RequeueRetry             = "rate-limited retry after an error"
	RequeueProgressDeadline  = "progress deadline check"
	RequeueContainerTimer    = "container timer"
	RequeueMinReady          = "minReadySeconds"
	RequeueToleration        = "toleration of the unreachable taint runs out"
	RequeueEviction          = "next eviction due"
	RequeueActiveDeadline    = "a Job's active deadline"
	RequeueTTLAfterFinished  = "a finished Job's TTL runs out"
	RequeuePodFailureBackOff = "a Job's pod failure back-off"
	RequeueUnschedulable     = "unschedulable pods are retried every 5m or when the cluster changes"
)

// RequeueNextSchedule is the reason a CronJob's pass gives for the
// requeue that comes due at next, its schedule's next time.
func RequeueNextSchedule(next api.Time) string {
	return "next scheduled time " + next.Wall().Format(time.RFC3339)
}
