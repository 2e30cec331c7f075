package kinds

import (
	"testing"

	"reconcile/engine/api"
)

// TestPodFailing: the failures kubectl's STATUS names by reason, and the
// phase, mark a pod failing; pending, running and completed pods do not.
func TestPodFailing(t *testing.T) {
	waiting := func(reason string) *api.Pod {
		return &api.Pod{Status: api.PodStatus{Phase: api.PodPending, ContainerStatuses: []api.ContainerStatus{{Name: "c",
			State: api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: reason}}}}}}
	}
	terminated := func(reason string) *api.Pod {
		return &api.Pod{Status: api.PodStatus{Phase: api.PodRunning, ContainerStatuses: []api.ContainerStatus{{Name: "c",
			State: api.ContainerState{Terminated: &api.ContainerStateTerminated{Reason: reason}}}}}}
	}
	for _, c := range []struct {
		name string
		p    *api.Pod
		want bool
	}{
		{"CrashLoopBackOff", waiting("CrashLoopBackOff"), true},
		{"ImagePullBackOff", waiting("ImagePullBackOff"), true},
		{"ErrImagePull", waiting("ErrImagePull"), true},
		{"CreateContainerConfigError", waiting("CreateContainerConfigError"), true},
		{"OOMKilled", terminated("OOMKilled"), true},
		{"Error", terminated("Error"), true},
		{"Failed phase", &api.Pod{Status: api.PodStatus{Phase: api.PodFailed}}, true},
		{"ContainerCreating", waiting("ContainerCreating"), false},
		{"Pending", &api.Pod{Status: api.PodStatus{Phase: api.PodPending}}, false},
		{"Running", &api.Pod{Status: api.PodStatus{Phase: api.PodRunning}}, false},
	} {
		if got := PodFailing(c.p); got != c.want {
			t.Errorf("%s (STATUS %s): failing %v, want %v", c.name, PodStatus(c.p), got, c.want)
		}
	}
}
