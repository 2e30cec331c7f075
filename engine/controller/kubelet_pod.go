package controller

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/informer"
)

// role is what a container is to its pod: one of its containers, an init
// container that runs to completion before them, or a sidecar (an init
// container with restartPolicy Always that starts before them and keeps
// running).
type role int

const (
	regular role = iota
	initOnce
	sidecar
)

func roleOf(c api.Container, init bool) role {
	switch {
	case !init:
		return regular
	case c.IsSidecar():
		return sidecar
	}
	return initOnce
}

// podSync is one pass of the kubelet over one pod.
type podSync struct {
	ctx  *Context
	p    *api.Pod
	rt   *Runtime
	key  string
	wake api.Time
	why  []string
	seen []string
}

// soon asks for a pass at t (the earliest asked wins).
func (s *podSync) soon(t api.Time) {
	if t > s.ctx.Now && (s.wake == 0 || t < s.wake) {
		s.wake = t
	}
}

func (s *podSync) because(why string) { s.why = append(s.why, why) }

func (s *podSync) act(a Action) { s.ctx.Actions = append(s.ctx.Actions, a) }

// allContainers lists init containers then containers.
func allContainers(p *api.Pod) []api.Container {
	if p.Spec.PodSpecMore == nil || len(p.Spec.PodSpecMore.InitContainers) == 0 {
		return p.Spec.Containers // read only: the callers range over it
	}
	out := make([]api.Container, 0, len(p.Spec.More().InitContainers)+len(p.Spec.Containers))
	out = append(out, p.Spec.More().InitContainers...)
	return append(out, p.Spec.Containers...)
}

// syncPod brings a pod's containers towards its spec: volumes mounted,
// init containers run in order (sidecars started and kept running), then
// the containers, each by its restartPolicy; then it reports status.
func (k *KubeletLoop) syncPod(ctx *Context, p *api.Pod, rt *Runtime, key string) (Result, error) {
	s := &podSync{ctx: ctx, p: p, rt: rt, key: key}
	ctx.Desired = desiredText(p)
	started := k.anyContainer(s)
	if !started && !p.Spec.More().HostNetwork && k.podCIDR(ctx) == "" {
		return k.networkNotReady(s)
	}
	// Volumes are set up once, before the first container: a ConfigMap
	// deleted later does not unmount them.
	mounted := started || k.mountVolumes(s)
	if mounted && !started {
		// The sandbox comes first: the pod's address.
		if _, ok, why := k.podAddress(ctx, key, p); !ok {
			return k.sandboxFailed(s, why)
		}
	}
	initDone := mounted
	if mounted {
		for _, c := range p.Spec.More().InitContainers {
			rc := k.syncContainer(s, c, roleOf(c, true))
			if !initComplete(c, rc) {
				initDone = false
				break
			}
		}
	}
	if initDone {
		for _, c := range p.Spec.Containers {
			k.syncContainer(s, c, regular)
		}
		if k.containersDone(p, rt, key) {
			k.stopSidecars(s)
		}
	}
	ctx.Observed = strings.Join(s.seen, "; ")
	if ctx.Observed == "" {
		ctx.Observed = "no container yet"
	}
	// A pod of its own, with the status just built: the store keeps it
	// when the status changed (4 syncs in 5 at scale). Built at once, the
	// status is not first a value of its own that DeepEqual's pointer
	// would move to the heap at every sync.
	np := p.WithStatus(k.podStatus(p, rt, key, ctx, mounted))
	if !reflect.DeepEqual(&np.Status, &p.Status) {
		if _, err := ctx.UpdateStatusOwned(np, reportStatus(np)); err != nil {
			return Result{}, err
		}
	}
	var res Result
	if s.wake > 0 {
		res.RequeueAfter, res.RequeueReason = s.wake-ctx.Now, RequeueContainerTimer
	}
	if len(ctx.Actions) == 0 {
		res.Outcome = ctx.NothingToDo().Outcome
	} else {
		ctx.Difference = strings.Join(s.why, "; ")
		if ctx.Difference == "" {
			ctx.Difference = "status out of date"
		}
		res.Outcome = Acted
	}
	return res, nil
}

