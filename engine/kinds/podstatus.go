package kinds

import (
	"fmt"
	"strings"

	"reconcile/engine/api"
)

// initStatus is the STATUS kubectl get pods shows while init containers
// run (Init:1/2, Init:CrashLoopBackOff, Init:Error, Init:ExitCode:N), and
// whether the pod is still initializing. The first init container that
// has neither completed nor (a sidecar) started decides it.
func initStatus(p *api.Pod) (string, bool) {
	sidecars := map[string]bool{}
	for _, c := range p.Spec.More().InitContainers {
		sidecars[c.Name] = c.IsSidecar()
	}
	for i, cs := range p.Status.InitContainerStatuses {
		switch {
		case cs.State.Terminated != nil && cs.State.Terminated.ExitCode == 0:
			continue
		case sidecars[cs.Name] && cs.Started != nil && *cs.Started:
			continue
		case cs.State.Terminated != nil:
			if cs.State.Terminated.Reason == "" {
				return fmt.Sprintf("Init:ExitCode:%d", cs.State.Terminated.ExitCode), true
			}
			return "Init:" + cs.State.Terminated.Reason, true
		case cs.State.Waiting != nil && cs.State.Waiting.Reason != "" && cs.State.Waiting.Reason != "PodInitializing":
			return "Init:" + cs.State.Waiting.Reason, true
		default:
			return fmt.Sprintf("Init:%d/%d", i, len(p.Spec.More().InitContainers)), true
		}
	}
	return "", false
}

// initInitialized reports whether the pod's Initialized condition is True.
func initInitialized(p *api.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == "Initialized" {
			return c.Status == "True"
		}
	}
	return false
}

// sidecarReady counts the sidecars of a pod, the ready ones, their
// restarts and the last time one of them ended: kubectl's READY and
// RESTARTS count sidecars as containers. While the pod initializes, every
// init container's restarts count and the containers' do not (initializing).
func sidecarReady(p *api.Pod) (total, ready int, restarts int32, last *api.Time, initializing bool) {
	_, initializing = initStatus(p)
	initializing = initializing && !initInitialized(p)
	sidecars := map[string]bool{}
	for _, c := range p.Spec.More().InitContainers {
		if c.IsSidecar() {
			sidecars[c.Name] = true
			total++
		}
	}
	for _, cs := range p.Status.InitContainerStatuses {
		if !sidecars[cs.Name] && !initializing {
			continue
		}
		restarts += cs.RestartCount
		if t := cs.LastState.Terminated; t != nil && (last == nil || *last < t.FinishedAt) {
			f := t.FinishedAt
			last = &f
		}
		if sidecars[cs.Name] && cs.Ready && cs.Started != nil && *cs.Started {
			ready++
		}
	}
	return total, ready, restarts, last, initializing
}

// completedButRunning turns a pod's STATUS "Completed" back into Running
// (or NotReady without a Ready condition) while one of its containers
// still runs and is ready, as kubectl does.
func completedButRunning(p *api.Pod, s string) string {
	if s != "Completed" {
		return s
	}
	for _, cs := range p.Status.ContainerStatuses {
		if cs.Ready && cs.State.Running != nil {
			for _, c := range p.Status.Conditions {
				if c.Type == "Ready" && c.Status == "True" {
					return "Running"
				}
			}
			return "NotReady"
		}
	}
	return s
}

// PodStatus is the STATUS column of kubectl get pods.
func PodStatus(p *api.Pod) string {
	s := p.Status.Phase
	if p.Status.Reason != "" {
		s = p.Status.Reason
	}
	for _, c := range p.Status.Conditions {
		if c.Type == "PodScheduled" && c.Reason == "SchedulingGated" {
			s = c.Reason
		}
	}
	if is, initializing := initStatus(p); initializing && !initInitialized(p) {
		s = is
		if p.DeletionTimestamp != nil {
			s = "Terminating"
		}
		return s
	}
	for i := len(p.Status.ContainerStatuses) - 1; i >= 0; i-- {
		cs := p.Status.ContainerStatuses[i]
		if cs.State.Waiting != nil && cs.State.Waiting.Reason != "" {
			s = cs.State.Waiting.Reason
		} else if cs.State.Terminated != nil && cs.State.Terminated.Reason != "" {
			s = cs.State.Terminated.Reason
		}
	}
	s = completedButRunning(p, s)
	if p.DeletionTimestamp != nil {
		s = "Terminating"
	}
	return s
}

// PodFailing says a pod has failed, or its STATUS is a failure kubectl
// names by its reason: a back-off (CrashLoopBackOff, ImagePullBackOff), an
// error (ErrImagePull, Error, CreateContainerConfigError, an init
// container's Init:Error) or OOMKilled.
func PodFailing(p *api.Pod) bool {
	s := PodStatus(p)
	return p.Status.Phase == api.PodFailed || strings.Contains(s, "BackOff") || strings.Contains(s, "Err") || s == "OOMKilled"
}

// podReady returns READY ("1/2") and RESTARTS ("3 (45s ago)") of a pod.
func podReady(p *api.Pod, now api.Time) (string, string) {
	sidecars, ready, restarts, last, initializing := sidecarReady(p)
	for _, cs := range p.Status.ContainerStatuses {
		if initializing {
			break
		}
		if cs.Ready {
			ready++
		}
		restarts += cs.RestartCount
		if t := cs.LastState.Terminated; t != nil && (last == nil || *last < t.FinishedAt) {
			f := t.FinishedAt
			last = &f
		}
	}
	r := fmt.Sprint(restarts)
	if restarts != 0 && last != nil {
		r = fmt.Sprintf("%d (%s ago)", restarts, AgeOf(now, *last))
	}
	return fmt.Sprintf("%d/%d", ready, len(p.Spec.Containers)+sidecars), r
}
