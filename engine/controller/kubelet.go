package controller

import (
	"fmt"
	"reflect"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/informer"
	"reconcile/engine/store"
)

// KubeletLoop is the kubelet of one node.
//
// Desired: the pods bound to this node, each container running its image
// and ready — or, for a pod that is not restarted always, run to its end.
// Observed: the node's container runtime. Difference: mount volumes, pull
// images, run init containers in order and sidecars beside the
// containers, build their environment from ConfigMaps and Secrets, probe
// them, restart them by restartPolicy, stop the containers of pods being
// deleted (preStop hooks first) — and write what is true into pod status.
// One file per concept: kubelet_pod.go (a pod's pass), _containers.go,
// _probes.go, _configref.go, _hooks.go, _status.go, _events.go (what its
// events name).
type KubeletLoop struct {
	node string
	// hostIP is the node's address (nodeIP), worked out once.
	hostIP string
	// ips is the node's pod address state (kubelet_ipam.go), shared with
	// clones until one changes it.
	ips *podAddrs
	// unschedulable is the node's spec.unschedulable as this kubelet last
	// saw it (the kubelet's lastNodeUnschedulable): a change is told once,
	// as the event NodeNotSchedulable or NodeSchedulable.
	unschedulable bool
	// fieldPaths are the containers' fieldPaths its events have named,
	// each made once and shared (kubelet_events.go).
	fieldPaths *fieldPath
	// seen holds the pods as this kubelet process first saw them
	// (kubelet_events.go): the resourceVersion its events name.
	seen *seenPod
}

// Container back-off bounds (image pulls and crash loops).
const (
	BackOffInitial = 10 * api.Second
	BackOffMax     = 300 * api.Second
)

// NewKubelet returns the kubelet of node.
func NewKubelet(node string) *KubeletLoop { return &KubeletLoop{node: node, hostIP: nodeIP(node)} }

func (k *KubeletLoop) Name() string      { return Kubelet }
func (k *KubeletLoop) Watches() []string { return []string{"Pod", "Node", "ConfigMap", "Secret"} }

// Clone copies the kubelet: its pod addresses are shared until one of
// the two writes (its node's runtime is the world's, Runtime).
func (k *KubeletLoop) Clone() Reconciler {
	out := new(KubeletLoop)
	k.CloneInto(out)
	return out
}

// CloneInto makes *out what Clone returns, in memory the caller holds (a
// checkpoint's copy of the kubelet's process carries it).
func (k *KubeletLoop) CloneInto(out *KubeletLoop) {
	*out = KubeletLoop{node: k.node, hostIP: k.hostIP, ips: k.ips.share(), unschedulable: k.unschedulable, fieldPaths: k.fieldPaths, seen: k.seen}
}

// nodeRef is how a kubelet names its node in the events it records
// (kubelet.go's nodeRef): by its name, with the name as its UID and no
// apiVersion. kubectl describe node finds them by that UID too; kubectl
// events --for node/NAME, which asks for apiVersion v1, does not.
func (k *KubeletLoop) nodeRef() api.ObjectReference {
	return api.ObjectReference{Kind: "Node", Name: k.node, UID: k.node}
}

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
			reflect.DeepEqual(&old.Spec, &o.Spec) && (old.DeletionTimestamp == nil) == (o.DeletionTimestamp == nil) {
			return nil
		}
		return []string{api.RefOf(o).Key()}
	case *api.Unstructured:
		// A ConfigMap or Secret appeared or changed: the pods here that
		// name it try again.
		if ev.Type == store.Deleted {
			return nil
		}
		return k.podsReferring(c, o)
	case *api.Node:
		if o.Name != k.node || ev.Type == store.Deleted {
			return nil
		}
		var keys []string
		if old, ok := ev.Old.(*api.Node); ok && old.Spec.PodCIDR == "" && o.Spec.PodCIDR != "" {
			// The node got its pod range: the pods waiting for a network
			// try again.
			keys = k.podsWithoutNetwork(c)
		}
		if !nodeReadyPosted(o) || o.Spec.Unschedulable != k.unschedulable {
			keys = append(keys, o.Name)
		}
		return keys
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
		ctx.Desired, ctx.DesiredFact = "pod gone from this node", Fact{Is: PodGone}
		k.forget(ctx)
		k.releaseAddress(key)
		n := k.removeContainers(rt, key)
		ctx.Observed = fmt.Sprintf("%d containers", n)
		return ctx.NothingToDo(), nil
	}
	k.see(p)
	if p.DeletionTimestamp != nil {
		return k.terminate(ctx, p, rt, key)
	}
	if p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed {
		ctx.Desired, ctx.Observed = "pod finished: nothing to run", p.Status.Phase
		ctx.DesiredFact = Fact{Is: PodFinished}
		return ctx.NothingToDo(), nil
	}
	if !k.admitted(p, rt) {
		if reason, msg := k.admit(ctx, p, rt); reason != "" {
			return k.reject(ctx, p, reason, msg)
		}
	}
	return k.syncPod(ctx, p, rt, key)
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