// desiredText is what the kubelet wants of a pod. A container with a
// readiness or startup probe is ready when its probes say so: the
// kubelet's part is to run it and probe it, not to make it ready, so a
// pass that finds it running and not ready is in sync and its desired
// state says so ("running, readiness probed", "running, startup
// probed"), never "ready".
func desiredText(p *api.Pod) string {
	n := len(p.Spec.Containers)
	run := "running and ready"
	for _, c := range p.Spec.Containers {
		switch {
		case c.ReadinessProbe != nil:
			run = "running, readiness probed"
		case c.More().StartupProbe != nil && run != "running, readiness probed":
			run = "running, startup probed"
		}
	}
	if p.Spec.RestartPolicy == "Never" || p.Spec.RestartPolicy == "OnFailure" {
		run = "run to completion (restartPolicy " + p.Spec.RestartPolicy + ")"
	}
	d := strconv.Itoa(n) + " container(s) " + run
	if m := len(p.Spec.More().InitContainers); m > 0 {
		d = fmt.Sprintf("%d init container(s) in order, then %s", m, d)
	}
	return d
}

// containersDone reports whether every container of the pod has ended for
// good (exited, and its restartPolicy does not restart it).
func (k *KubeletLoop) containersDone(p *api.Pod, rt *Runtime, key string) bool {
	for _, c := range p.Spec.Containers {
		rc := rt.Get(key + "/" + c.Name)
		if rc == nil || rc.State != "exited" {
			return false
		}
	}
	return len(p.Spec.Containers) > 0
}

// stopSidecars stops the sidecars of a pod whose containers have all
// ended: the pod can then finish.
func (k *KubeletLoop) stopSidecars(s *podSync) {
	for _, c := range s.p.Spec.More().InitContainers {
		if roleOf(c, true) != sidecar {
			continue
		}
		rc := s.rt.Container(s.key + "/" + c.Name)
		if rc == nil || rc.State == "exited" {
			continue
		}
		k.containerEvent(s.ctx, s.p, c.Name, "Normal", "Killing", "Stopping container "+c.Name)
		s.because("the containers have ended; sidecar " + c.Name + " still runs")
		s.act(Action{Verb: Stop, Container: c.Name, Rest: "sidecar " + c.Name})
		rc.Last = api.ContainerStateTerminated{ExitCode: 0, Reason: "Completed", StartedAt: rc.RunSince, FinishedAt: s.ctx.Now}
		rc.State, rc.Since, rc.Until, rc.Ready, rc.ExitCode, rc.Reason, rc.HasLast = "exited", s.ctx.Now, 0, false, 0, "", false
	}
}

// podsReferring returns the keys of this node's unfinished pods that name
// the ConfigMap or Secret u (in env, envFrom or a volume).
func (k *KubeletLoop) podsReferring(c *informer.Cache, u *api.Unstructured) []string {
	if u.Kind != "ConfigMap" && u.Kind != "Secret" {
		return nil
	}
	var keys []string
	for _, p := range c.PodsOnNode(k.node) {
		if p.Namespace == u.Namespace && refersTo(p, u.Kind, u.Name) && p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed {
			keys = append(keys, api.RefOf(p).Key())
		}
	}
	return keys
}

// initComplete reports whether an init container lets the next one
// start: it exited with code 0, or, a sidecar, it has started (its
// startup probe passed) — a sidecar that later restarts does not undo it.
func initComplete(c api.Container, rc *Container) bool {
	if rc == nil {
		return false
	}
	if roleOf(c, true) == sidecar {
		return (rc.State == "running" && rc.StartupOK) || rc.HasLast || rc.State == "exited"
	}
	return rc.State == "exited" && rc.ExitCode == 0
}
