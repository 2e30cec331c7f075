package controller

import (
	"fmt"
	"strings"

	"reconcile/engine/api"
)

// podStatus computes the status the kubelet reports for p: a status per
// init container and container, the phase they add up to, and the
// PodReadyToStartContainers, Initialized, ContainersReady and Ready
// conditions. sandbox says the pod's sandbox exists (its volumes mounted
// and its address given).
func (k *KubeletLoop) podStatus(p *api.Pod, rt *Runtime, key string, ctx *Context, mounted bool) api.PodStatus {
	// The status is built on p's: what podStatus changes in place (the
	// conditions) is copied, what it replaces (the container statuses,
	// the addresses, the start time) is shared with p's stored version,
	// which no one changes, so each version the checkpoints keep holds
	// only what changed.
	st := p.Status
	// Room for the conditions the kubelet sets that p lacks: one array,
	// where appending them one by one grew it three times (and the 8-slot
	// array a first report kept was half empty).
	n := len(p.Status.Conditions)
	for _, t := range kubeletConditions {
		if PodCondition(p, t) == nil {
			n++
		}
	}
	st.Conditions = append(make([]api.PodCondition, 0, n), p.Status.Conditions...)
	st.HostIP = k.hostIP
	if len(st.HostIPs) != 1 || st.HostIPs[0].IP != st.HostIP {
		st.HostIPs = []api.HostIP{{IP: st.HostIP}}
	}
	if st.StartTime == nil {
		t := ctx.Now
		st.StartTime = &t
	}
	def := "ContainerCreating"
	if len(p.Spec.More().InitContainers) > 0 {
		def = "PodInitializing"
	}
	sandbox := false
	initDone, initFailed := mounted, false
	var incomplete []string
	var unreadyBuf [4]string // on the stack: most pods have few containers
	unready := unreadyBuf[:0]
	st.InitContainerStatuses = nil
	for _, c := range p.Spec.More().InitContainers {
		rc := rt.Get(key + "/" + c.Name)
		cs := k.containerStatus(ctx, p, c, rc, def)
		if roleOf(c, true) == initOnce {
			// An init container is ready once it has exited 0, not while
			// it runs (the prober manager's UpdatePodStatus).
			t := cs.State.Terminated
			cs.Ready = t != nil && t.ExitCode == 0
		}
		if !initComplete(c, rc) {
			incomplete = append(incomplete, c.Name)
			initDone = false
		}
		if t := cs.State.Terminated; t != nil && t.ExitCode != 0 {
			initFailed = true
		}
		if roleOf(c, true) == sidecar && !cs.Ready {
			unready = append(unready, c.Name)
		}
		sandbox = sandbox || rc != nil && rc.RunSince > 0
		st.InitContainerStatuses = append(st.InitContainerStatuses, cs)
	}
	st.ContainerStatuses = nil
	running, waiting, stopped, succeeded := 0, 0, 0, 0
	for _, c := range p.Spec.Containers {
		rc := rt.Get(key + "/" + c.Name)
		cs := k.containerStatus(ctx, p, c, rc, def)
		switch {
		case cs.State.Running != nil:
			running++
		case cs.State.Terminated != nil:
			stopped++
			if cs.State.Terminated.ExitCode == 0 {
				succeeded++
			}
		case cs.LastState.Terminated != nil:
			stopped++
		default:
			waiting++
		}
		if !cs.Ready {
			unready = append(unready, c.Name)
		}
		sandbox = sandbox || rc != nil && rc.RunSince > 0
		st.ContainerStatuses = append(st.ContainerStatuses, cs)
	}
	policy := restartPolicyOf(p, regular)
	switch {
	case initFailed && policy == "Never":
		st.Phase = api.PodFailed
	case !initDone || waiting > 0:
		st.Phase = api.PodPending
	case running > 0:
		st.Phase = api.PodRunning
	case stopped > 0 && policy == "Always":
		st.Phase = api.PodRunning
	case stopped > 0 && stopped == succeeded:
		st.Phase = api.PodSucceeded
	case stopped > 0 && policy == "Never":
		st.Phase = api.PodFailed
	case stopped > 0:
		st.Phase = api.PodRunning // OnFailure: a failed container restarts
	default:
		st.Phase = api.PodPending
	}
	if sandbox {
		if ip, ok, _ := k.podAddress(ctx, key, p); ok {
			st.PodIP = ip
			if len(st.PodIPs) != 1 || st.PodIPs[0].IP != ip {
				st.PodIPs = []api.PodIP{{IP: ip}}
			}
		}
	}
	if st.Phase == api.PodSucceeded || st.Phase == api.PodFailed {
		// Its sandbox goes: the address is free again (the status keeps it).
		k.releaseAddress(key)
	}
	set := func(t, status, reason, msg string) {
		setPodConditionOn(&st, api.PodCondition{Type: t, Status: status, Reason: reason, Message: msg}, ctx.Now)
	}
	set("PodScheduled", "True", "", "")
	// The sandbox is made once the volumes are mounted and stopped when
	// the pod has finished: while it lives, the pod is ready to start
	// containers.
	if mounted && st.Phase != api.PodSucceeded && st.Phase != api.PodFailed {
		set("PodReadyToStartContainers", "True", "", "")
	} else {
		set("PodReadyToStartContainers", "False", "", "")
	}
	switch {
	case st.Phase == api.PodSucceeded:
		set("Initialized", "True", "PodCompleted", "")
	case initDone || len(p.Spec.More().InitContainers) == 0:
		set("Initialized", "True", "", "")
	default:
		set("Initialized", "False", "ContainersNotInitialized", fmt.Sprintf("containers with incomplete status: [%s]", strings.Join(incomplete, " ")))
	}
	switch {
	case st.Phase == api.PodSucceeded:
		set("ContainersReady", "False", "PodCompleted", "")
		set("Ready", "False", "PodCompleted", "")
	case st.Phase == api.PodFailed:
		set("ContainersReady", "False", "PodFailed", "")
		set("Ready", "False", "PodFailed", "")
	case len(unready) == 0:
		set("ContainersReady", "True", "", "")
		set("Ready", "True", "", "")
	default:
		var prev string
		if c := PodCondition(p, "ContainersReady"); c != nil {
			prev = c.Message
		}
		msg := listMessage("containers with unready status: ", unready, prev)
		set("ContainersReady", "False", "ContainersNotReady", msg)
		set("Ready", "False", "ContainersNotReady", msg)
	}
	orderConditions(&st)
	return st
}

