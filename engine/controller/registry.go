package controller

import (
	"strings"

	"reconcile/engine/api"
)

// Spec is one controller of the simulated control plane, as the registry
// lists it. The simulation starts the controllers of its registry (Builtin
// unless a run names others), the scenario loader checks names against it,
// and the UI reads what each controller is for from it.
type Spec struct {
	// Name is the component's name, as Kubernetes calls it.
	Name string
	// For is the kind its keys name ("namespace/name" of one), unless the
	// controller is an Objecter.
	For string
	// Doc says in a line what the controller reconciles.
	Doc string
	// PerNode: one instance runs on every node (the kubelet), started with
	// Env.Node set; a node going down stops it.
	PerNode bool
	// Optional: started only when a run enables it (the GitOps controller
	// needs a git source).
	Optional bool
	// New returns the level-triggered controller.
	New func(Env) Reconciler
	// Edge, when set, returns its edge-triggered twin, run in mode Edge.
	Edge func(Env) EventHandler
	// Pseudocode are the lesson's pseudocode blocks the controller runs,
	// by mode; a pass reports the lines it executed (Context.Lines), each
	// a line of its block (Pseudocode's Line constants name them).
	Pseudocode map[Mode][]string

	// Runs is the process the controller runs in: what shares an
	// informer with it, and what restarts it after a crash.
	Runs Process
	// Display names the controller for the start of a sentence, without
	// its article: "ReplicaSet controller", "scheduler"; a controller with
	// no name of its own in prose is called by its component name.
	Display string
}

// Process is the program a controller runs in, as a cluster runs it.
type Process uint8

// Processes.
const (
	_ Process = iota
	// ControllerManager: a controller of kube-controller-manager, one
	// binary whose controllers share their informers. When one crashes the
	// binary goes down, and what runs it (a static pod's kubelet, a
	// systemd unit) starts it again: the lesson says the controller-manager
	// restarts it.
	ControllerManager
	// SchedulerProcess: kube-scheduler, a binary of its own, run as a
	// static pod: the kubelet of its control-plane node restarts it.
	SchedulerProcess
	// NodeAgent: a kubelet, a systemd service on its node (Restart=always):
	// systemd restarts it.
	NodeAgent
	// InCluster: a controller deployed in the cluster as pods of its own
	// (a GitOps controller): its pod is restarted.
	InCluster
)

var processFacts = [...]struct{ binary, restarts string }{
	ControllerManager: {"kube-controller-manager", "the controller-manager restarts it"},
	SchedulerProcess:  {"kube-scheduler", "the kubelet restarts it, as kube-scheduler runs as a static pod"},
	NodeAgent:         {"kubelet", "systemd restarts it, as the kubelet runs as a systemd service"},
	InCluster:         {"", "it is restarted"},
}

// Binary names the program ("kube-controller-manager", "kube-scheduler",
// "kubelet"; "" for a controller deployed in the cluster).
func (p Process) Binary() string {
	if int(p) < len(processFacts) {
		return processFacts[p].binary
	}
	return ""
}

// Restarts says what restarts a controller of the process after a crash,
// as a clause: "the controller-manager restarts it".
func (p Process) Restarts() string {
	if p > 0 && int(p) < len(processFacts) {
		return processFacts[p].restarts
	}
	return "it is restarted"
}

// SharesInformers reports whether the controllers of the process read one
// informer cache per kind (kube-controller-manager's SharedInformerFactory).
func (p Process) SharesInformers() bool { return p == ControllerManager }

// Named is the name of the controller in prose, without article.
func (s Spec) Named() string {
	if s.Display != "" {
		return s.Display
	}
	return s.Name
}

// Env is what a controller is started with.
type Env struct {
	// Node is the node a PerNode controller runs on.
	Node string
	// SyncInterval is how often a syncing controller (GitOps) syncs; 0
	// means only when asked.
	SyncInterval api.Duration
	// ClusterCIDR is the cluster's range of pod addresses, which the node
	// IPAM controller cuts into node ranges; "" means DefaultClusterCIDR.
	ClusterCIDR string
}

