package controller

import (
	"fmt"
	"reflect"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/informer"
	"reconcile/engine/registry"
	"reconcile/engine/store"
)

// KubeletLoop is the kubelet of one node.
//
// Desired: the pods bound to this node, each container running its image
// and ready. Observed: the node's container runtime. Difference: pull
// images, start containers, report readiness, stop the containers of pods
// being deleted — and write what is true into pod status.
type KubeletLoop struct {
	node string
}

// Container back-off bounds (image pulls and crash loops).
const (
	BackOffInitial = 10 * api.Second
	BackOffMax     = 300 * api.Second
)

// NewKubelet returns the kubelet of node.
func NewKubelet(node string) *KubeletLoop { return &KubeletLoop{node: node} }

func (k *KubeletLoop) Name() string      { return Kubelet }
func (k *KubeletLoop) Watches() []string { return []string{"Pod", "Node"} }
func (k *KubeletLoop) Clone() Reconciler { return &KubeletLoop{node: k.node} }

// Node returns the node this kubelet runs on.
func (k *KubeletLoop) Node() string { return k.node }

// Object names what a key stands for: a pod ("namespace/name"), or the
// kubelet's own node.
func (k *KubeletLoop) Object(key string) api.Ref {
	if ns, name, ok := strings.Cut(key, "/"); ok {
		return api.Ref{Kind: "Pod", Namespace: ns, Name: name}
	}
	return api.Ref{Kind: "Node", Name: key}
}

// Keys queues pods bound to this node, and the node itself.
func (k *KubeletLoop) Keys(c *informer.Cache, ev store.WatchEvent) []string {
	switch o := ev.Object.(type) {
	case *api.Pod:
		if o.Spec.NodeName != k.node {
			return nil
		}
		// The kubelet acts on what the API asks of it, not on the status
		// it (or others) wrote.
		if old, ok := ev.Old.(*api.Pod); ok && ev.Type == store.Modified && old.Spec.NodeName == k.node &&
			reflect.DeepEqual(old.Spec, o.Spec) && (old.DeletionTimestamp == nil) == (o.DeletionTimestamp == nil) {
			return nil
		}
		return []string{api.RefOf(o).Key()}
	case *api.Node:
		if cond := nodeCondition(o, "Ready"); o.Name == k.node && ev.Type != store.Deleted && (cond == nil || cond.Status != "True") {
			return []string{o.Name}
		}
	}
	return nil
}