func describeContainer(rc *Container, now api.Time) string {
	switch rc.State {
	case "pulling":
		return fmt.Sprintf("pulling %s, %s left", rc.Image, api.FormatDuration(rc.Until-now))
	case "pullbackoff":
		return "image pull failed, backing off"
	case "crashbackoff":
		return fmt.Sprintf("exited %d time(s), backing off", rc.Restarts+1)
	case "neverpull":
		return "image not present"
	case "exited":
		return fmt.Sprintf("exited with code %d", rc.ExitCode)
	case "configerror":
		return "not created: " + rc.Message
	case "stopping":
		return rc.Message
	case "creating":
		return "container being created"
	case "running":
		out := "running, not ready"
		if rc.Ready {
			out = "running, ready"
		}
		if !rc.StartupOK {
			out += ", not started"
		}
		for kind, ps := range rc.Probes {
			if ps.Fails > 0 {
				out += fmt.Sprintf(", %s probe failed %d time(s) in a row", strings.ToLower(probeTitles[kind]), ps.Fails)
			}
		}
		return out
	}
	return rc.State
}

// reportStatus is the kubelet's report of a pod's status: "report status
// Running, ready".
func reportStatus(p *api.Pod) Action {
	t := phaseText(p)
	return Action{Verb: ReportStatus, Rest: t, Detail: t}
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
	for _, c := range allContainers(p) {
		if rt.Get(key+"/"+c.Name) != nil {
			n++
		}
	}
	return n
}

func (k *KubeletLoop) removeContainers(rt *Runtime, key string) int {
	// The pod's containers are the keys that start with its key and a
	// slash, next to each other in the runtime's sorted map.
	prefix := key + "/"
	var gone []string
	for ck := range rt.Containers.From(prefix) {
		if !strings.HasPrefix(ck, prefix) {
			break
		}
		gone = append(gone, ck)
	}
	for _, ck := range gone {
		rt.Remove(ck)
	}
	return len(gone)
}

func setPodConditionOn(st *api.PodStatus, c api.PodCondition, now api.Time) {
	p := &api.Pod{Status: *st}
	setPodCondition(p, c, now)
	*st = p.Status
}

