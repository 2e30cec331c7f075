package controller

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"

	"reconcile/engine/api"
	"reconcile/engine/registry"
)

// BackOffReset is how long a container must have run for its crash
// back-off to start again from the beginning (twice the maximum back-off).
const BackOffReset = 2 * BackOffMax

// syncContainer moves one container a step towards running: pull its
// image, create it (its ConfigMaps and Secrets must exist), run it, and,
// once it runs, watch it exit and probe it. It returns the container as
// the runtime now holds it (nil: none yet).
func (k *KubeletLoop) syncContainer(s *podSync, c api.Container, r role) *Container {
	ctx, p := s.ctx, s.p
	ck := s.key + "/" + c.Name
	rc := s.rt.Container(ck)
	img := ctx.World.Image(c.Image).ForIndex(podCompletionIndex(p))
	if rc != nil && rc.PodUID != p.UID {
		s.rt.Remove(ck)
		rc = nil
	}
	// What the runtime shows before this pass acts.
	seen := c.Name + ": no container"
	if rc != nil {
		seen = c.Name + ": " + describeContainer(rc, ctx.Now)
		if rc.Digest != "" && img.Digest != "" && rc.Digest != img.Digest {
			seen += fmt.Sprintf(" — runs %s, the registry now serves %s for %s", short(rc.Digest), short(img.Digest), c.Image)
		}
	}
	s.seen = append(s.seen, seen)
	switch {
	case rc == nil && api.ImageRefError(c.Image) != "":
		k.invalidImage(ctx, p, c, s.rt, ck)
		return s.rt.Get(ck)
	case rc == nil:
		present := s.rt.Images[c.Image] != ""
		if c.ImagePullPolicy != "Always" && present {
			k.containerEvent(ctx, p, c.Name, "Normal", "Pulled", "Container image "+strconv.Quote(c.Image)+" already present on machine")
			rc = &Container{PodUID: p.UID, Image: c.Image, Digest: s.rt.Images[c.Image]}
			s.rt.Add(ck, rc)
			s.because("no container " + c.Name + "; its image is on the node")
			k.create(s, c, rc, img)
		} else if c.ImagePullPolicy == "Never" {
			k.containerEvent(ctx, p, c.Name, "Warning", "ErrImageNeverPull", fmt.Sprintf("Container image %q is not present with pull policy of Never", c.Image))
			s.rt.Add(ck, &Container{PodUID: p.UID, Image: c.Image, State: "neverpull", Since: ctx.Now})
			return s.rt.Get(ck)
		} else {
			k.containerEvent(ctx, p, c.Name, "Normal", "Pulling", "Pulling image "+strconv.Quote(c.Image))
			rc = &Container{PodUID: p.UID, Image: c.Image, State: "pulling", Since: ctx.Now, Until: ctx.Now + img.Pull}
			s.rt.Add(ck, rc)
			s.because("no container " + c.Name + "; its image is not on the node")
			s.act(Action{Verb: Pull, Image: c.Image, Rest: c.Image + " (" + api.FormatDuration(img.Pull) + ")"})
		}
	case rc.State == "pulling" && ctx.Now >= rc.Until:
		if img.PullError != "" {
			s.because("the pull of " + c.Image + " failed")
			k.containerEvent(ctx, p, c.Name, "Warning", "Failed", fmt.Sprintf("Failed to pull image %q: %s", c.Image, img.PullError))
			k.containerEvent(ctx, p, c.Name, "Warning", "Failed", "Error: ErrImagePull")
			back := nextBackOff(rc)
			rc.State, rc.Since, rc.Until = "pullbackoff", ctx.Now, ctx.Now+back
			s.act(Action{Verb: PullFailed, Image: c.Image, Detail: img.PullError + "; back off " + api.FormatDuration(back),
				Rest: c.Image + " failed: " + img.PullError + "; back off " + api.FormatDuration(back)})
			s.soon(ctx.Now + api.Second) // the next sync reports the back-off
			break
		}
		s.rt.SetImage(c.Image, img.Digest)
		rc.Digest = img.Digest
		s.because("image pulled; container " + c.Name + " not started")
		took := api.FormatDuration(ctx.Now - rc.Since)
		k.containerEvent(ctx, p, c.Name, "Normal", "Pulled", fmt.Sprintf("Successfully pulled image %q in %s (%s including waiting). Image size: %d bytes.", c.Image, took, took, img.Size))
		k.create(s, c, rc, img)
	case rc.State == "pullbackoff" && ctx.Now >= rc.Until:
		s.because("back-off over; image still missing")
		k.containerEvent(ctx, p, c.Name, "Normal", "Pulling", "Pulling image "+strconv.Quote(c.Image))
		rc.Failed = pullBackOffState(c.Image, ctx.World.Image(c.Image).PullError)
		rc.State, rc.Since, rc.Until = "pulling", ctx.Now, ctx.Now+img.Pull
		s.act(Action{Verb: RetryPull, Image: c.Image, Rest: c.Image})
	case rc.State == "pullbackoff":
		k.containerEvent(ctx, p, c.Name, "Normal", "BackOff", "Back-off pulling image "+strconv.Quote(c.Image))
		k.containerEvent(ctx, p, c.Name, "Warning", "Failed", "Error: ImagePullBackOff")
	case rc.State == "configerror":
		s.because("container " + c.Name + " not created: " + rc.Message)
		k.create(s, c, rc, img)
	case rc.State == "creating" && ctx.Now >= rc.Until:
		s.because("container " + c.Name + " created, not running")
		k.run(s, c, r, rc, img)
	case rc.State == "crashbackoff" && ctx.Now >= rc.Until:
		s.because("back-off over; container " + c.Name + " not running")
		k.create(s, c, rc, img)
	case rc.State == "running":
		k.live(s, c, r, rc, img)
	}
	if rc.State != "running" || rc.Until > ctx.Now {
		s.soon(rc.Until)
	}
	return rc
}

