package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reconcile/engine/challenge"
	"reconcile/engine/scenario"
	"reconcile/scenarios"
)

// A record of the reference solution of testdata/challenge.yaml, made by
// challenge.Complete; each case changes one thing in it.
func TestVerify(t *testing.T) {
	const scenarioFile = "testdata/challenge.yaml"
	good, err := os.ReadFile("testdata/challenge-record.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tests := []struct {
		name     string
		old, new string
		code     int
		stdout   string
		stderr   string
	}{
		{name: "solved", code: 0, stdout: "solved  RECORD  (gitops-five: the goal held for 1m from t=2m2.4s, 1 input, cost: 0 pods replaced, no hints, digest sha256:4adfe008f00e)"},
		{name: "one input changed", old: `replicas: 5`, new: `replicas: 4`, code: 1,
			stdout: "NOT SOLVED  RECORD  (gitops-five): out of time: the goal was not reached by t=6m40s"},
		{name: "an input moved", old: `"after": 90`, new: `"after": 91`, code: 1,
			stdout: "NOT SOLVED  RECORD  (gitops-five): the replay solves the challenge but ends on digest sha256:"},
		{name: "digest changed", old: `"digest": "sha256:4adf`, new: `"digest": "sha256:0e35`, code: 1,
			stdout: "the replay solves the challenge but ends on digest sha256:4adfe008f00e, not the record's sha256:0e35e008f00e: the record was changed"},
		{name: "version changed", old: `"version": "sha256:9`, new: `"version": "sha256:8`, code: 1,
			stdout: "NOT SOLVED  RECORD  (gitops-five): the record was made against version sha256:82af75e29d1d of gitops-five; this file is version sha256:92af75e29d1d"},
		{name: "input before the start", old: `"at": "1m40s"`, new: `"at": "1m20s"`, code: 1,
			stdout: "the inputs do not replay: input 1 (git commit) is given after pass 90, before the challenge starts at t=1m40s (after pass 90)"},
		{name: "input after the wrong pass", old: `"after": 90`, new: `"after": 12`, code: 1,
			stdout: "the inputs do not replay: input 1 (git commit) is given after pass 12 at t=1m40s, but pass 13 came before t=1m40s"},
		{name: "unknown field", old: `"digest"`, new: `"digets"`, code: 2, stderr: `not a completion record: json: unknown field "digets"`},
		{name: "another scenario", old: `"gitops-five"`, new: `"self-healing"`, code: 2, stderr: `the record is for scenario "self-healing", not "gitops-five"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := strings.Replace(string(good), tt.old, tt.new, 1)
			if tt.old != "" && text == string(good) {
				t.Fatalf("%q is not in the record", tt.old)
			}
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".json")
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr := runCLI("verify", path, "--scenario", scenarioFile)
			if code != tt.code || !strings.Contains(stdout, strings.ReplaceAll(tt.stdout, "RECORD", path)) || !strings.Contains(stderr, tt.stderr) {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, stdout, stderr)
			}
		})
	}
}

// The hints a record names are covered by its digest: changed, removed or
// added, the record is refused as changed. A record made before digests
// covered them (the run's digest beside its hints) still verifies, and
// says its hints are not covered.
func TestVerifyHints(t *testing.T) {
	const scenarioFile = "testdata/challenge.yaml"
	data, err := os.ReadFile("testdata/challenge-record.json")
	if err != nil {
		t.Fatal(err)
	}
	plain, err := challenge.ParseRecord(data)
	if err != nil {
		t.Fatal(err)
	}
	hinted := plain.WithHints([]string{"desired", "events"})
	if hinted.Digest == plain.Digest {
		t.Fatal("the hints do not change the digest")
	}
	good, err := json.MarshalIndent(hinted, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	const changed = "the record was changed"
	dir := t.TempDir()
	tests := []struct {
		name      string
		record    []byte
		old, new  string
		code      int
		stdout    string
		notStdout string
	}{
		{name: "with hints", record: good, code: 0, stdout: "cost: 0 pods replaced, hints: desired, events, digest " + hinted.Digest[:19] + ")", notStdout: "not covered"},
		{name: "a hint changed", record: good, old: `"events"`, new: `"conditions"`, code: 1,
			stdout: "NOT SOLVED  RECORD  (gitops-five): the replay solves the challenge, but the record's digest " + hinted.Digest[:19] + " is not the replay's with the hints desired, conditions (sha256:"},
		{name: "a hint removed", record: good, old: `"desired",`, new: ``, code: 1, stdout: changed},
		{name: "the hints removed", record: good, old: `,
  "hints": [
    "desired",
    "events"
  ]`, new: ``, code: 1, stdout: "the replay solves the challenge but ends on digest sha256:4adfe008f00e, not the record's " + hinted.Digest[:19] + ": " + changed},
		{name: "the hints reordered", record: good, old: `"desired",
    "events"`, new: `"events",
    "desired"`, code: 1, stdout: changed},
		{name: "an unknown hint", record: good, old: `"events"`, new: `"answer"`, code: 2},
		// Made before digests covered the hints: the run's digest.
		{name: "a record made before", record: data, old: `"digest"`, new: `"hints": ["events"],
  "digest"`, code: 0, stdout: "hints: events, digest sha256:4adfe008f00e (the hints are not covered by this digest: a record made before digests covered them)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := strings.Replace(string(tt.record), tt.old, tt.new, 1)
			if tt.old != "" && text == string(tt.record) {
				t.Fatalf("%q is not in the record", tt.old)
			}
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".json")
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr := runCLI("verify", path, "--scenario", scenarioFile)
			if code != tt.code || !strings.Contains(stdout, strings.ReplaceAll(tt.stdout, "RECORD", path)) || tt.notStdout != "" && strings.Contains(stdout, tt.notStdout) {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, stdout, stderr)
			}
			if tt.code == 2 && !strings.Contains(stderr, `not a completion record: hint "answer" is not one of desired, conditions, events`) {
				t.Errorf("stderr: %s", stderr)
			}
		})
	}
}

func TestVerifyBadArguments(t *testing.T) {
	tests := []struct {
		args   []string
		stderr string
	}{
		{[]string{"verify"}, "reconcile verify: want exactly one RECORD, got 0"},
		{[]string{"verify", "testdata/missing.json"}, "reconcile verify: testdata/missing.json: no such file or directory"},
		{[]string{"verify", "testdata/web.yaml"}, "reconcile verify: testdata/web.yaml: not a completion record: invalid character"},
		{[]string{"verify", "testdata/challenge-record.json"}, `no bundled lesson "gitops-five": give the scenario it was made against with --scenario FILE`},
		{[]string{"verify", "testdata/challenge-record.json", "--scenario", "testdata/web.yaml"}, "the scenario web has no challenge"},
	}
	for _, tt := range tests {
		code, _, stderr := runCLI(tt.args...)
		if code != 2 || !strings.Contains(stderr, tt.stderr) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tt.args, code, stderr, tt.stderr)
		}
	}
}

// reconcile check proves a challenge: the solution solves it, doing
// nothing does not, each shortcut's try is caught; a wrong claim fails at
// its place in the file.
func TestCheckProvesTheChallenge(t *testing.T) {
	code, stdout, _ := runCLI("check", "testdata/challenge.yaml")
	if code != 0 || !strings.Contains(stdout, "ok  testdata/challenge.yaml  (17 expects, digest sha256:e9ad80a73188; challenge: the solution holds the goal from t=2m2.4s, doing nothing does not, 2 shortcuts caught)") {
		t.Errorf("exit %d\n%s", code, stdout)
	}
	code, stdout, _ = runCLI("check", "testdata/challenge-wrong.yaml")
	for _, want := range []string{
		"FAIL  testdata/challenge-wrong.yaml  (0 of 17 expects failed, 2 of 4 challenge claims failed)",
		"testdata/challenge-wrong.yaml:133:3: challenge.solution does not solve the challenge: out of time: the goal was not reached by t=6m40s (deployment/web spec.replicas == 5: got 4; pods{app=web,ready} == 5: got 4)",
		"testdata/challenge-wrong.yaml:149:10: challenge.forbid[1].try is not caught: out of time",
	} {
		if code != 1 || !strings.Contains(stdout, want) {
			t.Errorf("exit %d, want 1 and %q in\n%s", code, want, stdout)
		}
	}
}

// A record of a bundled lesson is verified against the lesson the binary
// carries, found by the record's scenario.
func TestVerifyBundled(t *testing.T) {
	name, file, ok := scenarios.File("edit-reverts")
	if !ok {
		t.Fatal("no bundled edit-reverts")
	}
	sc, err := scenario.Load(name, file)
	if err != nil {
		t.Fatal(err)
	}
	in, err := challenge.Given(sc, sc.Challenge.Solution)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := challenge.Complete(sc, file, in)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "record.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI("verify", path)
	if code != 0 || !strings.Contains(stdout, "solved  "+path+"  (edit-reverts: the goal held for 1m from t=2m2.4s, 1 input, cost: 0 pods replaced, no hints, digest sha256:") {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
	// The live edit in place of the commit: a shortcut, refused.
	var r map[string]any
	json.Unmarshal(b, &r)
	r["inputs"] = []map[string]any{{"after": rec.Inputs[0].After, "kubectl": "scale deployment/web --replicas=5"}}
	b, _ = json.Marshal(r)
	os.WriteFile(path, b, 0o644)
	code, stdout, _ = runCLI("verify", path)
	if code != 1 || !strings.Contains(stdout, `NOT SOLVED  `+path+`  (edit-reverts): shortcut: "kubectl scale deployment/web --replicas=5" at t=1m30.5s: You edited the live object.`) {
		t.Errorf("exit %d\n%s", code, stdout)
	}
}
