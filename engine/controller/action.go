package controller

import "strconv"

// Action is one step a pass took, as a fact: which verb, on which object
// (named by a noun, its name and what the words add), with which details,
// and the API server's error when it refused the write. String gives it in
// the trace's words: "create pod web-x for node worker-2", "bind web-x to
// worker-2", "update status (replicas 5, ready 0, available 0) → refused:
// ...".
type Action struct {
	Verb Verb
	// Noun is how the words name the object ("pod", "job"), when they
	// name it by a noun and Name; "" when Rest carries the words.
	Noun string
	// Name is the object's name.
	Name string
	// Tail is what the words add after the object's name ("for node
	// worker-2", "(backoff limit reached)").
	Tail string
	// Rest are the words after the verb, when Noun is "".
	Rest string
	// Node is the node a pod is bound to (Bind).
	Node string
	// Container, Image, Code and Detail are the kubelet's: the container,
	// the image pulled, an exit code, an error (PullFailed) or what a pod
	// did outside the cluster (Outside). Detail is also the message of a
	// scheduler's PodScheduled=False (Unschedulable) and what a status
	// write reports (UpdateStatus, ReportStatus).
	Container, Image string
	Code             int
	Detail           string
	// Refused is the API server's error when it refused the write.
	Refused string
}

// Verb is what a step did.
type Verb uint8

// Verbs: the steps' first words (Verb.String), then the kubelet's
// observations, whose words are all in Rest.
const (
	_ Verb = iota
	Create
	Delete
	Update
	UpdateStatus // a controller reporting its object's status: "update status (...)"
	ReportStatus // the kubelet reporting a pod's status: "report status Running, ready"
	Bind
	Start
	Stop
	Remove
	Post
	Set
	Mark
	Taint
	Evict
	Scale
	Apply
	Kill
	Label
	Pull
	RetryPull
	BackOff
	Release
	Adopt
	Renumber
	Annotate
	Run
	Wait
	Cannot
	// Unschedulable: the scheduler's "mark PodScheduled=False: <Detail>".
	Unschedulable
	// PullFailed: "pull <Image> failed: <Detail>; back off ...".
	PullFailed
	// Exited: "container <Container> exited with code <Code>".
	Exited
	// ReadinessPassed: "readiness probe of <Container> passed".
	ReadinessPassed
	// Observed: another of the kubelet's observations (a probe, a hook).
	Observed
	// Outside: "outside the cluster: <Detail>".
	Outside
)

var verbWords = [...]string{Create: "create", Delete: "delete", Update: "update", UpdateStatus: "update status",
	ReportStatus: "report status", Bind: "bind", Start: "start", Stop: "stop", Remove: "remove", Post: "post", Set: "set",
	Mark: "mark", Taint: "taint", Evict: "evict", Scale: "scale", Apply: "apply", Kill: "kill", Label: "label",
	Pull: "pull", RetryPull: "retry pull", BackOff: "back off", Release: "release", Adopt: "adopt", Renumber: "renumber", Annotate: "annotate",
	Run: "run", Wait: "wait", Cannot: "cannot", Unschedulable: "mark PodScheduled=False:", PullFailed: "pull"}

// String is the verb's words ("update status"); "" for an observation,
// whose words are all the action's Rest.
func (v Verb) String() string {
	if int(v) < len(verbWords) {
		return verbWords[v]
	}
	return ""
}

// Do is a step of verb v whose words after the verb are rest.
func Do(v Verb, rest string) Action { return Action{Verb: v, Rest: rest} }

// OnPod is a step of verb v on pod name: "create pod web-x for node
// worker-2" (tail "for node worker-2").
func OnPod(v Verb, name, tail string) Action {
	return Action{Verb: v, Noun: "pod", Name: name, Tail: tail}
}

// On is a step of verb v on the object the words name noun and name.
func On(v Verb, noun, name, tail string) Action {
	return Action{Verb: v, Noun: noun, Name: name, Tail: tail}
}

// Status is a controller's report of its object's status: "update status
// (report)".
func Status(report string) Action {
	return Action{Verb: UpdateStatus, Rest: "(" + report + ")", Detail: report}
}

// IsStatus reports whether the action reports what is true (a
// controller's status of its own object, the kubelet's status of a pod)
// rather than take a step towards desired state.
func (a Action) IsStatus() bool { return a.Verb == UpdateStatus || a.Verb == ReportStatus }

// Words are the action's words without the API server's answer.
func (a Action) Words() string {
	rest := a.Rest
	if a.Noun != "" {
		rest = join(join(a.Noun, a.Name), a.Tail)
	}
	return join(a.Verb.String(), rest)
}

// String gives the action in the trace's words.
func (a Action) String() string {
	if a.Refused != "" {
		return a.Words() + " → refused: " + a.Refused
	}
	return a.Words()
}

// MarshalText writes the action in words, as the trace keeps it.
func (a Action) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

func join(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + " " + b
}

// exited is the kubelet's observation of a container's exit.
func exited(container string, code int) Action {
	return Action{Verb: Exited, Container: container, Code: code, Rest: "container " + container + " exited with code " + strconv.Itoa(code)}
}

// ActionWords are actions in the trace's words.
func ActionWords(actions []Action) []string {
	out := make([]string, len(actions))
	for i, a := range actions {
		out[i] = a.String()
	}
	return out
}