// Mode is how a controller runs.
type Mode string

// Modes.
const (
	Level   Mode = "level"
	Edge    Mode = "edge"
	Stopped Mode = "stopped"
)

// Builtin is the registry: every controller of the simulated control
// plane, in the order a run starts them (per-node ones last, one per node
// in node order). Adding a controller is one file and one line here.
var Builtin = []Spec{
	{Name: DeploymentController, Runs: ControllerManager, Display: "deployment controller", For: "Deployment", Doc: "keeps a ReplicaSet per template at the replicas a rollout allows", New: func(Env) Reconciler { return NewDeployment() }},
	{Name: ReplicaSetController, Runs: ControllerManager, Display: "ReplicaSet controller", For: "ReplicaSet", Doc: "keeps spec.replicas pods of its template", New: func(Env) Reconciler { return NewReplicaSet() },
		Edge: func(Env) EventHandler { return NewReplicaSetEdge() }, Pseudocode: map[Mode][]string{Level: LevelLines, Edge: EdgeLines}},
	{Name: Scheduler, Runs: SchedulerProcess, Display: "scheduler", For: "Pod", Doc: "binds every pod to a node that fits it", New: func(Env) Reconciler { return NewScheduler() }},
	{Name: JobController, Runs: ControllerManager, Display: "Job controller", For: "Job", Doc: "runs a Job's pods until enough have succeeded", New: func(Env) Reconciler { return NewJob() }},
	{Name: TTLAfterFinishedController, Runs: ControllerManager, Display: "TTL-after-finished controller", For: "Job", Doc: "deletes a finished Job, its pods with it, once its ttlSecondsAfterFinished has run out", New: func(Env) Reconciler { return NewTTLAfterFinished() }},
	{Name: DaemonSetController, Runs: ControllerManager, Display: "DaemonSet controller", For: "DaemonSet", Doc: "runs one pod of its template on every node that may run it", New: func(Env) Reconciler { return NewDaemonSet() }},
	{Name: StatefulSetController, Runs: ControllerManager, Display: "StatefulSet controller", For: "StatefulSet", Doc: "keeps pods <set>-0…<set>-(N-1), in order, each with its own claims", New: func(Env) Reconciler { return NewStatefulSet() }},
	{Name: CronJobController, Runs: ControllerManager, Display: "CronJob controller", For: "CronJob", Doc: "creates a Job each time its schedule fires, and keeps a short history", New: func(Env) Reconciler { return NewCronJob() }},
	{Name: VolumeController, Runs: ControllerManager, Display: "persistent volume controller", Doc: "binds claims to volumes, provisioning one for the default StorageClass", New: func(Env) Reconciler { return NewVolume() }},
	{Name: NodeLifecycleController, Runs: ControllerManager, Display: "node lifecycle controller", For: "Node", Doc: "marks silent nodes unreachable and evicts their pods", New: func(Env) Reconciler { return NewNodeLifecycle() }},
	{Name: GarbageCollectorController, Runs: ControllerManager, Display: "garbage collector", Doc: "deletes what no owner keeps, and lets an owner go once its dependents are dealt with (finalizers orphan, foregroundDeletion)", New: func(Env) Reconciler { return NewGarbageCollector() }},
	{Name: PodGCController, Runs: ControllerManager, Display: "pod garbage collector", For: "Pod", Doc: "force-deletes the pods no kubelet will finish: those of a node gone (after 40 s of quarantine), those deleted before they were scheduled", New: func(Env) Reconciler { return NewPodGC() }},
	{Name: NamespaceController, Runs: ControllerManager, Display: NamespaceController, For: "Namespace", Doc: "empties a namespace being deleted, then lets it go", New: func(Env) Reconciler { return NewNamespace() }},
	{Name: ResourceQuotaController, Runs: ControllerManager, Display: ResourceQuotaController, For: "ResourceQuota", Doc: "keeps each quota's status.used to what its namespace uses", New: func(Env) Reconciler { return NewResourceQuota() }},
	{Name: HPAController, Runs: ControllerManager, Display: HPAController, For: "HorizontalPodAutoscaler", Doc: "sets a workload's replicas from its pods' CPU use", New: func(Env) Reconciler { return NewHPA() }},
	{Name: DisruptionController, Runs: ControllerManager, Display: "disruption controller", For: "PodDisruptionBudget", Doc: "keeps each PodDisruptionBudget's status: healthy pods, how many must be, how many more may be disrupted", New: func(Env) Reconciler { return NewDisruption() }},
	{Name: EndpointSliceController, Runs: ControllerManager, Display: EndpointSliceController, For: "Service", Doc: "lists the pods behind each Service, ready or not, in its EndpointSlices (100 endpoints each at most)", New: func(Env) Reconciler { return NewEndpointSlice() }},
	{Name: EndpointsController, Runs: ControllerManager, Display: EndpointsController, For: "Service", Doc: "keeps each Service's legacy Endpoints object (deprecated since v1.33)", New: func(Env) Reconciler { return NewEndpoints() }},
	{Name: GitOpsController, Runs: InCluster, Display: "GitOps controller", Doc: "applies what is committed to git and reverts drift", Optional: true, New: func(e Env) Reconciler { return NewGitOps(e.SyncInterval) }},
	{Name: NodeIPAMController, Runs: ControllerManager, Display: NodeIPAMController, For: "Node", Doc: "gives every node a range of pod addresses (spec.podCIDR) from the cluster's", New: func(e Env) Reconciler { return NewNodeIPAM(e.ClusterCIDR) }},
	{Name: ServiceAccountController, Runs: ControllerManager, Display: ServiceAccountController, For: "Namespace", Doc: "keeps the ServiceAccount default in every Active namespace", New: func(Env) Reconciler { return NewServiceAccount() }},
	{Name: RootCAPublisher, Runs: ControllerManager, Display: RootCAPublisher, For: "Namespace", Doc: "keeps the ConfigMap kube-root-ca.crt, the cluster's CA, in every Active namespace", New: func(Env) Reconciler { return NewRootCA() }},
	{Name: Kubelet, Runs: NodeAgent, Display: "kubelet", For: "Pod", Doc: "runs the containers of the pods bound to its node and reports their status", PerNode: true, New: func(e Env) Reconciler { return NewKubelet(e.Node) }},
}

// Lookup returns the spec of the controller named name in specs.
func Lookup(specs []Spec, name string) (Spec, bool) {
	for _, s := range specs {
		if s.Name == name {
			return s, true
		}
	}
	return Spec{}, false
}

// Names returns the name of every built-in controller, in registry order.
func Names() []string { return NamesIn(Builtin) }

// NamesIn returns the name of every controller of specs, in their order.
func NamesIn(specs []Spec) []string {
	out := make([]string, len(specs))
	for i, s := range specs {
		out[i] = s.Name
	}
	return out
}

// Known reports whether name is a built-in controller's.
func Known(name string) bool {
	_, ok := Lookup(Builtin, name)
	return ok
}

// ObjectOf names the object key stands for, for a controller c of spec s:
// c's own answer when it is an Objecter, else "namespace/name" (or "name")
// of s.For.
func ObjectOf(s Spec, c any, key string) api.Ref {
	if o, ok := c.(Objecter); ok {
		return o.Object(key)
	}
	if ns, name, ok := strings.Cut(key, "/"); ok {
		return api.Ref{Kind: s.For, Namespace: ns, Name: name}
	}
	return api.Ref{Kind: s.For, Name: key}
}
