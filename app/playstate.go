package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

	"reconcile/engine/limits"
	"reconcile/engine/manifest"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// The learner's work in the playground is a playState: the scenario it
// runs (as YAML text), the desired state being edited, and one or two
// futures, each the inputs the learner gave and the pass they stand at.
// With the scenario's seed, the inputs determine the run: the same state
// replays to the same trace and the same digest anywhere.
//
// One format serves the stored file, the exported file and the share link
// (docs/playground.md): JSON, versioned, and checked like any other input
// before anything runs.

// stateFormat and stateVersion name the format of a playState.
const (
	stateFormat  = "reconcile-play"
	stateVersion = 1
)

// Limits on a playState, beyond the scenario loader's own. Each error that
// enforces one names it.
const (
	// maxStatePass is the latest pass a state may stand at.
	maxStatePass = 100_000
	// maxStateInputs is the most inputs one future may hold.
	maxStateInputs = limits.MaxSteps
	// maxHistory is how many console lines a state keeps.
	maxHistory = 100
	// maxStateBytes bounds a stored or imported file: the scenario and
	// the desired state may each be as large as a scenario file.
	maxStateBytes = 3 * limits.MaxFileSize
)

// playState is the learner's work, as stored, exported and shared.
type playState struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	// From is the bundled lesson the work started from, if any.
	From string `json:"from,omitempty"`
	// File and Scenario are the scenario's file name and YAML text.
	File     string `json:"file"`
	Scenario string `json:"scenario"`
	// Desired is the text of the desired-state editor.
	Desired string `json:"desired"`
	// Futures holds the run (one future) or, after a fork, two; Active is
	// the one the learner works in.
	Futures []future `json:"futures"`
	Active  int      `json:"active"`
	// ForkedAt is the pass the two futures share, after a fork.
	ForkedAt int `json:"forkedAt,omitempty"`
	// History is the kubectl console's history, oldest first (not shared).
	History []string `json:"history,omitempty"`
	// Digest is the active future's trace digest when saved: a state
	// restored elsewhere must replay to it.
	Digest string `json:"digest,omitempty"`
}

// future is one run of the scenario: the inputs given, the pass it is at.
type future struct {
	Pass int `json:"pass"`
	// Inputs are the inputs given, each just after its pass (sim.Given's
	// JSON form; the time is recomputed by the replay).
	Inputs []sim.Given `json:"inputs,omitempty"`
}

// inputText is an input the way a learner would type it.
func inputText(in sim.Input) string {
	if _, ok := in.(sim.Apply); ok {
		return "kubectl apply -f - (desired state)"
	}
	return in.Text()
}

// savedInputs returns a run's inputs as a state saves them.
func savedInputs(run *sim.Sim) []sim.Given {
	out := make([]sim.Given, len(run.Inputs()))
	for i, in := range run.Inputs() {
		out[i] = sim.Given{After: in.After, Input: in.Input}
	}
	return out
}

// fileNameRE is what a scenario's file name may look like in a state.
var fileNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// slotRE is what a lesson id (and so a storage slot) looks like.
var slotRE = regexp.MustCompile(`^[a-z0-9-]{1,64}$`)

// errState marks every problem with a state's form (not with the run it
// describes).
var errState = errors.New("not a saved playground")