func orderConditions(st *api.PodStatus) {
	order := []string{"PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled", "DisruptionTarget"}
	if len(st.Conditions) == 0 {
		st.Conditions = nil
		return
	}
	// In place (the status is the kubelet's own, built for this report):
	// the known types kept, in the order above, each type's in the order
	// they came.
	rank := func(t string) int {
		for i, o := range order {
			if o == t {
				return i
			}
		}
		return -1
	}
	out := st.Conditions[:0]
	for _, c := range st.Conditions {
		if rank(c.Type) >= 0 {
			out = append(out, c)
		}
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && rank(out[j].Type) < rank(out[j-1].Type); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	if len(out) == 0 {
		out = nil
	}
	st.Conditions = out
}

// Register fills in what a node's kubelet registers of its machine
// (kubelet_node_status.go: initialNode and the status setters): its
// addresses (the InternalIP its pods get as their hostIP, and its
// hostname), the kubelet's port, and the machine and its software, as on
// a kind node of v1.34: Debian 12, containerd 2.1, amd64. The machine's
// IDs are made from the node's name, the same on every run. Its
// annotations: the kubelet's controller-managed-attach-detach and the
// TTL controller's ttl, both set before the run.
func Register(n *api.Node) {
	n.Status.Addresses = []api.NodeAddress{{Type: "InternalIP", Address: nodeIP(n.Name)}, {Type: "Hostname", Address: n.Name}}
	n.Status.DaemonEndpoints.KubeletEndpoint.Port = 10250
	id := machineID(n.Name)
	n.Status.NodeInfo = &api.NodeSystemInfo{
		MachineID:               id,
		SystemUUID:              uuidOf(machineID(n.Name + "/system")),
		BootID:                  uuidOf(machineID(n.Name + "/boot")),
		KernelVersion:           "6.8.0-59-generic",
		OSImage:                 "Debian GNU/Linux 12 (bookworm)",
		ContainerRuntimeVersion: "containerd://2.1.3",
		KubeletVersion:          "v1.34.0",
		OperatingSystem:         "linux",
		Architecture:            "amd64",
	}
	if n.Annotations == nil {
		n.Annotations = map[string]string{}
	}
	n.Annotations["node.alpha.kubernetes.io/ttl"] = "0"
	n.Annotations["volumes.kubernetes.io/controller-managed-attach-detach"] = "true"
}

// machineID is 32 hex digits made from s (FNV-1a, twice over, each half
// mixed as splitmix64 finishes), as a machine's /etc/machine-id holds.
func machineID(s string) string {
	const hexDigits = "0123456789abcdef"
	var b [32]byte
	h := uint64(14695981039346656037)
	for half := 0; half < 2; half++ {
		for i := 0; i < len(s); i++ {
			h ^= uint64(s[i])
			h *= 1099511628211
		}
		h ^= uint64(half + 1)
		h *= 1099511628211
		z := h
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		z ^= z >> 31
		for i := 0; i < 16; i++ {
			b[half*16+i] = hexDigits[(z>>(60-4*i))&15]
		}
	}
	return string(b[:])
}

// uuidOf writes 32 hex digits as a UUID: 8-4-4-4-12.
func uuidOf(hex string) string {
	return hex[:8] + "-" + hex[8:12] + "-" + hex[12:16] + "-" + hex[16:20] + "-" + hex[20:]
}

func nodeIP(node string) string {
	var h uint32
	for i := 0; i < len(node); i++ {
		h = h*31 + uint32(node[i])
	}
	return fmt.Sprintf("10.0.%d.%d", (h>>8)%250+1, h%250+1)
}

// syncNode posts the node's Ready condition when it is not what the
// kubelet finds (after the kubelet comes back, or the node's pod range
// comes or is missing): True, or False while the node has no
// spec.podCIDR, as the CNI plugin then has no configuration and the
// container runtime reports its network not ready. A node cordoned or
// uncordoned since it last looked is told as an event, as a kubelet's
// node status update does (recordNodeSchedulableEvent): NodeNotSchedulable
// or NodeSchedulable.
func (k *KubeletLoop) syncNode(ctx *Context) (Result, error) {
	n, _ := ctx.Cache.Get("Node", k.node).(*api.Node)
	ready, msg := nodeReadiness(n)
	ctx.Desired = "node status Ready=True posted"
	if !ready {
		ctx.Desired = "node status Ready=False posted: " + msg
	}
	if n == nil {
		ctx.Observed = "node object missing"
		return ctx.NothingToDo(), nil
	}
	cur := nodeCondition(n, "Ready")
	ctx.Observed = "Ready=" + condStatus(cur)
	k.tellSchedulable(ctx, n)
	if nodeReadyPosted(n) {
		return ctx.NothingToDo(), nil
	}
	nn := n.DeepCopy()
	if ready {
		ctx.Difference = "post Ready=True"
		SetNodeReady(nn, ctx.Now)
		if _, err := ctx.UpdateStatus(nn, Do(Post, "node status Ready=True")); err != nil {
			return Result{}, err
		}
		ctx.EventAbout(k.nodeRef(), "Normal", "NodeReady", "Node %s status is now: NodeReady", k.node)
		return Result{Outcome: Acted}, nil
	}
	ctx.Difference = "post Ready=False: the node has no spec.podCIDR"
	SetNodeNotReady(nn, ctx.Now, msg)
	if _, err := ctx.UpdateStatus(nn, Do(Post, "node status Ready=False ("+msg+")")); err != nil {
		return Result{}, err
	}
	if cur == nil || cur.Status != "False" {
		ctx.EventAbout(k.nodeRef(), "Normal", "NodeNotReady", "Node %s status is now: NodeNotReady", k.node)
	}
	return Result{Outcome: Acted}, nil
}

// Restarted forgets what the kubelet process held: a kubelet starts with
// no lastNodeUnschedulable (false), so its first sync of a cordoned node
// records NodeNotSchedulable again, and with no pods, so its events name
// each pod as it lists it anew. Its pod addresses live on the node and
// stay (kubelet_ipam.go).
func (k *KubeletLoop) Restarted() { k.unschedulable, k.seen = false, nil }

// tellSchedulable records NodeNotSchedulable or NodeSchedulable when the
// node's spec.unschedulable is not what this kubelet last saw. An event
// is not a write to the node: the pass stays in sync.
func (k *KubeletLoop) tellSchedulable(ctx *Context, n *api.Node) {
	if n.Spec.Unschedulable == k.unschedulable {
		return
	}
	k.unschedulable = n.Spec.Unschedulable
	reason := "NodeSchedulable"
	if n.Spec.Unschedulable {
		reason = "NodeNotSchedulable"
	}
	ctx.EventAbout(k.nodeRef(), "Normal", reason, "Node %s status is now: %s", k.node, reason)
}

// NodeNetworkNotReady is the message of the Ready=False condition a
// kubelet posts while its container runtime's pod network is not ready
// (the node has no spec.podCIDR, so the CNI plugin has no configuration).
const NodeNetworkNotReady = "container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized"

// nodeReadiness is what the node's kubelet finds: ready, or not and why.
func nodeReadiness(n *api.Node) (bool, string) {
	if n != nil && n.Spec.PodCIDR == "" {
		return false, NodeNetworkNotReady
	}
	return true, ""
}

// nodeReadyPosted reports whether the node's Ready condition says what its
// kubelet finds.
func nodeReadyPosted(n *api.Node) bool {
	cur := nodeCondition(n, "Ready")
	ready, msg := nodeReadiness(n)
	if ready {
		return cur != nil && cur.Status == "True"
	}
	return cur != nil && cur.Status == "False" && cur.Message == msg
}

// SetNodeReady sets the conditions a healthy kubelet posts.
func SetNodeReady(n *api.Node, now api.Time) {
	setNodeConditions(n, now, api.NodeCondition{Type: "Ready", Status: "True", Reason: "KubeletReady", Message: "kubelet is posting ready status"})
}

// SetNodeNotReady sets the conditions a kubelet posts when it is not ready
// for why (its runtime's network not ready, NodeNetworkNotReady).
func SetNodeNotReady(n *api.Node, now api.Time, why string) {
	setNodeConditions(n, now, api.NodeCondition{Type: "Ready", Status: "False", Reason: "KubeletNotReady", Message: why})
}

func setNodeConditions(n *api.Node, now api.Time, ready api.NodeCondition) {
	conds := []api.NodeCondition{
		{Type: "MemoryPressure", Status: "False", Reason: "KubeletHasSufficientMemory", Message: "kubelet has sufficient memory available"},
		{Type: "DiskPressure", Status: "False", Reason: "KubeletHasNoDiskPressure", Message: "kubelet has no disk pressure"},
		{Type: "PIDPressure", Status: "False", Reason: "KubeletHasSufficientPID", Message: "kubelet has sufficient PID available"},
		ready,
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
	host, repo := repositoryParts(ref)
	return host + repo
}

// repositoryParts is repository in two parts, the host added (none, or
// Docker Hub's) and the reference stripped, made without allocating.
func repositoryParts(ref string) (host, repo string) {
	if i := strings.Index(ref, "@"); i >= 0 {
		ref = ref[:i]
	} else if i := strings.LastIndex(ref, ":"); i > strings.LastIndex(ref, "/") {
		ref = ref[:i]
	}
	first, _, hasSlash := strings.Cut(ref, "/")
	switch {
	case !hasSlash:
		return "docker.io/library/", ref
	case !strings.ContainsAny(first, ".:") && first != "localhost":
		return "docker.io/", ref
	}
	return "", ref
}

func probeValue(v, def int32) int32 {
	if v <= 0 {
		return def
	}
	return v
}
