package challenge

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }

// Record is a completion: the lesson, its version, the learner's inputs
// and the digest of the run when it was solved. Its JSON form is
//
//	{"scenario": "edit-reverts", "version": "sha256:…",
//	 "inputs": [{"after": 90, "at": "1m40s", "git": "apiVersion: apps/v1\n…"}],
//	 "digest": "sha256:…"}
//
// Anyone holding the lesson can replay it (Verify): the digest proves the
// run, the judge proves it solved the challenge. A record with hints seals
// them into its digest (Seal), so that they cannot be changed unnoticed
// either.
type Record struct {
	Scenario string      `json:"scenario"`
	Version  string      `json:"version"`
	Inputs   []sim.Given `json:"inputs"`
	Digest   string      `json:"digest"`
	// Hints are the hints the learner took (desired, conditions, events),
	// in order. The replay does not depend on them: the digest covers them
	// (Seal).
	Hints []string `json:"hints,omitempty"`
}

// HintNames are the hints a record can name, in the order of the three
// questions.
var HintNames = []string{"desired", "conditions", "events"}

// Seal is a record's digest: the run's digest, and when the learner took
// hints, the SHA-256 of the run's digest and the hints in order. A record
// without hints carries the run's digest itself. It is a digest, not a
// signature: it makes a change to the hints show, as a changed input does.
func Seal(run string, hints []string) string {
	if len(hints) == 0 {
		return run
	}
	sum := sha256.Sum256([]byte("reconcile completion record\n" + run + "\nhints " + strings.Join(hints, ",") + "\n"))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// WithHints is the record with the hints taken, sealed into its digest. r
// must carry the run's digest (as Complete makes it).
func (r *Record) WithHints(hints []string) *Record {
	out := *r
	out.Hints = append([]string(nil), hints...)
	out.Digest = Seal(r.Digest, out.Hints)
	return &out
}

// Version is a scenario file's version: the SHA-256 of its text. A record
// names the file it was made against.
func Version(file []byte) string {
	sum := sha256.Sum256(file)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Complete replays inputs and returns their record when they solve sc's
// challenge, or an error saying why not.
func Complete(sc *scenario.Scenario, file []byte, inputs []sim.Given) (*Record, error) {
	res, err := Play(sc, inputs)
	if err != nil {
		return nil, err
	}
	if res.Status.State != Solved {
		return nil, fmt.Errorf("not solved: %s", res.Status.Why())
	}
	// Each input with its time: one given while the clock stood between
	// two passes replays at that moment.
	saved := append([]sim.Given(nil), res.Inputs...)
	return &Record{Scenario: sc.ID, Version: Version(file), Inputs: saved, Digest: res.Digest}, nil
}

// ParseRecord reads a record's JSON, refusing unknown fields and a record
// without a scenario or a digest.
func ParseRecord(data []byte) (*Record, error) {
	var r Record
	dec := json.NewDecoder(bytesReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("not a completion record: %v", err)
	}
	switch {
	case r.Scenario == "":
		return nil, fmt.Errorf("not a completion record: no scenario")
	case r.Digest == "":
		return nil, fmt.Errorf("not a completion record: no digest")
	case len(r.Inputs) == 0:
		return nil, fmt.Errorf("not a completion record: no inputs")
	}
	for _, h := range r.Hints {
		if !slices.Contains(HintNames, h) {
			return nil, fmt.Errorf("not a completion record: hint %q is not one of %s", h, strings.Join(HintNames, ", "))
		}
	}
	return &r, nil
}

// Verdict is what Verify finds.
type Verdict struct {
	// Solved is true when the replay solved the challenge and gave the
	// record's digest.
	Solved bool
	// Why says what the replay found, in one line.
	Why    string
	Result *Result
}

// Verify replays a record against the scenario (and its file, for the
// version): solved only when the replay solves the challenge and ends on
// the record's digest. An error is a record that cannot be replayed.
func Verify(sc *scenario.Scenario, file []byte, r *Record) (Verdict, error) {
	if r.Scenario != sc.ID {
		return Verdict{}, fmt.Errorf("the record is for scenario %q, not %q", r.Scenario, sc.ID)
	}
	if v := Version(file); r.Version != v {
		return Verdict{Why: fmt.Sprintf("the record was made against version %s of %s; this file is version %s", short(r.Version), sc.ID, short(v))}, nil
	}
	res, err := Play(sc, r.Inputs)
	if err != nil {
		return Verdict{Why: "the inputs do not replay: " + err.Error()}, nil
	}
	v := Verdict{Result: res}
	sealed := Seal(res.Digest, r.Hints)
	// A record made before its digest covered the hints carries the run's
	// digest beside them: it verifies, its hints said and not proved.
	unsealed := len(r.Hints) > 0 && r.Digest == res.Digest
	switch {
	case res.Status.State != Solved:
		v.Why = res.Status.Why()
	case r.Digest != sealed && !unsealed && len(r.Hints) > 0:
		v.Why = fmt.Sprintf("the replay solves the challenge, but the record's digest %s is not the replay's with the hints %s (%s): the record was changed", short(r.Digest), strings.Join(r.Hints, ", "), short(sealed))
	case r.Digest != sealed && !unsealed:
		v.Why = fmt.Sprintf("the replay solves the challenge but ends on digest %s, not the record's %s: the record was changed", short(res.Digest), short(r.Digest))
	default:
		v.Solved, v.Why = true, strings.TrimPrefix(res.Status.Why(), "solved: ")+fmt.Sprintf(", %s, cost: %s, %s, digest %s", plural(len(r.Inputs), "input"), Cost(sc, res.Status), hintsText(r.Hints), short(r.Digest))
		if unsealed {
			v.Why += " (the hints are not covered by this digest: a record made before digests covered them)"
		}
	}
	return v, nil
}

// Cost says what a solution cost, from its status: "0 failed requests, 2
// pods replaced" (failed requests when the lesson sends traffic).
func Cost(sc *scenario.Scenario, st Status) string {
	pods := plural(st.PodsReplaced, "pod") + " replaced"
	if len(sc.Traffic) == 0 {
		return pods
	}
	return plural(st.Failed, "failed request") + ", " + pods
}

// hintsText says the hints a record names: "no hints", "hints: desired,
// events".
func hintsText(hints []string) string {
	if len(hints) == 0 {
		return "no hints"
	}
	return "hints: " + strings.Join(hints, ", ")
}

func short(d string) string {
	if len(d) > len("sha256:")+12 {
		return d[:len("sha256:")+12]
	}
	return d
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