// kubeletConditions are the types of the conditions podStatus sets.
var kubeletConditions = [...]string{"PodScheduled", "PodReadyToStartContainers", "Initialized", "ContainersReady", "Ready"}

// containerStatus is the kubelet's report on one container; def is the
// waiting reason of one not created yet (ContainerCreating, or
// PodInitializing in a pod with init containers).
func (k *KubeletLoop) containerStatus(ctx *Context, p *api.Pod, c api.Container, rc *Container, def string) api.ContainerStatus {
	cs := api.ContainerStatus{Name: c.Name, Image: c.Image}
	started := false
	last, hasLast := api.ContainerStateTerminated{}, false
	if rc != nil {
		last, hasLast = rc.Last, rc.HasLast
	}
	switch {
	case rc != nil && (rc.State == "pulling" || rc.State == "creating") && rc.Failed.Reason != "":
		// The last attempt to start it failed: the kubelet reports that
		// failure until a start succeeds (its reason cache), the ended
		// run as the last state.
		w := rc.Failed
		cs.State.Waiting = &w
	case rc != nil && rc.HasLast && rc.State == "creating":
		// Restarted at once: the ended run is still the container's
		// state until the new container exists.
		t := rc.Last
		cs.State.Terminated = &t
		last, hasLast = rc.Prev, rc.HasPrev
	case rc == nil || rc.State == "pulling" || rc.State == "creating":
		cs.State.Waiting = &api.ContainerStateWaiting{Reason: def}
	case rc.State == "pullbackoff":
		if ctx.Now-rc.Since < api.Second {
			cs.State.Waiting = &api.ContainerStateWaiting{Reason: "ErrImagePull", Message: ctx.World.Image(c.Image).PullError}
		} else {
			w := pullBackOffState(c.Image, ctx.World.Image(c.Image).PullError)
			cs.State.Waiting = &w
		}
	case rc.State == "invalidname":
		cs.State.Waiting = &api.ContainerStateWaiting{Reason: "InvalidImageName", Message: invalidImageMessage(c.Image)}
	case rc.State == "neverpull":
		cs.State.Waiting = &api.ContainerStateWaiting{Reason: "ErrImageNeverPull", Message: fmt.Sprintf("Container image %q is not present with pull policy of Never", c.Image)}
	case rc.State == "configerror":
		w := configErrorState(rc.Message)
		cs.State.Waiting = &w
	case rc.State == "crashbackoff":
		w := crashLoopState(p, c.Name, rc.Until-rc.Since)
		cs.State.Waiting = &w
	case rc.State == "exited":
		reason := "Completed"
		if rc.ExitCode != 0 {
			reason = "Error"
		}
		if rc.Reason != "" {
			reason = rc.Reason
		}
		cs.State.Terminated = &api.ContainerStateTerminated{ExitCode: rc.ExitCode, Reason: reason, Message: rc.TermMessage, StartedAt: rc.RunSince, FinishedAt: rc.Since, ContainerID: rc.ID}
	case rc.State == "running" || rc.State == "stopping":
		cs.State.Running = &api.ContainerStateRunning{StartedAt: rc.RunSince}
		cs.Ready = rc.Ready
		started = rc.StartupOK
	}
	if rc != nil {
		cs.RestartCount = rc.Restarts
		// The newest container's id and image: the running or ended one,
		// or, while a restart waits (back-off, creation), the one that
		// ended (none before a container has run).
		cs.ContainerID = rc.ID
		if rc.ID != "" {
			cs.ImageID = imageID(c.Image, rc.Digest, prevImageID(p, c.Name))
		}
	}
	if hasLast {
		// A copy of its own: taking last's address would put last on the
		// heap at every call, with or without a last state.
		l := last
		cs.LastState.Terminated = &l
	}
	cs.Started = &started
	return cs
}

