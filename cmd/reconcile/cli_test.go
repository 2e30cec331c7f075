package main

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"reconcile/engine/controller"
	"reconcile/engine/sim"
)

func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestUsageAndBadArguments(t *testing.T) {
	tests := []struct {
		args     []string
		code     int
		inStderr string
	}{
		{nil, 2, "usage:"},
		{[]string{"frobnicate"}, 2, `reconcile: unknown command "frobnicate"`},
		{[]string{"run"}, 2, "want exactly one FILE, got 0"},
		{[]string{"run", "a.yaml", "b.yaml"}, 2, "want exactly one FILE, got 2"},
		{[]string{"run", "testdata/web.yaml", "--until", "1m", "--passes", "3"}, 2, "give --until or --passes, not both"},
		{[]string{"run", "testdata/web.yaml", "-o", "yaml"}, 2, "-o yaml: want text or json"},
		{[]string{"run", "testdata/web.yaml", "--until", "soon"}, 2, "--until soon: want a simulated time from 1s to 24h, e.g. 10m"},
		{[]string{"run", "testdata/web.yaml", "--passes", "-1"}, 2, "--passes -1: want a number of passes, 1 or more"},
		{[]string{"run", "testdata/web.yaml", "--bogus"}, 2, "flag provided but not defined: -bogus"},
		{[]string{"run", "testdata/missing.yaml"}, 2, "testdata/missing.yaml: no such file or directory"},
		{[]string{"run", "testdata/bad.yaml"}, 2, `testdata/bad.yaml:3:8: steps[0].at: invalid duration "3x"`},
		{[]string{"check"}, 2, "want at least one FILE"},
	}
	for _, tt := range tests {
		code, stdout, stderr := runCLI(tt.args...)
		if code != tt.code || !strings.Contains(stderr, tt.inStderr) {
			t.Errorf("reconcile %q: exit %d, stderr %q; want exit %d and %q", tt.args, code, stderr, tt.code, tt.inStderr)
		}
		if stdout != "" {
			t.Errorf("reconcile %q printed to stdout: %q", tt.args, stdout)
		}
	}
	if code, stdout, _ := runCLI("help"); code != 0 || !strings.HasPrefix(stdout, "usage:") {
		t.Errorf("help: exit %d, %q", code, stdout)
	}
}

var passLineRE = regexp.MustCompile(`^#(\d+) t=\S+ \S+ \S+  desired .* · observed .* · difference .* → .+$`)

func TestRunText(t *testing.T) {
	code, stdout, stderr := runCLI("run", "testdata/web.yaml", "--passes", "5")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) != 6 || lines[5] != "stopped after 5 passes: ran the 5 passes asked for, to t=200ms" {
		t.Fatalf("want 5 pass lines and how the run stopped, got %d:\n%s", len(lines), stdout)
	}
	lines = lines[:5]
	for i, l := range lines {
		m := passLineRE.FindStringSubmatch(l)
		if m == nil || m[1] != strconv.Itoa(i+1) {
			t.Errorf("line %d does not read as a pass: %q", i+1, l)
		}
	}
	if !strings.HasPrefix(lines[0], "#1 t=0s deployment-controller default/web  desired ") {
		t.Errorf("first pass: %q", lines[0])
	}
	// Flags may come before the file; the same run prints the same trace.
	_, again, _ := runCLI("run", "--passes", "5", "-o", "text", "testdata/web.yaml")
	if again != stdout {
		t.Errorf("the same run printed differently:\n%s\n%s", stdout, again)
	}
}

func TestRunTextShowsOutputsAndWarnings(t *testing.T) {
	code, stdout, stderr := runCLI("run", "testdata/steps.yaml", "--until", "1m")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if stderr != "testdata/steps.yaml:12:5: Warning: unknown field \"spec.replicass\"\n" {
		t.Errorf("stderr: %q", stderr)
	}
	if !regexp.MustCompile(`(?m)^\nt=30s \$ kubectl get pods`).MatchString(stdout) {
		t.Errorf("no recorded output of the kubectl step after the passes:\n%s", stdout)
	}
}

