package controller

import (
	"fmt"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/registry"
)

// hookFailure is the kubelet's message for a lifecycle hook that failed,
// by handler (lifecycle/handlers.go): exec reports the command and its
// exit, httpGet the request's error. A sleep hook never fails.
func (k *KubeletLoop) hookFailure(ctx *Context, p *api.Pod, c api.Container, h *api.LifecycleHandler) string {
	pod := fmt.Sprintf("%s_%s(%s)", p.Name, p.Namespace, p.UID)
	switch {
	case h.Exec != nil:
		list, _ := h.Exec["command"].([]any)
		cmd := make([]string, len(list))
		for i, v := range list {
			cmd[i] = str(v)
		}
		return fmt.Sprintf("Exec lifecycle hook ([%s]) for Container %q in Pod %q failed - error: command '%s' exited with 1: , message: \"\"",
			strings.Join(cmd, " "), c.Name, pod, strings.Join(cmd, " "))
	case h.HTTPGet != nil:
		host := str(h.HTTPGet["host"])
		if host == "" {
			host = k.addressOf(ctx, p)
		}
		port, path := portOf(c, h.HTTPGet["port"]), str(h.HTTPGet["path"])
		return fmt.Sprintf("HTTP lifecycle hook (%s) for Container %q in Pod %q failed - error: Get %q: dial tcp %s:%s: connect: connection refused",
			path, c.Name, pod, "http://"+host+":"+port+path, host, port)
	case h.TCPSocket != nil:
		return fmt.Sprintf("TCPSocket lifecycle hook for Container %q in Pod %q failed: tcpSocket is deprecated and not supported as a lifecycle hook", c.Name, pod)
	}
	return ""
}

// postStart runs a started container's postStart hook. It fails when the
// image says so (FailedPostStartHook): the kubelet then kills the
// container. It returns the failure's message, "" if none.
func (k *KubeletLoop) postStart(s *podSync, c api.Container, img registry.Image) string {
	if c.More().Lifecycle == nil || c.More().Lifecycle.PostStart == nil {
		return ""
	}
	h := c.More().Lifecycle.PostStart
	if !img.PostStartFails && h.TCPSocket == nil || h.Sleep != nil {
		return ""
	}
	msg := k.hookFailure(s.ctx, s.p, c, h)
	k.containerEvent(s.ctx, s.p, c.Name, "Warning", "FailedPostStartHook", msg)
	s.because("container " + c.Name + "'s postStart hook failed")
	return msg
}

