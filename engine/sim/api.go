package sim

import "reconcile/engine/api"

// Pass is one controller reconciling one key once: the unit a learner steps.
type Pass struct {
	// N counts passes from 1.
	N          int      `json:"n"`
	At         api.Time `json:"-"`
	AtText     string   `json:"at"`
	Controller string   `json:"controller"`
	// Host is the node of a kubelet pass.
	Host string `json:"host,omitempty"`
	Key  string `json:"key"`
	// Trigger is why the pass ran: "watch event (pod web-x DELETED)",
	// "resync", "requeue", "timer (...)".
	Trigger    string   `json:"trigger"`
	Desired    string   `json:"desired"`
	Observed   string   `json:"observed"`
	Difference string   `json:"difference"`
	Actions    []string `json:"actions"`
	// Outcome is "converged", "acted", "error: ...", "crashed" or "requeued".
	Outcome string `json:"outcome"`
	// Lines are the pseudocode lines (1-based, of the lesson's block for the
	// controller's variant) the pass executed; empty for controllers with no
	// pseudocode block.
	Lines []int `json:"lines,omitempty"`
	// Variant is "level" or "edge".
	Variant string `json:"variant,omitempty"`
}

// Output is what a kubectl or apply input printed, and its exit code.
type Output struct {
	At      api.Time `json:"-"`
	AtText  string   `json:"at"`
	Command string   `json:"command"`
	Output  string   `json:"output"`
	// ExitCode is the command's exit code; -1 while it is still running
	// (a watching command such as rollout status).
	ExitCode int `json:"exitCode"`
	// Ended is when a watching command ended, if it ran for a while.
	Ended string `json:"ended,omitempty"`
}

// Input is one thing done to the world: a fault, a kubectl command, an
// apply or a git commit. Inputs are recorded; a run is its seed plus its
// inputs.
type Input struct {
	// At is when the input happens. AfterPass, when > 0, places it right
	// after that pass instead.
	At        api.Time `json:"at"`
	AfterPass int      `json:"afterPass,omitempty"`
	Fault     string   `json:"fault,omitempty"`
	Kubectl   string   `json:"kubectl,omitempty"`
	Apply     string   `json:"apply,omitempty"`
	Git       string   `json:"git,omitempty"`
}

// SideEffect is something a pod did outside the cluster: a database
// migration, a message sent. The cluster has no record of it and no
// rollback undoes it.
type SideEffect struct {
	At     api.Time `json:"-"`
	AtText string   `json:"at"`
	Pod    string   `json:"pod"`
	What   string   `json:"what"`
}
