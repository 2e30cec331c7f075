package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"reconcile/engine/limits"
	"reconcile/engine/sim"
)

// TestRunStopsWhenQuiet runs and checks plain manifests of 1,000 and 10,000
// replicas on the default 3 nodes (330 pods fit): without a horizon, the
// run stops as soon as nothing would change the world any more (once the
// rollout's progress deadline has passed, at 10m), with the pending pods
// named, instead of playing 24 simulated hours of scheduler retries. The
// bound is on passes (deterministic) and, loosely, on the wall clock of a
// shared machine. (-short skips the 10,000.)
func TestRunStopsWhenQuiet(t *testing.T) {
	tests := []struct {
		file    string
		pending string
		passes  int
		bound   time.Duration
	}{
		{"testdata/replicas-1000.yaml", "670 pods are Pending", 6_000, time.Minute},
		{"testdata/replicas-10000.yaml", "9670 pods are Pending", 60_000, 5 * time.Minute},
	}
	for _, tt := range tests {
		if testing.Short() && strings.Contains(tt.file, "10000") {
			continue
		}
		start := time.Now()
		code, stdout, stderr := runCLI("run", tt.file, "--passes", "none", "-o", "json")
		if code != 0 || stderr != "" {
			t.Fatalf("run %s: exit %d, stderr %q", tt.file, code, stderr)
		}
		var doc struct {
			Until     string
			PassCount int
			Passes    []json.RawMessage
			Stop      struct {
				Reason, Text string
				Converged    bool
			}
		}
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatalf("run %s: not JSON: %v", tt.file, err)
		}
		if doc.Stop.Reason != "quiet" || doc.Stop.Converged || !strings.Contains(doc.Stop.Text, tt.pending) ||
			!strings.HasPrefix(doc.Stop.Text, "quiet at t="+doc.Until+": nothing left would change the world") {
			t.Errorf("run %s stopped: %+v at t=%s", tt.file, doc.Stop, doc.Until)
		}
		if !strings.HasPrefix(doc.Until, "10m") || !strings.Contains(doc.Stop.Text, `deployment "web" exceeded its progress deadline`) {
			t.Errorf("run %s: quiet at t=%s: %s; want just after the progress deadline (10m)", tt.file, doc.Until, doc.Stop.Text)
		}
		if doc.PassCount > tt.passes {
			t.Errorf("run %s took %d passes, more than %d", tt.file, doc.PassCount, tt.passes)
		}
		if len(doc.Passes) != 0 || doc.PassCount == 0 {
			t.Errorf("run %s --passes none: %d passes shown of %d", tt.file, len(doc.Passes), doc.PassCount)
		}
		code, stdout, stderr = runCLI("check", tt.file)
		if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "ok  "+tt.file+"  (no expects, digest ") ||
			!strings.Contains(stdout, " passes: quiet at t="+doc.Until+": ") || !strings.Contains(stdout, tt.pending) {
			t.Errorf("check %s: exit %d\n%s%s", tt.file, code, stdout, stderr)
		}
		if took := time.Since(start); took > tt.bound {
			t.Errorf("run and check of %s took %s, more than %s", tt.file, took.Round(time.Millisecond), tt.bound)
		}
	}
}

// TestRunBounds: a run stops at its pass bound or its memory bound with a
// message naming the bound and the flag that raises it; a horizon runs to
// it; --passes chooses what is printed.
func TestRunBounds(t *testing.T) {
	code, stdout, stderr := runCLI("run", "testdata/replicas-1000.yaml", "--max-passes", "300", "--passes", "last 2")
	want := "reconcile run: the pass bound is reached at t=200ms (300 passes): raise it with --max-passes, or give a horizon with --until\n"
	if code != 0 || stderr != want {
		t.Errorf("pass bound: exit %d, stderr %q, want %q", code, stderr, want)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) != 4 || lines[0] != "(298 passes before these not shown)" || !strings.HasPrefix(lines[1], "#299 ") ||
		!strings.HasPrefix(lines[2], "#300 ") || lines[3] != "stopped after 300 passes: "+strings.TrimPrefix(strings.TrimSuffix(want, "\n"), "reconcile run: ") {
		t.Errorf("--passes last 2:\n%s", stdout)
	}

	// The memory bound reads the heap every 1,024 passes: here a heap that
	// grows 1 MiB a read is over 64 MiB at the first read.
	defer func(f func() uint64) { heapInUse = f }(heapInUse)
	reads := uint64(64)
	heapInUse = func() uint64 { reads++; return reads << 20 }
	code, _, stderr = runCLI("run", "testdata/replicas-1000.yaml", "--max-memory", "64MiB", "--passes", "none")
	want = "reconcile run: the memory bound is reached (65 MiB of heap in use, --max-memory 64MiB; where a run stops for it depends on the machine) at t=300ms" +
		": raise it with --max-memory, or give a horizon with --until\n"
	if code != 0 || stderr != want {
		t.Errorf("memory bound: exit %d, stderr %q, want %q", code, stderr, want)
	}
	code, stdout, _ = runCLI("check", "testdata/replicas-1000.yaml", "--max-memory", "64MiB")
	if code != 0 || !strings.Contains(stdout, "; stopped after 1024 passes: the memory bound is reached (") || !strings.HasSuffix(stdout, ": raise it with --max-memory)\n") {
		t.Errorf("check at the memory bound: exit %d\n%s", code, stdout)
	}
	reads = 64

	code, stdout, _ = runCLI("run", "testdata/web.yaml", "--until", "2m", "--passes", "none")
	if code != 0 || stdout != "stopped after 33 passes: reached t=2m0s\n" {
		t.Errorf("--until 2m: exit %d\n%s", code, stdout)
	}
	code, stdout, _ = runCLI("run", "testdata/web.yaml", "--passes", "none")
	if code != 0 || !strings.HasPrefix(stdout, "stopped after 33 passes: converged at t=") {
		t.Errorf("no horizon: exit %d\n%s", code, stdout)
	}

	for _, tt := range []struct{ args, stderr string }{
		{"--max-passes 0", "--max-passes 0: want a number of passes, 1 or more"},
		{"--max-memory 2", "--max-memory 2: want at least 64MiB"},
		{"--max-memory lots", "--max-memory lots: want a size such as 512MiB or 4GiB"},
		{"--passes last", `--passes last: want last N with N 1 or more, e.g. "last 20"`},
		{"--passes some", `--passes some: want a number of passes, 1 or more, or none, all or "last N"`},
	} {
		args := append([]string{"run", "testdata/web.yaml"}, strings.SplitN(tt.args, " ", 2)...)
		if code, _, stderr := runCLI(args...); code != 2 || !strings.Contains(stderr, tt.stderr) {
			t.Errorf("%s: exit %d, stderr %q, want %q", tt.args, code, stderr, tt.stderr)
		}
	}
}

