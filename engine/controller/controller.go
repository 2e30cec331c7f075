package controller

import (
	"errors"
	"fmt"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/store"
)

// Names of the simulated components, as Kubernetes names them.
const (
	DeploymentController    = "deployment-controller"
	ReplicaSetController    = "replicaset-controller"
	Scheduler               = "default-scheduler"
	Kubelet                 = "kubelet"
	NodeLifecycleController = "node-lifecycle-controller"
	GitOpsController        = "gitops"
	JobController           = "job-controller"
)

// SideEffectAnnotation on a pod names what it does outside the cluster
// when it runs to success (a migration, a message sent). The simulation
// records it; nothing in the cluster can undo it.
const SideEffectAnnotation = "reconcile/side-effect"

// ErrCrashed is returned by an action when the controller crashes in the
// middle of its pass (a fault): the actions before it happened, the rest
// never will.
var ErrCrashed = errors.New("controller crashed mid-pass")

// Reconciler is a level-triggered controller.
type Reconciler interface {
	// Name is the component name, e.g. "replicaset-controller".
	Name() string
	// Watches lists the kinds the controller's informer caches.
	Watches() []string
	// Keys maps a delivered watch event to the keys to reconcile. The cache
	// already holds the event's object.
	Keys(c *Cache, ev store.WatchEvent) []string
	// Reconcile runs one pass for key.
	Reconcile(ctx *Context, key string) error
	// Clone copies the controller and its private state.
	Clone() Reconciler
}

// EventHandler is an edge-triggered controller: each delivered event is
// handled once, in its own pass, and never looked at again.
type EventHandler interface {
	Name() string
	Watches() []string
	// Handle reacts to one event. It returns the key the pass is about and
	// false when the event is of no interest (no pass is recorded).
	Handle(ctx *Context, ev store.WatchEvent) (key string, ok bool, err error)
	// Restarted forgets everything, as a restarted process does.
	Restarted()
	Clone() EventHandler
}

// API is what a controller may do to the world: write through the API
// server and record events.
type API interface {
	Create(obj api.Object) (api.Object, error)
	Update(obj api.Object) (api.Object, error)
	UpdateStatus(obj api.Object) (api.Object, error)
	Delete(kind, namespace, name string, force bool) (api.Object, error)
	Bind(namespace, name, node string) (api.Object, error)
	Record(component, host string, obj api.Object, typ, reason, message string)
}

// Context is one pass: what the controller may read and write, and what it
// reports in the lesson's words.
type Context struct {
	Now   api.Time
	Cache *Cache
	// Host is the node of a kubelet; empty for other controllers.
	Host string
	API  API
	// Extra holds the simulation's knowledge a controller needs that is not
	// in the store (the image registry, node runtime state).
	World World

	Desired    string
	Observed   string
	Difference string
	Actions    []string
	Lines      []int
	Outcome    string

	// RequeueAfter, when > 0, asks for another pass of the same key later.
	RequeueAfter api.Duration
	// RequeueReason says why, for the next pass's trigger.
	RequeueReason string

	crashAfter int // actions allowed before a crash; -1 = no crash
	component  string
}

// NewContext returns a pass context. crashAfter < 0 means no crash.
func NewContext(component string, now api.Time, c *Cache, host string, a API, w World, crashAfter int) *Context {
	return &Context{component: component, Now: now, Cache: c, Host: host, API: a, World: w, crashAfter: crashAfter}
}

func (ctx *Context) crashing() bool {
	if ctx.crashAfter >= 0 && len(ctx.Actions) >= ctx.crashAfter {
		ctx.Outcome = "crashed"
		return true
	}
	return false
}

func (ctx *Context) act(text string, do func() error) error {
	if ctx.crashing() {
		return ErrCrashed
	}
	if err := do(); err != nil {
		ctx.Actions = append(ctx.Actions, text+" → refused: "+err.Error())
		return err
	}
	ctx.Actions = append(ctx.Actions, text)
	return nil
}

// Create creates obj through the API; describe names the action from the
// created object (or from obj when the API refused it).
func (ctx *Context) Create(obj api.Object, describe func(api.Object) string) (api.Object, error) {
	if ctx.crashing() {
		return nil, ErrCrashed
	}
	out, err := ctx.API.Create(obj)
	if err != nil {
		ctx.Actions = append(ctx.Actions, strings.TrimSpace(describe(obj))+" → refused: "+err.Error())
		return nil, err
	}
	ctx.Actions = append(ctx.Actions, describe(out))
	return out, nil
}

// Update writes obj's main resource, recorded as text.
func (ctx *Context) Update(obj api.Object, text string) (api.Object, error) {
	var out api.Object
	err := ctx.act(text, func() error {
		var err error
		out, err = ctx.API.Update(obj)
		return err
	})
	return out, err
}

// UpdateStatus writes obj's status. Status writes are reported but are not
// crash points: a crash fault interrupts actions on the world.
func (ctx *Context) UpdateStatus(obj api.Object, text string) (api.Object, error) {
	out, err := ctx.API.UpdateStatus(obj)
	if err != nil {
		ctx.Actions = append(ctx.Actions, text+" → refused: "+err.Error())
		return nil, err
	}
	if out.Meta().ResourceVersion != obj.Meta().ResourceVersion && text != "" {
		ctx.Actions = append(ctx.Actions, text)
	}
	return out, nil
}

// Delete deletes an object, recorded as text.
func (ctx *Context) Delete(kind, namespace, name string, force bool, text string) error {
	return ctx.act(text, func() error {
		_, err := ctx.API.Delete(kind, namespace, name, force)
		return err
	})
}

// Bind binds a pod to a node, recorded as text.
func (ctx *Context) Bind(namespace, name, node, text string) error {
	return ctx.act(text, func() error {
		_, err := ctx.API.Bind(namespace, name, node)
		return err
	})
}

// Event records an event from this controller.
func (ctx *Context) Event(obj api.Object, typ, reason, format string, args ...any) {
	ctx.API.Record(ctx.component, ctx.Host, obj, typ, reason, fmt.Sprintf(format, args...))
}

// Converged marks a pass that found nothing to do.
func (ctx *Context) Converged() {
	if ctx.Difference == "" {
		ctx.Difference = "none"
	}
	ctx.Outcome = "converged"
}

// World is what the simulation knows outside the store: the image
// registry and each node's container runtime.
type World interface {
	// Image looks up a reference in the simulated registry.
	Image(ref string) Image
	// Runtime returns the container runtime of a node.
	Runtime(node string) *Runtime
	// NodeUp reports whether the node's machine is running.
	NodeUp(node string) bool
	// Git returns the GitOps source.
	Git() Git
	// LastHeartbeat is when the node's kubelet last renewed its lease.
	LastHeartbeat(node string) api.Time
	// SideEffect records what a pod did outside the cluster.
	SideEffect(pod *api.Pod, what string)
}

// Image is what the registry knows of a reference.
type Image struct {
	Ref       string
	Digest    string
	Size      int64
	Pull      api.Duration
	Start     api.Duration
	Ready     bool
	Crash     bool
	Healthy   bool
	PullError string
}