// Reconcile runs one pass for a pod on this node (or for the node itself).
func (k *KubeletLoop) Reconcile(ctx *Context, req Request) (Result, error) {
	key := req.Key
	if !strings.Contains(key, "/") {
		return k.syncNode(ctx)
	}
	rt := ctx.World.Runtime(k.node)
	p, _ := ctx.Cache.Get("Pod", key).(*api.Pod)
	if p == nil || p.Spec.NodeName != k.node {
		ctx.Desired = "pod gone from this node"
		n := k.removeContainers(rt, key)
		ctx.Observed = fmt.Sprintf("%d containers", n)
		return ctx.NothingToDo(), nil
	}
	if p.DeletionTimestamp != nil {
		ctx.Desired = "pod deleted: no containers"
		ctx.Observed = fmt.Sprintf("%d containers running", k.countContainers(rt, key, p))
		ctx.Difference = "stop containers, then remove the pod"
		for _, c := range p.Spec.Containers {
			if rt.Containers[key+"/"+c.Name] != nil {
				ctx.Event(p, "Normal", "Killing", "Stopping container %s", c.Name)
				ctx.Actions = append(ctx.Actions, "stop container "+c.Name)
			}
		}
		k.removeContainers(rt, key)
		text := "remove pod " + p.Name + " (containers stopped)"
		if len(p.Finalizers) > 0 {
			text = "delete pod " + p.Name + " with no grace left (containers stopped; its finalizers keep it until they are removed)"
		}
		if err := ctx.Delete("Pod", p.Namespace, p.Name, true, text); err != nil {
			return Result{}, err
		}
		return Result{Outcome: Acted}, nil
	}
	if p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed {
		ctx.Desired, ctx.Observed = "pod finished: nothing to run", p.Status.Phase
		return ctx.NothingToDo(), nil
	}
	ctx.Desired = fmt.Sprintf("%d container(s) running and ready", len(p.Spec.Containers))
	var wake api.Time
	soon := func(t api.Time) {
		if t > ctx.Now && (wake == 0 || t < wake) {
			wake = t
		}
	}
	var states, why []string
	for _, c := range p.Spec.Containers {
		ck := key + "/" + c.Name
		rc := rt.Container(ck)
		img := ctx.World.Image(c.Image)
		if rc != nil && rc.PodUID != p.UID {
			delete(rt.Containers, ck)
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
		states = append(states, seen)
		switch {
		case rc == nil && api.ImageRefError(c.Image) != "":
			k.invalidImage(ctx, p, c, rt, ck)
			continue
		case rc == nil:
			present := rt.Images[c.Image] != ""
			if c.ImagePullPolicy != "Always" && present {
				ctx.Event(p, "Normal", "Pulled", "Container image %q already present on machine", c.Image)
				rc = &Container{PodUID: p.UID, Image: c.Image, Digest: rt.Images[c.Image]}
				rt.Add(ck, rc)
				why = append(why, "no container "+c.Name+"; its image is on the node")
				k.start(ctx, p, c.Name, rc, img)
			} else if c.ImagePullPolicy == "Never" {
				ctx.Event(p, "Warning", "ErrImageNeverPull", "Container image %q is not present with pull policy of Never", c.Image)
				rt.Add(ck, &Container{PodUID: p.UID, Image: c.Image, State: "neverpull", Since: ctx.Now})
				continue
			} else {
				ctx.Event(p, "Normal", "Pulling", "Pulling image %q", c.Image)
				rc = &Container{PodUID: p.UID, Image: c.Image, State: "pulling", Since: ctx.Now, Until: ctx.Now + img.Pull}
				rt.Add(ck, rc)
				why = append(why, "no container "+c.Name+"; its image is not on the node")
				ctx.Actions = append(ctx.Actions, fmt.Sprintf("pull %s (%s)", c.Image, api.FormatDuration(img.Pull)))
			}
		case rc.State == "pulling" && ctx.Now >= rc.Until:
			if img.PullError != "" {
				why = append(why, "the pull of "+c.Image+" failed")
				ctx.Event(p, "Warning", "Failed", "Failed to pull image %q: %s", c.Image, img.PullError)
				ctx.Event(p, "Warning", "Failed", "Error: ErrImagePull")
				back := nextBackOff(rc)
				rc.State, rc.Since, rc.Until = "pullbackoff", ctx.Now, ctx.Now+back
				ctx.Actions = append(ctx.Actions, fmt.Sprintf("pull %s failed: %s; back off %s", c.Image, img.PullError, api.FormatDuration(back)))
				soon(ctx.Now + api.Second) // the next sync reports the back-off
				break
			}
			rt.Images[c.Image] = img.Digest
			rc.Digest = img.Digest
			why = append(why, "image pulled; container "+c.Name+" not started")
			took := api.FormatDuration(ctx.Now - rc.Since)
			ctx.Event(p, "Normal", "Pulled", "Successfully pulled image %q in %s (%s including waiting). Image size: %d bytes.", c.Image, took, took, img.Size)
			k.start(ctx, p, c.Name, rc, img)
		case rc.State == "pullbackoff" && ctx.Now >= rc.Until:
			why = append(why, "back-off over; image still missing")
			ctx.Event(p, "Normal", "Pulling", "Pulling image %q", c.Image)
			rc.State, rc.Since, rc.Until = "pulling", ctx.Now, ctx.Now+img.Pull
			ctx.Actions = append(ctx.Actions, fmt.Sprintf("retry pull %s", c.Image))
		case rc.State == "pullbackoff":
			ctx.Event(p, "Normal", "BackOff", "Back-off pulling image %q", c.Image)
			ctx.Event(p, "Warning", "Failed", "Error: ImagePullBackOff")
		case rc.State == "running" && p.Spec.RestartPolicy != "" && p.Spec.RestartPolicy != "Always" && ctx.Now >= rc.Until:
			// Run to completion: the container's work is done.
			code := int32(0)
			if img.Crash {
				code = 1
			}
			rc.State, rc.Since, rc.Ready, rc.ExitCode = "exited", ctx.Now, false, code
			why = append(why, "container "+c.Name+" finished its work")
			ctx.Actions = append(ctx.Actions, fmt.Sprintf("container %s exited with code %d", c.Name, code))
			if what := p.Annotations[SideEffectAnnotation]; what != "" && code == 0 {
				ctx.World.SideEffect(p, what)
				ctx.Actions = append(ctx.Actions, "outside the cluster: "+what)
			}
		case rc.State == "running" && img.Crash && ctx.Now >= rc.Until:
			why = append(why, "container "+c.Name+" exited")
			ctx.Actions = append(ctx.Actions, fmt.Sprintf("container %s exited with code 1", c.Name))
			k.restart(ctx, p, c.Name, rc, img)
		case rc.State == "running" && !img.Healthy && c.LivenessProbe != nil && ctx.Now >= livenessDeadline(rc, c.LivenessProbe):
			// The liveness probe failed failureThreshold times in a row.
			for i := int32(0); i < probeValue(c.LivenessProbe.FailureThreshold, 3); i++ {
				ctx.Event(p, "Warning", "Unhealthy", "Liveness probe failed: HTTP probe failed with statuscode: 500")
			}
			ctx.Event(p, "Normal", "Killing", "Container %s failed liveness probe, will be restarted", c.Name)
			why = append(why, "container "+c.Name+" failed its liveness probe")
			ctx.Actions = append(ctx.Actions, fmt.Sprintf("kill container %s: liveness probe failed", c.Name))
			k.restart(ctx, p, c.Name, rc, img)
		case rc.State == "creating" && ctx.Now >= rc.Until:
			why = append(why, "container "+c.Name+" created, not running")
			k.run(ctx, p, c, rc, img)
		case rc.State == "crashbackoff" && ctx.Now >= rc.Until:
			why = append(why, "back-off over; container "+c.Name+" not running")
			k.start(ctx, p, c.Name, rc, img)
		case rc.State == "running" && !rc.Ready && img.Ready && c.ReadinessProbe != nil && ctx.Now >= rc.Until:
			rc.Ready = true
			why = append(why, "container "+c.Name+" answers its readiness probe; status says not ready")
			ctx.Actions = append(ctx.Actions, fmt.Sprintf("readiness probe of %s passed", c.Name))
		case rc.State == "running" && !img.Ready && c.ReadinessProbe != nil && ctx.Now >= rc.Until:
			ctx.Event(p, "Warning", "Unhealthy", "Readiness probe failed: HTTP probe failed with statuscode: 503")
			rc.Until = ctx.Now + 10*api.Second
		}
		soon(rc.Until)
		if rc.State == "running" && !img.Healthy && c.LivenessProbe != nil {
			soon(livenessDeadline(rc, c.LivenessProbe))
		}

	}
	ctx.Observed = strings.Join(states, "; ")
	st := k.podStatus(p, rt, key, ctx)
	if !reflect.DeepEqual(st, p.Status) {
		np := p.DeepCopy()
		np.Status = st
		if _, err := ctx.UpdateStatus(np, fmt.Sprintf("report status %s", phaseText(np))); err != nil {
			return Result{}, err
		}
	}
	var res Result
	if wake > 0 {
		res.RequeueAfter, res.RequeueReason = wake-ctx.Now, "container timer"
	}
	if len(ctx.Actions) == 0 {
		res.Outcome = ctx.NothingToDo().Outcome
	} else {
		ctx.Difference = strings.Join(why, "; ")
		if ctx.Difference == "" {
			ctx.Difference = "status out of date"
		}
		res.Outcome = Acted
	}
	return res, nil
}

// nextBackOff doubles the container's back-off: 10s, 20s, 40s … 5m.
func nextBackOff(rc *Container) api.Duration {
	if rc.BackOff == 0 {
		rc.BackOff = BackOffInitial
	} else {
		rc.BackOff = min(rc.BackOff*2, BackOffMax)
	}
	return rc.BackOff
}

// restart starts a container that ended: at once the first time, then
// after a doubling back-off (CrashLoopBackOff).
func (k *KubeletLoop) restart(ctx *Context, p *api.Pod, name string, rc *Container, img registry.Image) {
	rc.Restarts++
	if rc.Restarts == 1 {
		k.start(ctx, p, name, rc, img)
		return
	}
	back := nextBackOff(rc)
	rc.State, rc.Since, rc.Until, rc.Ready = "crashbackoff", ctx.Now, ctx.Now+back, false
	ctx.Event(p, "Warning", "BackOff", "Back-off restarting failed container %s in pod %s_%s(%s)", name, p.Name, p.Namespace, p.UID)
	ctx.Actions = append(ctx.Actions, fmt.Sprintf("back off %s before restarting %s", api.FormatDuration(back), name))
}

// start creates a container; it runs once the runtime has created it
// (the image's start time).
func (k *KubeletLoop) start(ctx *Context, p *api.Pod, name string, rc *Container, img registry.Image) {
	rc.State, rc.Since, rc.Until, rc.Ready = "creating", ctx.Now, ctx.Now+img.Start, false
	ctx.Actions = append(ctx.Actions, fmt.Sprintf("create container %s (%s)", name, api.FormatDuration(img.Start)))
}

// run starts a created container. Without a readiness probe it is ready
// once it runs; with one, once the probe first passes (initialDelaySeconds
// later) — never, for an image that does not answer it. A container that
// exits (a crash, a Job's work) runs for the image's start time first.
func (k *KubeletLoop) run(ctx *Context, p *api.Pod, c api.Container, rc *Container, img registry.Image) {
	ctx.Event(p, "Normal", "Created", "Created container %s", c.Name)
	ctx.Event(p, "Normal", "Started", "Started container %s", c.Name)
	rc.State, rc.Since, rc.Until, rc.Ready = "running", ctx.Now, ctx.Now, false
	ctx.Actions = append(ctx.Actions, "start container "+c.Name)
	exits := img.Crash || (p.Spec.RestartPolicy != "" && p.Spec.RestartPolicy != "Always")
	switch {
	case exits:
		rc.Until = ctx.Now + max(img.Start, api.Second)
	case c.ReadinessProbe == nil:
		rc.Ready = true
	case img.Ready && c.ReadinessProbe.InitialDelaySeconds == 0:
		rc.Ready = true
	default:
		// The first probe runs after initialDelaySeconds (a second at least).
		rc.Until = ctx.Now + max(api.Duration(c.ReadinessProbe.InitialDelaySeconds)*api.Second, api.Second)
	}
}

func describeContainer(rc *Container, now api.Time) string {
	switch rc.State {
	case "pulling":
		return fmt.Sprintf("pulling %s, %s left", rc.Image, api.FormatDuration(rc.Until-now))
	case "pullbackoff":
		return "image pull failed, backing off"
	case "crashbackoff":
		return fmt.Sprintf("crashed %d time(s), backing off", rc.Restarts)
	case "neverpull":
		return "image not present"
	case "exited":
		return fmt.Sprintf("exited with code %d", rc.ExitCode)
	case "creating":
		return "container being created"
	case "running":
		if rc.Ready {
			return "running, ready"
		}
		return "running, not ready"
	}
	return rc.State
}

func phaseText(p *api.Pod) string {
	ready := "not ready"
	if IsPodReady(p) {
		ready = "ready"
	}
	return p.Status.Phase + ", " + ready
}

func (k *KubeletLoop) countContainers(rt *Runtime, key string, p *api.Pod) int {
	n := 0
	for _, c := range p.Spec.Containers {
		if rt.Containers[key+"/"+c.Name] != nil {
			n++
		}
	}
	return n
}

func (k *KubeletLoop) removeContainers(rt *Runtime, key string) int {
	n := 0
	for ck := range rt.Containers {
		if strings.HasPrefix(ck, key+"/") {
			delete(rt.Containers, ck)
			n++
		}
	}
	return n
}

// podStatus computes the status the kubelet reports for p.
func (k *KubeletLoop) podStatus(p *api.Pod, rt *Runtime, key string, ctx *Context) api.PodStatus {
	st := p.DeepCopy().Status
	st.Phase = api.PodPending
	st.HostIP = nodeIP(k.node)
	if st.StartTime == nil {
		t := ctx.Now
		st.StartTime = &t
	}
	allReady, anyRunning := true, false
	exited, failedExit := 0, false
	var statuses []api.ContainerStatus
	var unready []string
	for i, c := range p.Spec.Containers {
		rc := rt.Containers[key+"/"+c.Name]
		cs := api.ContainerStatus{Name: c.Name, Image: c.Image}
		if i < len(p.Status.ContainerStatuses) && p.Status.ContainerStatuses[i].Name == c.Name {
			cs.LastState = p.Status.ContainerStatuses[i].LastState
		}
		started := false
		switch {
		case rc == nil || rc.State == "pulling" || rc.State == "creating":
			cs.State.Waiting = &api.ContainerStateWaiting{Reason: "ContainerCreating"}
		case rc.State == "pullbackoff":
			if ctx.Now-rc.Since < api.Second {
				cs.State.Waiting = &api.ContainerStateWaiting{Reason: "ErrImagePull", Message: ctx.World.Image(c.Image).PullError}
			} else {
				cs.State.Waiting = &api.ContainerStateWaiting{Reason: "ImagePullBackOff",
					Message: fmt.Sprintf("Back-off pulling image %q: ErrImagePull: %s", c.Image, ctx.World.Image(c.Image).PullError)}
			}
		case rc.State == "invalidname":
			cs.State.Waiting = &api.ContainerStateWaiting{Reason: "InvalidImageName", Message: invalidImageMessage(c.Image)}
		case rc.State == "neverpull":
			cs.State.Waiting = &api.ContainerStateWaiting{Reason: "ErrImageNeverPull", Message: fmt.Sprintf("Container image %q is not present with pull policy of Never", c.Image)}
		case rc.State == "crashbackoff":
			cs.State.Waiting = &api.ContainerStateWaiting{Reason: "CrashLoopBackOff",
				Message: fmt.Sprintf("back-off %s restarting failed container=%s pod=%s_%s(%s)", api.FormatDuration(rc.Until-rc.Since), c.Name, p.Name, p.Namespace, p.UID)}
			cs.LastState = api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 1, Reason: "Error", FinishedAt: rc.Since}}
			anyRunning = true
		case rc.State == "exited":
			reason := "Completed"
			if rc.ExitCode != 0 {
				reason = "Error"
			}
			cs.State.Terminated = &api.ContainerStateTerminated{ExitCode: rc.ExitCode, Reason: reason, FinishedAt: rc.Since}
			exited++
			if rc.ExitCode != 0 {
				failedExit = true
			}
		case rc.State == "running":
			cs.State.Running = &api.ContainerStateRunning{StartedAt: rc.Since}
			cs.Ready = rc.Ready
			cs.ImageID = repository(c.Image) + "@" + rc.Digest
			started = true
			anyRunning = true
		}
		if rc != nil {
			cs.RestartCount = rc.Restarts
		}
		cs.Started = &started
		if !cs.Ready {
			allReady = false
			unready = append(unready, c.Name)
		}
		statuses = append(statuses, cs)
	}
	st.ContainerStatuses = statuses
	if anyRunning {
		st.Phase = api.PodRunning
		st.PodIP = podIP(k.node, p.UID)
	}
	if exited == len(p.Spec.Containers) && exited > 0 {
		st.Phase = api.PodSucceeded
		if failedExit {
			st.Phase = api.PodFailed
		}
	}
	set := func(t, status, reason, msg string) {
		setPodConditionOn(&st, api.PodCondition{Type: t, Status: status, Reason: reason, Message: msg}, ctx.Now)
	}
	set("PodScheduled", "True", "", "")
	set("Initialized", "True", "", "")
	if allReady {
		set("ContainersReady", "True", "", "")
		set("Ready", "True", "", "")
	} else {
		msg := fmt.Sprintf("containers with unready status: [%s]", strings.Join(unready, " "))
		set("ContainersReady", "False", "ContainersNotReady", msg)
		set("Ready", "False", "ContainersNotReady", msg)
	}
	orderConditions(&st)
	return st
}

