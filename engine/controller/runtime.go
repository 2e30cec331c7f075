package controller

import (
	"maps"

	"reconcile/engine/api"
	"reconcile/engine/pmap"
)

// Runtime is a node's container runtime: the images it holds and the
// containers it runs. It is the kubelet's observed state, kept outside the
// store as a real node keeps it outside etcd.
//
// A clone (a checkpoint's copy) shares the images map, the containers
// (a persistent map: a clone copies the leaf it changes, where a Go map
// would be copied whole, its table and groups four objects for the
// collector) and each container in them, until it changes them: read
// them directly (Get), change them only through the methods (Container,
// Add, Remove, SetImage).
type Runtime struct {
	// Images maps an image reference to the digest pulled for it.
	Images map[string]string
	// Containers maps a container's key (namespace/pod/container) to
	// it. Read them with Get; change one through Container, add one
	// through Add.
	Containers pmap.Map[*Container]
	// sharedImages: the map is a clone's source's too, to be copied
	// before it changes.
	sharedImages bool
}

// Container is one running (or starting) container of a pod.
type Container struct {
	PodUID string
	Image  string
	Digest string
	// State is "pulling", "pullbackoff", "neverpull", "configerror",
	// "creating", "running", "crashbackoff", "exited" or "stopping".
	State string
	// Since is when State began; Until is when it ends by itself (a pull,
	// a creation, a back-off, a run that exits, a preStop hook).
	Since, Until api.Time
	Ready        bool
	Restarts     int32
	// BackOff is the current back-off (image pulls, crash loops).
	BackOff api.Duration
	// ExitCode is how a container that is not restarted ended.
	ExitCode int32
	// Reason is the runtime's reason for that end when it is neither
	// Completed nor Error (OOMKilled); "" otherwise.
	Reason string
	// Message says why the container waits (CreateContainerConfigError).
	Message string
	// TermMessage is the termination message of a container that is not
	// restarted: what it wrote to its terminationMessagePath.
	TermMessage string
	// RunSince is when the container last started running.
	RunSince api.Time
	// ID is the runtime's id of the container that last started
	// (containerID): "" until one has.
	ID string
	// StartupOK is true once the startup probe passed (or there is none).
	StartupOK bool
	// Probes holds each probe's worker: startup, liveness, readiness.
	Probes [3]ProbeState
	// Last is how the previous run ended (lastState.terminated), when
	// HasLast.
	Last    api.ContainerStateTerminated
	HasLast bool
	// Prev is how the run before Last ended (HasPrev): the lastState
	// while the ended run is still the container's state.
	Prev    api.ContainerStateTerminated
	HasPrev bool
	// Failed is why the last attempt to start the container failed
	// (CrashLoopBackOff, CreateContainerConfigError, ImagePullBackOff):
	// the kubelet's reason cache, which its status reports as the waiting
	// state until a start succeeds. Reason "" when the last attempt did.
	Failed api.ContainerStateWaiting

	// own is the runtime that may change it in place: a clone shares
	// the containers of its source and copies one when it changes it.
	own *Runtime
}

// ProbeState is one probe worker of a container: the consecutive
// failures and successes so far, and when it probes next (0: the result
// is settled and the worker has nothing to report until it changes).
type ProbeState struct {
	Next         api.Time
	Fails, Succs int32
}

// NewRuntime returns an empty runtime.
func NewRuntime() *Runtime {
	return &Runtime{Images: map[string]string{}}
}

// Clone returns a copy of r that shares its maps and containers until it
// changes them. r must not change after: it is a checkpoint's.
func (r *Runtime) Clone() *Runtime {
	return &Runtime{Images: r.Images, Containers: r.Containers.Clone(), sharedImages: true}
}

// Get returns the container at key, or nil: to read, not to change.
func (r *Runtime) Get(key string) *Container {
	c, _ := r.Containers.Get(key)
	return c
}

// Container returns the container at key, ready to change, or nil.
func (r *Runtime) Container(key string) *Container {
	c := r.Get(key)
	if c != nil && c.own != r {
		cp := *c
		cp.own = r
		c = &cp
		r.Containers.Set(key, c)
	}
	return c
}

// Add puts a new container at key.
func (r *Runtime) Add(key string, c *Container) {
	c.own = r
	r.Containers.Set(key, c)
}

// Remove removes the container at key.
func (r *Runtime) Remove(key string) { r.Containers.Delete(key) }

// SetImage records the digest pulled for an image reference.
func (r *Runtime) SetImage(ref, digest string) {
	if r.sharedImages {
		r.Images, r.sharedImages = maps.Clone(r.Images), false
	}
	r.Images[ref] = digest
}

// IsPodActive reports whether a pod counts towards its ReplicaSet: not
// finished and not being deleted.
func IsPodActive(p *api.Pod) bool {
	return p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed && p.DeletionTimestamp == nil
}

// PodCondition returns the pod's condition of type t, or nil.
func PodCondition(p *api.Pod, t string) *api.PodCondition {
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == t {
			return &p.Status.Conditions[i]
		}
	}
	return nil
}

// IsPodReady reports whether the pod's Ready condition is True.
func IsPodReady(p *api.Pod) bool {
	c := PodCondition(p, "Ready")
	return c != nil && c.Status == "True"
}

// IsPodAvailable reports whether the pod has been ready for minReady.
func IsPodAvailable(p *api.Pod, minReady api.Duration, now api.Time) bool {
	c := PodCondition(p, "Ready")
	if c == nil || c.Status != "True" {
		return false
	}
	return minReady == 0 || c.LastTransitionTime+minReady <= now
}