func TestRunJSON(t *testing.T) {
	code, stdout, stderr := runCLI("run", "testdata/web.yaml", "--until", "1m", "--seed", "42", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout)
	}
	for _, k := range []string{"scenario", "seed", "until", "digest", "stop", "passCount", "passes", "objects", "events", "outputs", "outside", "errors"} {
		if _, ok := doc[k]; !ok {
			t.Errorf("missing %q", k)
		}
	}
	var head struct {
		Scenario string
		Seed     int64
		Until    string
		Digest   string
		Passes   []struct {
			N                                      int
			Controller, Trigger, Desired, Observed string
			Actions                                []string
		}
		Objects []struct {
			APIVersion string `json:"apiVersion"`
			Kind       string
			Metadata   struct {
				Name, Namespace, UID, ResourceVersion string
				Generation                            int64
			}
			Spec   json.RawMessage
			Status json.RawMessage
		}
		Events []struct {
			Type, Reason, Message string
			Count                 int
			InvolvedObject        struct{ Kind, Name, Namespace string }
			Source                struct{ Component string }
			FirstTimestamp        string
			LastTimestamp         string
		}
		Outputs []sim.Output
		Errors  []string
	}
	if err := json.Unmarshal([]byte(stdout), &head); err != nil {
		t.Fatal(err)
	}
	if head.Scenario != "web" || head.Seed != 42 || head.Until != "1m" || !strings.HasPrefix(head.Digest, "sha256:") {
		t.Errorf("header: %s %d %s %s", head.Scenario, head.Seed, head.Until, head.Digest)
	}
	if len(head.Passes) == 0 || head.Passes[0].N != 1 || head.Passes[0].Controller == "" || head.Passes[0].Actions == nil {
		t.Errorf("passes: %+v", head.Passes)
	}
	kinds := map[string]int{}
	for _, o := range head.Objects {
		kinds[o.Kind]++
		if o.APIVersion == "" || o.Metadata.Name == "" || o.Metadata.UID == "" || o.Metadata.ResourceVersion == "" {
			t.Errorf("object not Kubernetes-shaped: %+v", o)
		}
	}
	if kinds["Deployment"] != 1 || kinds["ReplicaSet"] != 1 || kinds["Pod"] != 5 || kinds["Node"] != 3 {
		t.Errorf("objects by kind: %v", kinds)
	}
	if len(head.Events) == 0 || head.Events[0].Reason == "" || head.Events[0].Source.Component == "" || head.Events[0].FirstTimestamp == "" {
		t.Errorf("events: %+v", head.Events)
	}
	if head.Outputs == nil || head.Errors == nil {
		t.Errorf("outputs and errors are lists, even when empty")
	}
}

func TestCheck(t *testing.T) {
	code, stdout, stderr := runCLI("check", "testdata/web.yaml")
	if code != 0 || stderr != "" || !regexp.MustCompile(`^ok  testdata/web\.yaml  \(7 expects, digest sha256:[0-9a-f]{12}\)\n$`).MatchString(stdout) {
		t.Errorf("exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}

	code, stdout, _ = runCLI("check", "testdata/web.yaml", "testdata/wrong.yaml")
	want := "FAIL  testdata/wrong.yaml  (1 of 7 expects failed)\n" +
		"testdata/wrong.yaml:27:3: expect at 1m: deployment/web status.availableReplicas == 6: got 5\n"
	if code != 1 || !strings.HasPrefix(stdout, "ok  testdata/web.yaml") || !strings.HasSuffix(stdout, want) {
		t.Errorf("exit %d\n%s\nwant the failure\n%s", code, stdout, want)
	}

	code, stdout, stderr = runCLI("check", "testdata/bad.yaml", "testdata/wrong.yaml", "testdata/web.yaml")
	if code != 2 || !strings.HasPrefix(stderr, "testdata/bad.yaml:3:8: ") || !strings.Contains(stdout, "FAIL  testdata/wrong.yaml") ||
		!strings.Contains(stdout, "ok  testdata/web.yaml") {
		t.Errorf("bad input among good: exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
}

func TestActionSummary(t *testing.T) {
	tests := []struct {
		pass sim.Pass
		want string
	}{
		{sim.Pass{Outcome: "in sync"}, "in sync"},
		{sim.Pass{}, "no action"},
		{sim.Pass{Controller: "replicaset-controller", Actions: []controller.Action{controller.Do(controller.Create, "pod web-1"), controller.Do(controller.Create, "pod web-2"), controller.Status("replicas 2")}},
			"create 2 pods, update status (replicas 2)"},
		{sim.Pass{Controller: "replicaset-controller", Actions: []controller.Action{controller.Do(controller.Create, "web-1"), controller.Do(controller.Create, "web-2")}}, "create 2 pods"},
		{sim.Pass{Controller: "deployment-controller", Actions: []controller.Action{controller.Do(controller.Scale, "replicaset/web-a to 3"), controller.Do(controller.Scale, "replicaset/web-b to 1")}}, "scale 2 replicasets"},
		{sim.Pass{Controller: "kubelet", Actions: []controller.Action{controller.Do(controller.Start, "container web")}, Outcome: "error: boom", Result: controller.Failed}, "start container web (error: boom)"},
		{sim.Pass{Controller: "gitops", Actions: []controller.Action{controller.Do(controller.Apply, "a"), controller.Do(controller.Apply, "b")}}, "apply 2 objects"},
		{sim.Pass{Controller: "replicaset-controller", Actions: []controller.Action{controller.Do(controller.Create, "pod web-1")}, Outcome: "crashed mid-pass after 1 action(s); restarts in 10s", Result: controller.Crashed},
			"create pod web-1 (crashed mid-pass after 1 action(s); restarts in 10s)"},
	}
	for _, tt := range tests {
		if got := actionSummary(tt.pass); got != tt.want {
			t.Errorf("actionSummary(%v) = %q, want %q", tt.pass.Actions, got, tt.want)
		}
	}
	p := sim.Pass{N: 12, AtText: "34s", Controller: "replicaset-controller", Key: "default/web-7d9c", Desired: controller.Statement{Words: "5"}, Observed: controller.Statement{Words: "3"},
		Difference: controller.Statement{Words: "+2"}, Actions: []controller.Action{controller.Do(controller.Create, "pod web-7d9c-x2kq9"), controller.Do(controller.Create, "pod web-7d9c-p8zzt")}}
	if got, want := passLine(p), "#12 t=34s replicaset-controller default/web-7d9c  desired 5 · observed 3 · difference +2 → create 2 pods"; got != want {
		t.Errorf("passLine:\n got %s\nwant %s", got, want)
	}
}
