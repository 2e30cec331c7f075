package controller

import (
	"errors"
	"fmt"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/informer"
	"reconcile/engine/registry"
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

// ControlPlaneHost is the host name of the simulated control plane's
// node, where kube-scheduler runs (a kind cluster's is
// <cluster>-control-plane): the scheduler's events name their
// reportingInstance after it, as client-go's events recorder does
// (reportingController + "-" + os.Hostname()).
const ControlPlaneHost = "control-plane"

// SchedulerInstance is the reportingInstance of the scheduler's events.
const SchedulerInstance = Scheduler + "-" + ControlPlaneHost

// SideEffectAnnotation on a pod names what it does outside the cluster
// when it runs to success (a migration, a message sent). The simulation
// records it; nothing in the cluster can undo it.
const SideEffectAnnotation = "reconcile/side-effect"

// ErrCrashed is returned by an action when the controller crashes in the
// middle of its pass (a fault): the actions before it happened, the rest
// never will.
var ErrCrashed = errors.New("controller crashed mid-pass")

// Request names what one pass reconciles: a key of the controller's work
// queue, as its Keys made it ("default/web", or a node's name). Like
// controller-runtime's reconcile.Request it is only a name: the pass reads
// everything else from the cache.
type Request struct {
	Key string
}

// Result is what a pass tells its work queue, in controller-runtime's
// shape. When Reconcile returns an error the Result is ignored: the key
// comes back with the queue's per-key back-off instead (unless the error is
// Terminal).
type Result struct {
	// Outcome is how the pass ended. Zero means: InSync when it took no
	// action, Acted otherwise.
	Outcome Outcome
	// Why says what stops the key, when Outcome is Blocked
	// ("unschedulable").
	Why string
	// RequeueAfter, when > 0, asks for another pass of the key after it;
	// RequeueReason says why, for that pass's trigger.
	RequeueAfter  api.Duration
	RequeueReason string
}

// requeueSooner asks for another pass after d for reason, unless one is
// asked for sooner already.
func (r *Result) requeueSooner(d api.Duration, reason string) {
	if r.RequeueAfter == 0 || d < r.RequeueAfter {
		r.RequeueAfter, r.RequeueReason = d, reason
	}
}

// Outcome is how a pass ended.
type Outcome uint8

// Outcomes. The zero Outcome is not one: a Result that leaves it zero lets
// its actions decide between InSync and Acted.
const (
	_ Outcome = iota
	// InSync: observed state matched desired state for the key; nothing
	// to do (status writes may still report what is true).
	InSync
	// Acted: the pass took a step towards desired state.
	Acted
	// Blocked: the pass could not act and says why (Result.Why).
	Blocked
	// Failed: Reconcile returned an error; the key is retried with
	// back-off.
	Failed
	// Crashed: the controller process died in the middle of the pass.
	Crashed
)

var outcomeNames = [...]string{"", "in-sync", "acted", "blocked", "failed", "crashed"}

// String names the outcome: "in-sync", "acted", "blocked", "failed",
// "crashed".
func (o Outcome) String() string {
	if int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return fmt.Sprintf("Outcome(%d)", o)
}

// MarshalText writes the outcome's name.
func (o Outcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// UnmarshalText reads an outcome's name.
func (o *Outcome) UnmarshalText(b []byte) error {
	for i, n := range outcomeNames {
		if i > 0 && n == string(b) {
			*o = Outcome(i)
			return nil
		}
	}
	return fmt.Errorf("unknown outcome %q", b)
}

// terminal is an error no retry can fix.
type terminal struct{ err error }

func (t terminal) Error() string { return t.err.Error() }
func (t terminal) Unwrap() error { return t.err }

// Terminal wraps err so that the work queue does not retry the key: the
// pass failed, and only a new event about the key brings it back (as
// controller-runtime's reconcile.TerminalError).
func Terminal(err error) error { return terminal{err} }

// IsTerminal reports whether err was wrapped by Terminal.
func IsTerminal(err error) bool {
	var t terminal
	return errors.As(err, &t)
}

// Reconciler is a level-triggered controller: it reacts to the current gap,
// not to the event that revealed it.
type Reconciler interface {
	// Name is the component name, e.g. "replicaset-controller".
	Name() string
	// Watches lists the kinds the controller's informer caches.
	Watches() []string
	// Keys maps a delivered watch event to the keys to reconcile. The cache
	// already holds the event's object.
	Keys(c *informer.Cache, ev store.WatchEvent) []string
	// Reconcile runs one pass for req: it reads desired and observed state
	// from ctx.Cache, reports them on ctx (Desired, Observed, Difference),
	// and acts through ctx (Create, Update, Delete, ...).
	Reconcile(ctx *Context, req Request) (Result, error)
	// Clone copies the controller and its private state (a checkpoint).
	Clone() Reconciler
}

// EventHandler is an edge-triggered controller: each delivered event is
// handled once, in its own pass, and never looked at again.
type EventHandler interface {
	Name() string
	Watches() []string
	// Handle reacts to one event. It returns the key the pass is about,
	// or a zero Request when the event is of no interest (no pass is
	// recorded). An edge-triggered handler is not retried: an error is
	// the end of the event.
	Handle(ctx *Context, ev store.WatchEvent) (Request, Result, error)
	Clone() EventHandler
}

// The optional interfaces a controller may implement. The simulation
// checks them when it starts a controller (Check): a controller with one
// of their methods but not the whole interface is an error, not a silent
// no-op.
type (
	// Ticker is a controller with periodic work besides its watches (the
	// node monitor, a GitOps sync): every Period (0: never by itself, only
	// when asked), Tick says which keys to look at and why: the periodic
	// check, as the pass's trigger names it ("node-monitor-period 5s").
	Ticker interface {
		Period() api.Duration
		Tick(c *informer.Cache, w World, now api.Time) (keys []string, why string)
	}
	// Restarter is a controller with memory to lose when its process
	// crashes or stops: Restarted forgets it, as a new process starts
	// empty.
	Restarter interface {
		Restarted()
	}
	// Idler is a Ticker that can tell whether its next tick would act:
	// the engine's convergence asks it. Idle reports true, or false and
	// why not.
	Idler interface {
		Idle(c *informer.Cache, w World, now api.Time) (bool, string)
	}
	// Objecter names the object a key stands for, for a controller whose
	// keys are not "namespace/name" of its Spec's For kind.
	Objecter interface {
		Object(key string) api.Ref
	}
	// StatusReporter is an edge-triggered handler that still reports what
	// its cache shows (the edge twin writes ReplicaSet status) on every
	// event, outside any pass.
	StatusReporter interface {
		ReportStatus(ctx *Context, ev store.WatchEvent) error
	}
)

// optional lists each optional interface's methods, for Check.
var optional = []struct {
	name    string
	methods []string
	has     func(any) bool
}{
	{"Ticker", []string{"Period", "Tick"}, func(c any) bool { _, ok := c.(Ticker); return ok }},
	{"Restarter", []string{"Restarted"}, func(c any) bool { _, ok := c.(Restarter); return ok }},
	{"Idler", []string{"Idle"}, func(c any) bool { _, ok := c.(Idler); return ok }},
	{"Objecter", []string{"Object"}, func(c any) bool { _, ok := c.(Objecter); return ok }},
	{"StatusReporter", []string{"ReportStatus"}, func(c any) bool { _, ok := c.(StatusReporter); return ok }},
}

// Check reports a controller that has a method of an optional interface
// without implementing the interface (a Period with no Tick, a Tick with
// the wrong signature), and an Idler that is not a Ticker.
func Check(c any) error {
	for _, o := range optional {
		if o.has(c) {
			continue
		}
		for _, m := range o.methods {
			if hasMethod(c, m) {
				return fmt.Errorf("controller %s has %s but does not implement controller.%s (%s)", nameOf(c), m, o.name, strings.Join(o.methods, ", "))
			}
		}
	}
	if _, idle := c.(Idler); idle {
		if _, tick := c.(Ticker); !tick {
			return fmt.Errorf("controller %s is an Idler but not a Ticker: Idle says whether the next tick would act", nameOf(c))
		}
	}
	return nil
}

func nameOf(c any) string {
	if n, ok := c.(interface{ Name() string }); ok {
		return n.Name()
	}
	return fmt.Sprintf("%T", c)
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
	// RecordAbout records an event whose involved object is a reference
	// of the recorder's own (a kubelet's node reference).
	RecordAbout(component, host string, ref api.ObjectReference, typ, reason, message string)
	// RecordEvent records an event as the events.k8s.io recorder does
	// (client-go tools/events: a series, not a count), as kube-scheduler
	// records its own.
	RecordEvent(controller, instance string, obj api.Object, typ, reason, action, note string)
	// DeleteWith deletes with a propagation policy (the garbage
	// collector's cascades).
	DeleteWith(kind, namespace, name string, opts store.DeleteOptions) (api.Object, error)
	// Get is a live read, past the cache: the garbage collector confirms
	// that an owner is gone before it deletes a dependent.
	Get(kind, namespace, name string) api.Object
}

// Context is one pass: what the controller may read and write, and the
// pass's report in the lesson's words (Desired, Observed, Difference,
// Actions and Lines), which the simulation records.
type Context struct {
	Now   api.Time
	Cache *informer.Cache
	// Host is the node of a kubelet; empty for other controllers.
	Host string
	API  API
	// World holds the simulation's knowledge a controller needs that is
	// not in the store (the image registry, node runtime state).
	World World

	Desired    string
	Observed   string
	Difference string
	// DesiredFact, ObservedFact and DifferenceFact are what the words
	// state, as values, where a reader words them itself (facts.go).
	DesiredFact, ObservedFact, DifferenceFact Fact
	// Actions are the steps the pass took, as facts (their words:
	// Action.String).
	Actions []Action
	// Lines are the lines of the lesson's pseudocode the pass ran (the
	// ReplicaSet controller and its edge twin).
	Lines []int

	crashAfter int // actions allowed before a crash; -1 = no crash
	crashed    bool
	component  string
}

// NewContext returns a pass context. crashAfter < 0 means no crash.
func NewContext(component string, now api.Time, c *informer.Cache, host string, a API, w World, crashAfter int) *Context {
	ctx := new(Context)
	ctx.Reset(component, now, c, host, a, w, crashAfter)
	return ctx
}

// Reset makes ctx the context NewContext returns, in place: the
// simulation runs every pass in one context (a new one each pass was
// garbage), and may then give Actions a slice to gather in.
func (ctx *Context) Reset(component string, now api.Time, c *informer.Cache, host string, a API, w World, crashAfter int) {
	*ctx = Context{component: component, Now: now, Cache: c, Host: host, API: a, World: w, crashAfter: crashAfter}
}

// Crashed reports whether the pass's crash fault fired: an action found
// the process dead (and returned ErrCrashed).
func (ctx *Context) Crashed() bool { return ctx.crashed }

func (ctx *Context) crashing() bool {
	if ctx.crashAfter >= 0 && len(ctx.Actions) >= ctx.crashAfter {
		ctx.crashed = true
		return true
	}
	return false
}

func (ctx *Context) act(a Action, do func() error) error {
	if ctx.crashing() {
		return ErrCrashed
	}
	if err := do(); err != nil {
		a.Refused = err.Error()
		ctx.Actions = append(ctx.Actions, a)
		return err
	}
	ctx.Actions = append(ctx.Actions, a)
	return nil
}

// Note records a step the pass took outside the API server (the kubelet's
// work on its node's containers).
func (ctx *Context) Note(a Action) { ctx.Actions = append(ctx.Actions, a) }

// Create creates obj through the API; describe names the action from the
// created object (or from obj when the API refused it).
func (ctx *Context) Create(obj api.Object, describe func(api.Object) Action) (api.Object, error) {
	if ctx.crashing() {
		return nil, ErrCrashed
	}
	out, err := ctx.API.Create(obj)
	if err != nil {
		a := describe(obj)
		a.Refused = err.Error()
		ctx.Actions = append(ctx.Actions, a)
		return nil, err
	}
	ctx.Actions = append(ctx.Actions, describe(out))
	return out, nil
}

// Update writes obj's main resource, recorded as a.
func (ctx *Context) Update(obj api.Object, a Action) (api.Object, error) {
	var out api.Object
	err := ctx.act(a, func() error {
		var err error
		out, err = ctx.API.Update(obj)
		return err
	})
	return out, err
}

// UpdateStatus writes obj's status. Status writes are reported but are not
// crash points: a crash fault interrupts actions on the world.
// A zero a records nothing when the write goes through.
func (ctx *Context) UpdateStatus(obj api.Object, a Action) (api.Object, error) {
	out, err := ctx.API.UpdateStatus(obj)
	if err != nil {
		a.Refused = err.Error()
		ctx.Actions = append(ctx.Actions, a)
		return nil, err
	}
	if out.Meta().ResourceVersion != obj.Meta().ResourceVersion && a != (Action{}) {
		ctx.Actions = append(ctx.Actions, a)
	}
	return out, nil
}

// Delete deletes an object, recorded as a.
func (ctx *Context) Delete(kind, namespace, name string, force bool, a Action) error {
	return ctx.act(a, func() error {
		_, err := ctx.API.Delete(kind, namespace, name, force)
		return err
	})
}

// Bind binds a pod to a node: "bind <name> to <node>".
func (ctx *Context) Bind(namespace, name, node string) error {
	return ctx.act(Action{Verb: Bind, Rest: name + " to " + node, Name: name, Node: node}, func() error {
		_, err := ctx.API.Bind(namespace, name, node)
		return err
	})
}

// Event records an event from this controller.
func (ctx *Context) Event(obj api.Object, typ, reason, format string, args ...any) {
	ctx.API.Record(ctx.component, ctx.Host, obj, typ, reason, fmt.Sprintf(format, args...))
}

// EventAbout records an event from this controller about ref.
func (ctx *Context) EventAbout(ref api.ObjectReference, typ, reason, format string, args ...any) {
	ctx.API.RecordAbout(ctx.component, ctx.Host, ref, typ, reason, fmt.Sprintf(format, args...))
}

// Eventf records an event from this controller through the events.k8s.io
// recorder, as the scheduler records its own: reportingController the
// component, reportingInstance instance, action what it was doing.
func (ctx *Context) Eventf(instance string, obj api.Object, typ, reason, action, note string) {
	ctx.API.RecordEvent(ctx.component, instance, obj, typ, reason, action, note)
}

// NothingToDo ends a pass that found observed state matching desired: the
// difference reads "none" unless the pass said otherwise.
func (ctx *Context) NothingToDo() Result {
	if ctx.Difference == "" {
		ctx.Difference, ctx.DifferenceFact = "none", Fact{Is: Nothing}
	}
	return Result{Outcome: InSync}
}

// World is what the simulation knows outside the store: the image
// registry and each node's container runtime.
type World interface {
	// Image looks up a reference in the simulated registry.
	Image(ref string) registry.Image
	// Runtime returns the container runtime of a node.
	Runtime(node string) *Runtime
	// NodeUp reports whether the node's machine is running.
	NodeUp(node string) bool
	// Git returns the GitOps source.
	Git() Git
	// LastHeartbeat is when the node's kubelet last renewed its lease;
	// Heartbeating reports whether it still renews it.
	LastHeartbeat(node string) api.Time
	Heartbeating(node string) bool
	// SideEffect records what a pod did outside the cluster.
	SideEffect(pod *api.Pod, what string)
}