func setPodConditionOn(st *api.PodStatus, c api.PodCondition, now api.Time) {
	p := &api.Pod{Status: *st}
	setPodCondition(p, c, now)
	*st = p.Status
}

func orderConditions(st *api.PodStatus) {
	order := []string{"PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled", "DisruptionTarget"}
	var out []api.PodCondition
	for _, t := range order {
		for _, c := range st.Conditions {
			if c.Type == t {
				out = append(out, c)
			}
		}
	}
	st.Conditions = out
}

func nodeIP(node string) string {
	var h uint32
	for i := 0; i < len(node); i++ {
		h = h*31 + uint32(node[i])
	}
	return fmt.Sprintf("10.0.%d.%d", (h>>8)%250+1, h%250+1)
}

func podIP(node, uid string) string {
	var h uint32
	for i := 0; i < len(uid); i++ {
		h = h*31 + uint32(uid[i])
	}
	var n uint32
	for i := 0; i < len(node); i++ {
		n = n*31 + uint32(node[i])
	}
	return fmt.Sprintf("10.244.%d.%d", n%250+1, h%250+2)
}

// syncNode posts the node's Ready condition when it is not True (after the
// kubelet comes back).
func (k *KubeletLoop) syncNode(ctx *Context) (Result, error) {
	n, _ := ctx.Cache.Get("Node", k.node).(*api.Node)
	ctx.Desired = "node status Ready=True posted"
	if n == nil {
		ctx.Observed = "node object missing"
		return ctx.NothingToDo(), nil
	}
	cur := nodeCondition(n, "Ready")
	if cur != nil && cur.Status == "True" {
		ctx.Observed = "Ready=True"
		return ctx.NothingToDo(), nil
	}
	ctx.Observed = "Ready=" + condStatus(cur)
	ctx.Difference = "post Ready=True"
	nn := n.DeepCopy()
	SetNodeReady(nn, ctx.Now)
	if _, err := ctx.UpdateStatus(nn, "post node status Ready=True"); err != nil {
		return Result{}, err
	}
	ctx.Event(n, "Normal", "NodeReady", "Node %s status is now: NodeReady", k.node)
	return Result{Outcome: Acted}, nil
}