// terminate stops a deleted pod's containers, then removes the pod. A
// container with a preStop hook runs it first: a sleep holds the stop for
// its seconds (within the grace period); a failing hook is reported
// (FailedPreStopHook) and the container stops at once.
func (k *KubeletLoop) terminate(ctx *Context, p *api.Pod, rt *Runtime, key string) (Result, error) {
	s := &podSync{ctx: ctx, p: p, rt: rt, key: key}
	ctx.Desired, ctx.DesiredFact = "pod deleted: no containers", Fact{Is: PodDeleted}
	ctx.Observed = fmt.Sprintf("%d containers running", k.countContainers(rt, key, p))
	ctx.Difference = "stop containers, then remove the pod"
	grace := api.Duration(30) * api.Second
	if g := p.Spec.TerminationGracePeriodSeconds; g != nil {
		grace = api.Duration(*g) * api.Second
	}
	waiting := false
	for _, c := range allContainers(p) {
		ck := key + "/" + c.Name
		rc := rt.Get(ck)
		if rc == nil || rc.State == "exited" {
			continue
		}
		if rc.State == "stopping" {
			if ctx.Now < rc.Until {
				waiting = true
				s.soon(rc.Until)
			}
			continue
		}
		k.containerEvent(ctx, p, c.Name, "Normal", "Killing", "Stopping container "+c.Name)
		img := ctx.World.Image(c.Image)
		var hook api.Duration
		if rc.State == "running" && c.More().Lifecycle != nil && c.More().Lifecycle.PreStop != nil {
			h := c.More().Lifecycle.PreStop
			switch {
			case h.Sleep != nil && h.Sleep.Seconds > 0:
				hook = api.Duration(h.Sleep.Seconds) * api.Second
			case img.PreStopFails || h.TCPSocket != nil:
				k.containerEvent(ctx, p, c.Name, "Warning", "FailedPreStopHook", k.hookFailure(ctx, p, c, h))
				s.act(Action{Verb: Observed, Container: c.Name, Rest: "preStop hook of " + c.Name + " failed"})
			}
		}
		// The hook, then SIGTERM and the time the container takes to
		// exit: all within the grace period, then it is killed.
		if d := min(hook+img.Stops, grace); rc.State == "running" && d > 0 {
			rc = rt.Container(ck)
			rc.State, rc.Since, rc.Until = "stopping", ctx.Now, ctx.Now+d
			rc.Message = "stopping (SIGTERM)"
			switch {
			case hook > 0:
				rc.Message = "running its preStop hook"
				s.act(Do(Run, fmt.Sprintf("the preStop hook of %s (sleep %s), then stop it", c.Name, api.FormatDuration(min(hook, grace)))))
			case d < img.Stops:
				s.act(Action{Verb: Stop, Container: c.Name, Rest: fmt.Sprintf("container %s (SIGTERM; killed when the %s grace period is up)", c.Name, api.FormatDuration(grace))})
			default:
				s.act(Action{Verb: Stop, Container: c.Name, Rest: fmt.Sprintf("container %s (SIGTERM; it exits in %s)", c.Name, api.FormatDuration(d))})
			}
			waiting = true
			s.soon(rc.Until)
			continue
		}
		s.act(Action{Verb: Stop, Container: c.Name, Rest: "container " + c.Name})
	}
	if waiting {
		res := Result{Outcome: Acted, RequeueAfter: s.wake - ctx.Now, RequeueReason: "preStop hook"}
		if len(ctx.Actions) == 0 {
			res.Outcome = ctx.NothingToDo().Outcome
		}
		return res, nil
	}
	k.removeContainers(rt, key)
	k.releaseAddress(key)
	if err := k.terminalStatus(ctx, p); err != nil {
		return Result{}, err
	}
	act := OnPod(Remove, p.Name, "(containers stopped)")
	if len(p.Finalizers) > 0 {
		act = OnPod(Delete, p.Name, "with no grace left (containers stopped; its finalizers keep it until they are removed)")
	}
	if err := ctx.Delete("Pod", p.Namespace, p.Name, true, act); err != nil {
		return Result{}, err
	}
	return Result{Outcome: Acted}, nil
}

// terminalStatus is what the kubelet reports of a deleted pod whose
// containers have stopped and that finalizers keep (a Job's pod, which
// the job-tracking finalizer holds until the Job has counted it): the
// phase Failed unless it had finished, its containers terminated — 137
// for one that was running, ContainerStatusUnknown for one that never
// ran. A pod nothing keeps goes at once, its last status unreported.
func (k *KubeletLoop) terminalStatus(ctx *Context, p *api.Pod) error {
	if len(p.Finalizers) == 0 || p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed {
		return nil
	}
	np := p.DeepCopy()
	np.Status.Phase = api.PodFailed
	for _, list := range [][]api.ContainerStatus{np.Status.InitContainerStatuses, np.Status.ContainerStatuses} {
		for i := range list {
			cs := &list[i]
			switch {
			case cs.State.Running != nil:
				cs.State = api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 137, Reason: "Error", StartedAt: cs.State.Running.StartedAt, FinishedAt: ctx.Now, ContainerID: cs.ContainerID}}
			case cs.State.Waiting != nil:
				cs.State = api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 137, Reason: "ContainerStatusUnknown",
					Message: "The container could not be located when the pod was terminated", FinishedAt: ctx.Now}}
			}
			cs.Ready = false
			if cs.Started != nil {
				cs.Started = api.Bool(false)
			}
		}
	}
	for _, t := range []string{"Ready", "ContainersReady"} {
		setPodConditionOn(&np.Status, api.PodCondition{Type: t, Status: "False", Reason: "PodFailed"}, ctx.Now)
	}
	_, err := ctx.UpdateStatus(np, Status("Failed: its containers stopped"))
	return err
}