// bigConfigMaps writes a scenario of six ConfigMaps of 240 KB each (one
// 15 KB string, aliased) and steps get configmaps -o json, each output
// about 1.4 MB.
func bigConfigMaps(t *testing.T, steps int) string {
	var b strings.Builder
	b.WriteString("id: big\ntitle: big\nmanifests: |\n")
	for c := range 6 {
		fmt.Fprintf(&b, "  ---\n  apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: cm%d\n  data:\n", c)
		if c == 0 {
			fmt.Fprintf(&b, "    x: &a %q\n", strings.Repeat("a", 15_000))
		}
		for j := range 16 {
			fmt.Fprintf(&b, "    y%d: *a\n", j)
		}
	}
	b.WriteString("steps:\n")
	for s := range steps {
		fmt.Fprintf(&b, "- {at: %ds, kubectl: \"get configmaps -o json\"}\n", s+1)
	}
	file := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestOutputBounds: memory is bounded where it is spent without a pass. A
// get -o json of 1.4 MB is cut at MaxOutput (1 MiB), saying so, exit code
// 1; once a run's commands have printed MaxRunOutput (32 MiB) their
// outputs are no longer kept; and --max-memory is read after each command
// that printed, so a run of kubectl steps alone (no pass at all) stops at
// it. Before, each output was kept whole (50 such steps held 800 MB with
// --max-memory 128MiB, 1,000 took 187 s) and the bound was read every
// 1,024 passes only.
func TestOutputBounds(t *testing.T) {
	file := bigConfigMaps(t, 40)
	code, stdout, stderr := runCLI("run", file, "--passes", "none", "-o", "json")
	if code != 0 {
		t.Fatalf("run: exit %d\n%s", code, stderr)
	}
	var doc struct{ Outputs []sim.Output }
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Outputs) != 40 {
		t.Fatalf("%d outputs, want 40", len(doc.Outputs))
	}
	kept, dropped := 0, 0
	for i, o := range doc.Outputs {
		switch {
		case o.ExitCode != 1:
			t.Errorf("output %d: exit code %d, want 1", i, o.ExitCode)
		case o.Output == limits.RunOutputMessage():
			dropped++
		case dropped > 0:
			t.Errorf("output %d kept after one past MaxRunOutput", i)
		case len(o.Output) > limits.MaxOutput || !strings.HasSuffix(o.Output, "\n"+limits.OutputMessage()) ||
			!strings.HasPrefix(o.Output, "{\n    \"apiVersion\": \"v1\",\n    \"items\": ["):
			t.Errorf("output %d: %d bytes, ends %q", i, len(o.Output), o.Output[max(0, len(o.Output)-120):])
		default:
			kept += len(o.Output)
		}
	}
	if kept > limits.MaxRunOutput || dropped != 8 {
		t.Errorf("the run kept %d bytes of output, dropped %d outputs; want at most %d, 8 dropped", kept, dropped, limits.MaxRunOutput)
	}

	defer func(f func() uint64) { heapInUse = f }(heapInUse)
	heapInUse = func() uint64 { return 3 << 30 }
	code, _, stderr = runCLI("run", file, "--passes", "none")
	want := "reconcile run: the memory bound is reached (3.0 GiB of heap in use, --max-memory 2GiB; where a run stops for it depends on the machine) at t=1s" +
		": raise it with --max-memory, or give a horizon with --until\n"
	if code != 0 || !strings.HasSuffix(stderr, want) {
		t.Errorf("memory bound: exit %d, stderr %q, want %q", code, stderr, want)
	}
}