// crashLoopState is the waiting state of pod p's container name while it
// backs off for back before a restart.
func crashLoopState(p *api.Pod, name string, back api.Duration) api.ContainerStateWaiting {
	return api.ContainerStateWaiting{Reason: "CrashLoopBackOff",
		Message: fmt.Sprintf("back-off %s restarting failed container=%s pod=%s_%s(%s)", api.FormatDuration(back), name, p.Name, p.Namespace, p.UID)}
}

// configErrorState is the waiting state of a container the kubelet cannot
// create: what its configuration names is missing (msg).
func configErrorState(msg string) api.ContainerStateWaiting {
	return api.ContainerStateWaiting{Reason: "CreateContainerConfigError", Message: msg}
}

// pullBackOffState is the waiting state of a container whose image's
// pull failed with msg, while the kubelet backs off before pulling again.
func pullBackOffState(image, msg string) api.ContainerStateWaiting {
	return api.ContainerStateWaiting{Reason: "ImagePullBackOff", Message: fmt.Sprintf("Back-off pulling image %q: ErrImagePull: %s", image, msg)}
}

// listMessage is what followed by the names in brackets, space-separated
// ("containers with unready status: [web db]"): prev itself when it says
// that already (a pod's status is built again at every sync, its message
// mostly the same).
func listMessage(what string, names []string, prev string) string {
	list := strings.Join(names, " ")
	if n := len(what); len(prev) == n+len(list)+2 && prev[:n] == what && prev[n] == '[' &&
		prev[n+1:len(prev)-1] == list && prev[len(prev)-1] == ']' {
		return prev
	}
	return what + "[" + list + "]"
}

// imageID is a running container's imageID, repository@digest: prev
// itself when it says that already (the status is built again at every
// sync; the text is the same until the container runs another image).
func imageID(image, digest, prev string) string {
	host, repo := repositoryParts(image)
	if len(prev) == len(host)+len(repo)+1+len(digest) && prev[:len(host)] == host &&
		prev[len(host):len(host)+len(repo)] == repo && prev[len(host)+len(repo)] == '@' && prev[len(host)+len(repo)+1:] == digest {
		return prev
	}
	return host + repo + "@" + digest
}

// prevImageID is the imageID the pod's status reports for its container
// name, or "".
func prevImageID(p *api.Pod, name string) string {
	for _, list := range [2][]api.ContainerStatus{p.Status.ContainerStatuses, p.Status.InitContainerStatuses} {
		for i := range list {
			if list[i].Name == name {
				return list[i].ImageID
			}
		}
	}
	return ""
}