// decodeState reads a playState from JSON and checks its form and the
// scenario it holds; what names it in errors. It returns the loaded
// scenario too. It never runs anything.
func decodeState(what string, data []byte) (*playState, *scenario.Scenario, error) {
	if len(data) > maxStateBytes {
		return nil, nil, fmt.Errorf("%s is %d bytes; the limit is %d bytes (3 × MaxFileSize)", what, len(data), maxStateBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var st playState
	if err := dec.Decode(&st); err != nil {
		return nil, nil, fmt.Errorf("%s: %w: %v", what, errState, err)
	}
	if dec.More() {
		return nil, nil, fmt.Errorf("%s: %w: more than one JSON value", what, errState)
	}
	if err := st.check(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", what, err)
	}
	sc, err := loadScenarioText(st.File, st.Scenario)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: its scenario does not load:\n%v", what, err)
	}
	return &st, sc, nil
}

// check verifies a state's form: format, version, limits and the shape of
// every input.
func (st *playState) check() error {
	switch {
	case st.Format != stateFormat:
		return fmt.Errorf("%w: format %q, want %q", errState, st.Format, stateFormat)
	case st.Version != stateVersion:
		return fmt.Errorf("%w: version %d; this version of Reconcile reads version %d", errState, st.Version, stateVersion)
	case st.From != "" && !slotRE.MatchString(st.From):
		return fmt.Errorf("%w: from %q is not a lesson id", errState, st.From)
	case !fileNameRE.MatchString(st.File):
		return fmt.Errorf("%w: file %q is not a file name (letters, digits, . _ -, at most 64)", errState, st.File)
	case len(st.Scenario) > limits.MaxFileSize:
		return fmt.Errorf("the scenario is %d bytes; the limit is %d bytes (MaxFileSize, 1 MiB)", len(st.Scenario), limits.MaxFileSize)
	case len(st.Desired) > limits.MaxFileSize:
		return fmt.Errorf("the desired state is %d bytes; the limit is %d bytes (MaxFileSize, 1 MiB)", len(st.Desired), limits.MaxFileSize)
	case len(st.Futures) < 1 || len(st.Futures) > 2:
		return fmt.Errorf("%w: %d futures; a state has one, or two after a fork", errState, len(st.Futures))
	case st.Active < 0 || st.Active >= len(st.Futures):
		return fmt.Errorf("%w: active future %d of %d", errState, st.Active, len(st.Futures))
	case len(st.History) > maxHistory:
		return fmt.Errorf("%d console lines; the limit is %d", len(st.History), maxHistory)
	case len(st.Digest) > 128:
		return fmt.Errorf("%w: digest of %d bytes", errState, len(st.Digest))
	}
	for _, h := range st.History {
		if len(h) > limits.MaxLine {
			return fmt.Errorf("a console line is %d bytes; the limit is %d (limits.MaxLine)", len(h), limits.MaxLine)
		}
	}
	if len(st.Futures) == 2 && (st.ForkedAt < 0 || st.ForkedAt > maxStatePass) {
		return fmt.Errorf("%w: forked at pass %d", errState, st.ForkedAt)
	}
	for i, f := range st.Futures {
		if err := f.check(); err != nil {
			return fmt.Errorf("future %d: %w", i+1, err)
		}
	}
	return nil
}

func (f future) check() error {
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
		case sim.Commit:
			manifests = in.Manifests
		default:
			return fmt.Errorf("input %d: %w: an input is exactly one of fault, kubectl, apply or git", i+1, errState)
		}
		switch {
		case in.After < after:
			return fmt.Errorf("input %d: %w: after pass %d, but the input before it is after pass %d", i+1, errState, in.After, after)
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

// encode writes the state as JSON.
func (st *playState) encode() ([]byte, error) {
	return json.Marshal(st)
}

// loadScenarioText loads a scenario file held as text, the way a bundled
// one is loaded; a panic in the loader is an error too.
func loadScenarioText(file, text string) (sc *scenario.Scenario, err error) {
	var alert string
	guard(&alert, "Reading the scenario", func() {
		sc, err = scenario.Load(file, []byte(text))
	})
	if alert != "" {
		return nil, errors.New(alert)
	}
	return sc, err
}

// replay runs sc again with a future's inputs, each given just after its
// pass as it was first given, and stops just after the future's pass.
func replay(sc *scenario.Scenario, f future) (*sim.Sim, error) {
	run, err := sim.New(sc.Config())
	if err != nil {
		return nil, err
	}
	for i, in := range f.Inputs {
		if err := run.Seek(in.After); err != nil {
			return nil, fmt.Errorf("input %d (%s): %v", i+1, inputText(in.Input), err)
		}
		var manifests string
		switch in := in.Input.(type) {
		case sim.Apply:
			manifests = in.Manifests
		case sim.Commit:
			manifests = in.Manifests
		}
		if manifests != "" {
			// Manifests are checked as the editor checks them, so a stored
			// input never records a decoder error the editor would refuse.
			if _, err := manifest.Decode("input", manifests, 1, 1); err != nil {
				return nil, fmt.Errorf("input %d (%s): %v", i+1, inputText(in.Input), err)
			}
		}
		if _, err := run.Inject(in.Input); err != nil {
			return nil, fmt.Errorf("input %d (%s): %v", i+1, inputText(in.Input), err)
		}
	}
	if err := run.Seek(f.Pass); err != nil {
		return nil, fmt.Errorf("pass %d: %v", f.Pass, err)
	}
	return run, nil
}

// manifestsText is the desired state a scenario file starts with: its
// manifests block, or the whole file when it is a plain manifest file.
func manifestsText(sc *scenario.Scenario, text string) string {
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