// SetNodeReady sets the conditions a healthy kubelet posts.
func SetNodeReady(n *api.Node, now api.Time) {
	conds := []api.NodeCondition{
		{Type: "MemoryPressure", Status: "False", Reason: "KubeletHasSufficientMemory", Message: "kubelet has sufficient memory available"},
		{Type: "DiskPressure", Status: "False", Reason: "KubeletHasNoDiskPressure", Message: "kubelet has no disk pressure"},
		{Type: "PIDPressure", Status: "False", Reason: "KubeletHasSufficientPID", Message: "kubelet has sufficient PID available"},
		{Type: "Ready", Status: "True", Reason: "KubeletReady", Message: "kubelet is posting ready status"},
	}
	for i := range conds {
		conds[i].LastHeartbeatTime = now
		conds[i].LastTransitionTime = now
		if old := nodeCondition(n, conds[i].Type); old != nil && old.Status == conds[i].Status {
			conds[i].LastTransitionTime = old.LastTransitionTime
		}
	}
	n.Status.Conditions = conds
}

func nodeCondition(n *api.Node, t string) *api.NodeCondition {
	for i := range n.Status.Conditions {
		if n.Status.Conditions[i].Type == t {
			return &n.Status.Conditions[i]
		}
	}
	return nil
}

func condStatus(c *api.NodeCondition) string {
	if c == nil {
		return "missing"
	}
	return c.Status
}