// create creates a container once its environment can be built: every
// ConfigMap and Secret it names exists (CreateContainerConfigError
// otherwise, until one appears). It runs once the runtime has created it
// (the image's start time).
func (k *KubeletLoop) create(s *podSync, c api.Container, rc *Container, img registry.Image) {
	// A failed start is what the status reports until a start succeeds.
	switch rc.State {
	case "crashbackoff":
		rc.Failed = crashLoopState(s.p, c.Name, rc.Until-rc.Since)
	case "configerror":
		rc.Failed = configErrorState(rc.Message)
	}
	if msg := k.configError(s.ctx, s.p, c); msg != "" {
		k.containerEvent(s.ctx, s.p, c.Name, "Warning", "Failed", "Error: "+msg)
		if rc.State != "configerror" || rc.Message != msg {
			s.act(Action{Verb: Cannot, Container: c.Name, Rest: "create container " + c.Name + ": " + msg})
		}
		rc.State, rc.Since, rc.Until, rc.Ready, rc.Message = "configerror", s.ctx.Now, 0, false, msg
		return
	}
	rc.State, rc.Since, rc.Until, rc.Ready, rc.Message = "creating", s.ctx.Now, s.ctx.Now+img.Start, false, ""
	s.act(Action{Verb: Create, Container: c.Name, Rest: "container " + c.Name + " (" + api.FormatDuration(img.Start) + ")"})
}

// run starts a created container and its postStart hook, with the
// kubelet's events for it ("Created container: NAME", then "Started
// container NAME", as kuberuntime's startContainer words them). It is ready
// once it runs if it has neither a startup nor a readiness probe;
// otherwise its probes decide. A container that exits runs for the
// image's run time (its start time, a second at least, by default).
func (k *KubeletLoop) run(s *podSync, c api.Container, r role, rc *Container, img registry.Image) {
	ctx, p := s.ctx, s.p
	k.containerEvent(ctx, p, c.Name, "Normal", "Created", "Created container: "+c.Name)
	k.containerEvent(ctx, p, c.Name, "Normal", "Started", "Started container "+c.Name)
	if rc.HasLast {
		rc.Restarts++ // a new container of an ended one: restartCount counts it
	}
	rc.State, rc.Since, rc.RunSince, rc.Until, rc.Ready = "running", ctx.Now, ctx.Now, 0, false
	rc.Failed = api.ContainerStateWaiting{}
	rc.ID = containerID(p.UID, c.Name, rc.Restarts)
	rc.Probes = [3]ProbeState{}
	rc.StartupOK = c.More().StartupProbe == nil
	s.act(Action{Verb: Start, Container: c.Name, Rest: "container " + c.Name})
	if msg := k.postStart(s, c, img); msg != "" {
		k.exit(s, c, r, rc, img, 137, "FailedPostStartHook")
		return
	}
	if exits, _ := img.Exits(restartPolicyOf(s.p, r)); exits || oomKilled(c, img) {
		run := img.Runs
		if run == 0 {
			run = max(img.Start, api.Second)
		}
		rc.Until = ctx.Now + run
	}
	k.startProbes(s, c, r, rc, img)
}

// containerID is the runtime's id of the container run for the pod uid's
// container name after restarts restarts: containerd:// and 64 hex
// digits, as containerd gives, derived from the three (each restart is a
// new container with an id of its own) rather than drawn at random.
func containerID(uid, name string, restarts int32) string {
	sum := sha256.Sum256([]byte(uid + "/" + name + "/" + strconv.Itoa(int(restarts))))
	return "containerd://" + hex.EncodeToString(sum[:])
}

// podCompletionIndex is the completion index of an Indexed Job's pod, -1
// for any other pod.
func podCompletionIndex(p *api.Pod) int {
	v, ok := p.Annotations[JobCompletionIndex]
	if !ok {
		return -1 // not an indexed Job's: Atoi("")'s error was garbage at every container sync
	}
	if i, err := strconv.Atoi(v); err == nil && i >= 0 {
		return i
	}
	return -1
}

