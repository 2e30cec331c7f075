package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"reconcile/engine/limits"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// The learner's work in the playground is a State: the scenario it
// runs (as YAML text), the desired state being edited, and one or two
// futures, each the inputs the learner gave and the pass they stand at.
// With the scenario's seed, the inputs determine the run: the same state
// replays to the same trace and the same digest anywhere.
//
// One format serves the stored file, the exported file and the share link
// (docs/playground.md): JSON, versioned, and checked like any other input
// before anything runs.

// StateFormat and StateVersion name the format of a State.
const (
	StateFormat  = "reconcile-play"
	StateVersion = 1
)

// Limits on a State, beyond the scenario loader's own. Each error that
// enforces one names it.
const (
	// maxStatePass is the latest pass a state may stand at.
	maxStatePass = 100_000
	// maxStateInputs is the most inputs one Future may hold.
	maxStateInputs = limits.MaxSteps
	// MaxHistory is how many console lines a state keeps.
	MaxHistory = 100
	// MaxStateBytes bounds a stored or imported file: the scenario and
	// the desired state may each be as large as a scenario file.
	MaxStateBytes = limits.MaxStateBytes
)

// State is the learner's work, as stored, exported and shared.
type State struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	// From is the bundled lesson the work started from, if any.
	From string `json:"from,omitempty"`
	// File and Scenario are the scenario's file name and YAML text.
	File     string `json:"file"`
	Scenario string `json:"scenario"`
	// Desired is the text of the desired-state editor.
	Desired string `json:"desired"`
	// Futures holds the run (one Future) or, after a fork, two; Active is
	// the one the learner works in.
	Futures []Future `json:"futures"`
	Active  int      `json:"active"`
	// ForkedAt is the pass the two futures share, after a fork.
	ForkedAt int `json:"forkedAt,omitempty"`
	// History is the kubectl console's history, oldest first (not shared).
	History []string `json:"history,omitempty"`
	// Digest is the active Future's trace digest when saved: a state
	// restored elsewhere must replay to it.
	Digest string `json:"digest,omitempty"`
}

// Future is one run of the scenario: the inputs given, the pass it is at.
type Future struct {
	Pass int `json:"pass"`
	// Inputs are the inputs given, each just after its pass (sim.Given's
	// JSON form; the time is recomputed by the replay).
	Inputs []sim.Given `json:"inputs,omitempty"`
}

// InputText is an input the way a learner would type it.
func InputText(in sim.Input) string {
	switch in.(type) {
	case sim.Apply:
		return "kubectl apply -f - (desired state)"
	case sim.Diff:
		return "kubectl diff -f - (desired state)"
	}
	return in.Text()
}

// SavedInputs returns a session's inputs as a state saves them.
func SavedInputs(s *Session) []sim.Given {
	out := make([]sim.Given, len(s.run.Inputs()))
	for i, in := range s.run.Inputs() {
		out[i] = sim.Given{After: in.After, Input: in.Input}
	}
	return out
}

// ErrState marks every problem with a state's form (not with the run it
// describes).
var ErrState = errors.New("not a saved playground")