func short(digest string) string {
	if len(digest) > 19 {
		return digest[:19] + "…"
	}
	return digest
}

// repository is an image reference's repository as the container runtime
// names it in imageID: tag or digest stripped, Docker Hub's host and
// library/ added when the reference names no registry.
func repository(ref string) string {
	if i := strings.Index(ref, "@"); i >= 0 {
		ref = ref[:i]
	} else if i := strings.LastIndex(ref, ":"); i > strings.LastIndex(ref, "/") {
		ref = ref[:i]
	}
	first, _, hasSlash := strings.Cut(ref, "/")
	switch {
	case !hasSlash:
		return "docker.io/library/" + ref
	case !strings.ContainsAny(first, ".:") && first != "localhost":
		return "docker.io/" + ref
	}
	return ref
}

func probeValue(v, def int32) int32 {
	if v <= 0 {
		return def
	}
	return v
}

// livenessDeadline is when a failing liveness probe has failed
// failureThreshold times: initialDelaySeconds, then one try a period.
func livenessDeadline(rc *Container, pr *api.Probe) api.Time {
	delay := api.Duration(pr.InitialDelaySeconds) * api.Second
	period := api.Duration(probeValue(pr.PeriodSeconds, 10)) * api.Second
	return rc.Since + delay + period*api.Duration(probeValue(pr.FailureThreshold, 3))
}