// restartPolicyOf is the policy a container lives by: a sidecar's Always,
// an init container's OnFailure unless the pod's is Never, else the pod's.
func restartPolicyOf(p *api.Pod, r role) string {
	switch r {
	case sidecar:
		return "Always"
	case initOnce:
		if p.Spec.RestartPolicy == "Never" {
			return "Never"
		}
		return "OnFailure"
	}
	if p.Spec.RestartPolicy == "" {
		return "Always"
	}
	return p.Spec.RestartPolicy
}

// live watches a running container: it exits when its image's run is
// over, and its probes run on their periods.
func (k *KubeletLoop) live(s *podSync, c api.Container, r role, rc *Container, img registry.Image) {
	if oomKilled(c, img) && rc.Until > 0 && s.ctx.Now >= rc.Until {
		s.because("container " + c.Name + " used more memory than its limit")
		k.exit(s, c, r, rc, img, 137, oomKilledReason)
		return
	}
	if exits, code := img.Exits(restartPolicyOf(s.p, r)); exits && rc.Until > 0 && s.ctx.Now >= rc.Until {
		s.because("container " + c.Name + " exited")
		k.exit(s, c, r, rc, img, code, "")
		return
	}
	k.probe(s, c, r, rc, img)
}

// oomKilledReason is the runtime's reason for a container the kernel's
// OOM killer ended.
const oomKilledReason = "OOMKilled"

// oomKilled reports whether a container of img uses more memory than its
// limit allows: the kernel kills it once it has allocated (as it would
// have run to its end, or its start time, a second at least).
func oomKilled(c api.Container, img registry.Image) bool {
	limit, ok := c.Resources.Limits["memory"]
	return ok && img.OverLimit(limit.Value())
}

// exit ends a container's run with code: killed (by the kubelet, for
// killedBy) or by itself. Its restartPolicy decides what follows: a
// restart — at once the first time, then after a doubling back-off
// (CrashLoopBackOff) — or the end.
func (k *KubeletLoop) exit(s *podSync, c api.Container, r role, rc *Container, img registry.Image, code int32, killedBy string) {
	ctx, p := s.ctx, s.p
	reason := "Completed"
	if code != 0 {
		reason = "Error"
	}
	if killedBy == oomKilledReason {
		reason = oomKilledReason
	}
	ended := api.ContainerStateTerminated{ExitCode: code, Reason: reason, StartedAt: rc.RunSince, FinishedAt: ctx.Now, ContainerID: rc.ID}
	if killedBy == "" {
		// What the program wrote to its terminationMessagePath, as much
		// of it as the kubelet reads (4096 bytes).
		ended.Message = img.TerminationMessage[:min(len(img.TerminationMessage), 4096)]
	}
	rc.Ready = false
	policy := restartPolicyOf(p, r)
	restart := policy == "Always" || (policy == "OnFailure" && code != 0)
	switch killedBy {
	case "":
		s.act(exited(c.Name, int(code)))
	case oomKilledReason:
		a := exited(c.Name, int(code))
		a.Detail, a.Rest = oomKilledReason, a.Rest+" ("+oomKilledReason+")"
		s.act(a)
	case "FailedPostStartHook":
		k.containerEvent(ctx, p, c.Name, "Normal", "Killing", "FailedPostStartHook")
		s.act(Action{Verb: Kill, Container: c.Name, Rest: "container " + c.Name + ": its postStart hook failed"})
	default:
		msg := fmt.Sprintf("Container %s failed %s probe", c.Name, killedBy)
		if restart {
			msg += ", will be restarted"
		}
		k.containerEvent(ctx, p, c.Name, "Normal", "Killing", msg)
		s.act(Action{Verb: Kill, Container: c.Name, Rest: "container " + c.Name + ": " + killedBy + " probe failed"})
	}
	if what := p.Annotations[SideEffectAnnotation]; what != "" && code == 0 && r == regular && killedBy == "" {
		ctx.World.SideEffect(p, what)
		s.act(Action{Verb: Outside, Detail: what, Rest: "outside the cluster: " + what})
	}
	if !restart {
		// The run's end is the container's state; lastState stays the
		// run before.
		rc.State, rc.Since, rc.Until, rc.ExitCode, rc.Reason = "exited", ctx.Now, 0, code, ""
		rc.TermMessage = ended.Message
		if killedBy == oomKilledReason {
			rc.Reason = oomKilledReason
		}
		return
	}
	first := !rc.HasLast
	rc.Prev, rc.HasPrev = rc.Last, rc.HasLast
	rc.Last, rc.HasLast = ended, true
	long := ctx.Now-rc.RunSince >= BackOffReset
	if long {
		rc.BackOff = 0 // it ran long enough: the back-off starts over
	}
	if first || long {
		k.create(s, c, rc, img)
		return
	}
	back := nextBackOff(rc)
	rc.State, rc.Since, rc.Until = "crashbackoff", ctx.Now, ctx.Now+back
	k.containerEvent(ctx, p, c.Name, "Warning", "BackOff", fmt.Sprintf("Back-off restarting failed container %s in pod %s_%s(%s)", c.Name, p.Name, p.Namespace, p.UID))
	s.act(Action{Verb: BackOff, Container: c.Name, Rest: api.FormatDuration(back) + " before restarting " + c.Name})
}