// DecodeState reads a State from JSON and checks its form and the
// scenario it holds; what names it in errors. It returns the loaded
// scenario too. It never runs anything.
func DecodeState(what string, data []byte) (*State, *scenario.Scenario, error) {
	if len(data) > MaxStateBytes {
		return nil, nil, fmt.Errorf("%s is %d bytes; the limit is %d bytes (3 × MaxFileSize)", what, len(data), MaxStateBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var st State
	if err := dec.Decode(&st); err != nil {
		return nil, nil, fmt.Errorf("%s: %w: %v", what, ErrState, err)
	}
	if dec.More() {
		return nil, nil, fmt.Errorf("%s: %w: more than one JSON value", what, ErrState)
	}
	if err := st.Check(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", what, err)
	}
	sc, err := LoadScenarioText(st.File, st.Scenario)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: its scenario does not load:\n%v", what, err)
	}
	return &st, sc, nil
}

// Check verifies a state's form: format, version, limits and the shape of
// every input.
func (st *State) Check() error {
	switch {
	case st.Format != StateFormat:
		return fmt.Errorf("%w: format %q, want %q", ErrState, st.Format, StateFormat)
	case st.Version != StateVersion:
		return fmt.Errorf("%w: version %d; this version of Reconcile reads version %d", ErrState, st.Version, StateVersion)
	case st.From != "" && !IsSlot(st.From):
		return fmt.Errorf("%w: from %q is not a lesson id", ErrState, st.From)
	case !isFileName(st.File):
		return fmt.Errorf("%w: file %q is not a file name (letters, digits, . _ -, at most 64)", ErrState, st.File)
	case len(st.Scenario) > limits.MaxFileSize:
		return fmt.Errorf("the scenario is %d bytes; the limit is %d bytes (MaxFileSize, 1 MiB)", len(st.Scenario), limits.MaxFileSize)
	case len(st.Desired) > limits.MaxFileSize:
		return fmt.Errorf("the desired state is %d bytes; the limit is %d bytes (MaxFileSize, 1 MiB)", len(st.Desired), limits.MaxFileSize)
	case len(st.Futures) < 1 || len(st.Futures) > 2:
		return fmt.Errorf("%w: %d futures; a state has one, or two after a fork", ErrState, len(st.Futures))
	case st.Active < 0 || st.Active >= len(st.Futures):
		return fmt.Errorf("%w: active Future %d of %d", ErrState, st.Active, len(st.Futures))
	case len(st.History) > MaxHistory:
		return fmt.Errorf("%d console lines; the limit is %d", len(st.History), MaxHistory)
	case len(st.Digest) > 128:
		return fmt.Errorf("%w: digest of %d bytes", ErrState, len(st.Digest))
	}
	for _, h := range st.History {
		if len(h) > limits.MaxLine {
			return fmt.Errorf("a console line is %d bytes; the limit is %d (limits.MaxLine)", len(h), limits.MaxLine)
		}
	}
	if len(st.Futures) == 2 && (st.ForkedAt < 0 || st.ForkedAt > maxStatePass) {
		return fmt.Errorf("%w: forked at pass %d", ErrState, st.ForkedAt)
	}
	for i, f := range st.Futures {
		if err := f.check(); err != nil {
			return fmt.Errorf("Future %d: %w", i+1, err)
		}
	}
	return nil
}

func (f Future) check() error {
	if f.Pass < 0 || f.Pass > maxStatePass {
		return fmt.Errorf("pass %d; passes go from 0 to %d (the limit on a saved pass)", f.Pass, maxStatePass)
	}
	if len(f.Inputs) > maxStateInputs {
		return fmt.Errorf("%d inputs; the limit is %d (MaxSteps)", len(f.Inputs), maxStateInputs)
	}
	after := 0
	for i, in := range f.Inputs {
		line, manifests := "", ""
		switch in := in.Input.(type) {
		case sim.Fault:
			line = in.Text()
		case sim.Kubectl:
			line = in.Line
		case sim.Apply:
			manifests = in.Manifests
		case sim.Diff:
			manifests = in.Manifests
		case sim.Commit:
			manifests = in.Manifests
		case sim.Interrupt:
			line = in.Command
		default:
			return fmt.Errorf("input %d: %w: an input is exactly one of fault, kubectl, apply, diff, git or interrupt", i+1, ErrState)
		}
		switch {
		case in.After < after:
			return fmt.Errorf("input %d: %w: after pass %d, but the input before it is after pass %d", i+1, ErrState, in.After, after)
		case in.After > maxStatePass:
			return fmt.Errorf("input %d: after pass %d; the limit is %d", i+1, in.After, maxStatePass)
		case len(line) > limits.MaxLine:
			return fmt.Errorf("input %d: a line of %d bytes; the limit is %d (MaxLine)", i+1, len(line), limits.MaxLine)
		case len(manifests) > limits.MaxFileSize:
			return fmt.Errorf("input %d: manifests of %d bytes; the limit is %d (MaxFileSize, 1 MiB)", i+1, len(manifests), limits.MaxFileSize)
		}
		after = in.After
	}
	return nil
}

// Encode writes the state as JSON.
func (st *State) Encode() ([]byte, error) {
	return json.Marshal(st)
}

// LoadScenarioText loads a scenario file held as text, the way a bundled
// one is loaded; a panic in the loader is an error too.
func LoadScenarioText(file, text string) (sc *scenario.Scenario, err error) {
	if perr := recovered("Reading the scenario", func() { sc, err = scenario.Load(file, []byte(text)) }); perr != nil {
		return nil, perr
	}
	return sc, err
}

// recovered runs f and turns a panic into an error that names what was
// being done: input from anywhere must not take the page down.
func recovered(what string, f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s failed: %v", what, r)
		}
	}()
	f()
	return nil
}

// Work is a state made ready to use: its scenario loaded and each future
// replayed.
type Work struct {
	State    *State
	Scenario *scenario.Scenario
	Runs     []*sim.Sim
	// Differs is set when the replay's digest is not the one saved.
	Differs bool
}

// Restore reads a state (stored, imported or shared; what names it in
// errors) and replays it, all at once (Open replays it a slice at a time).
func Restore(what string, data []byte) (*Work, error) {
	o, err := Open(what, data)
	if err != nil {
		return nil, err
	}
	return o.all()
}

// RestoreState replays a state whose scenario is loaded.
func RestoreState(st *State, sc *scenario.Scenario) (*Work, error) {
	o := OpenState("", st, sc)
	if err := o.some(time.Time{}); err != nil {
		return nil, err
	}
	return o.w, nil
}

// Replay runs sc again with a Future's inputs, each given just after its
// pass as it was first given, and stops just after the Future's pass: an
// Opening's replay of one future, at once.
func Replay(sc *scenario.Scenario, f Future) (*sim.Sim, error) {
	o := &Opening{sc: sc}
	if err := o.future(f, time.Time{}); err != nil {
		return nil, err
	}
	return o.run, nil
}

// ManifestsText is the desired state a scenario file starts with: its
// manifests block, or the whole file when it is a plain manifest file.
func ManifestsText(sc *scenario.Scenario, text string) string {
	if sc != nil && sc.Plain {
		return text
	}
	var doc struct {
		Manifests string `yaml:"manifests"`
	}
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		return ""
	}
	return strings.TrimRight(doc.Manifests, "\n") + "\n"
}
