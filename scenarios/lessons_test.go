package scenarios_test

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/check"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
	"reconcile/scenarios"
)

// load loads a bundled scenario or stops the test.
func load(t *testing.T, id string) *scenario.Scenario {
	t.Helper()
	sc, err := scenarios.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// newSim starts a run of sc, as reconcile check and the player do.
func newSim(t *testing.T, sc *scenario.Scenario) *sim.Sim {
	t.Helper()
	s, err := sim.New(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestBundledScenariosHoldStepByStep checks every expect against a run
// stepped to each expect's time, as the player steps one.
func TestBundledScenariosHoldStepByStep(t *testing.T) {
	for _, id := range scenarios.IDs() {
		t.Run(id, func(t *testing.T) {
			sc := load(t, id)
			s := newSim(t, sc)
			order := make([]int, len(sc.Expect))
			for i := range order {
				order[i] = i
			}
			sort.SliceStable(order, func(a, b int) bool { return sc.Expect[order[a]].At < sc.Expect[order[b]].At })
			for _, i := range order {
				s.RunUntil(sc.Expect[i].At, 0)
				if f := check.Expect(s, sc.Expect[i]); f != nil {
					t.Error(f)
				}
			}
		})
	}
}

func TestSectionsListEveryScenarioOnce(t *testing.T) {
	seen := map[string]string{}
	for _, s := range scenarios.Sections {
		for _, id := range s.IDs {
			if _, _, ok := scenarios.File(id); !ok {
				t.Errorf("section %q lists %q, which is not a bundled scenario", s.Title, id)
			}
			if prev, dup := seen[id]; dup {
				t.Errorf("%q is listed in %q and in %q", id, prev, s.Title)
			}
			seen[id] = s.Title
		}
	}
	for _, id := range scenarios.IDs() {
		if _, ok := seen[id]; !ok {
			t.Errorf("bundled scenario %q is in no section of scenarios.Sections", id)
		}
	}
	if got := scenarios.Ordered(); len(got) != len(scenarios.IDs()) || got[0] != scenarios.Default {
		t.Errorf("Ordered() = %v: want every bundled scenario once, the default lesson first", got)
	}
}

// lessonTable is the lesson's failure table, row by row, as the lesson
// writes it.
var lessonTable = []scenario.FailureRow{
	{Trigger: "Apply returns success, nothing changes", Symptom: "status.observedGeneration behind metadata.generation",
		Cause:    "The responsible controller is down, throttled, or not watching this namespace",
		Response: "Check the controller's own pods before anything else — a controller is a workload too"},
	{Trigger: "Deployment stuck part-way", Symptom: "Progressing becomes False, reason ProgressDeadlineExceeded",
		Cause:    "New pods never became ready — usually a readiness or dependency problem (Probes: Readiness, Liveness and Startup)",
		Response: "Read the new ReplicaSet's pods, not the Deployment"},
	{Trigger: "Pods created, never scheduled", Symptom: "Pods Pending with FailedScheduling events",
		Cause:    "No node satisfies the pod's requests or constraints (The Scheduler, and Why a Pod Is Pending)",
		Response: "Read the scheduler's event message — it names the filter that excluded each node"},
	{Trigger: "Your edit reverts within seconds", Symptom: "The object flaps between two values",
		Cause:    "Another controller owns this field and is reconciling it back (Drift)",
		Response: "Change desired state at its source, not the live object"},
	{Trigger: "Writes rejected across a namespace", Symptom: "Apply fails with a webhook timeout",
		Cause:    "An admission webhook is unavailable and configured to fail closed",
		Response: "Fix or bypass the webhook; desired state cannot be updated until then"},
	{Trigger: "Field change refused", Symptom: "field is immutable on apply",
		Cause:    "Some fields are set at creation and cannot be reconciled",
		Response: "Replace the object deliberately — and check what that does to traffic first"},
	{Trigger: "Everything green, users see the old version", Symptom: "Converged Deployment, stale behaviour",
		Cause:    "The image tag was reused, so the digest never changed (Tags Versus Digests)",
		Response: "Deploy by digest; the loop compared two identical specs and correctly did nothing"},
}

// notPlayableYet are rows of the table with no bundled scenario, and why.
var notPlayableYet = map[string]string{}

// TestFailureTableIsTheLessons checks that the failure-table scenarios carry
// the lesson's rows word for word, one scenario per row, in the table's
// order, and that only those scenarios carry a row.
func TestFailureTableIsTheLessons(t *testing.T) {
	table := scenarios.FailureTable()
	next := 0
	for _, id := range table {
		sc := load(t, id)
		if sc.Failure == nil {
			t.Errorf("%s: in the failure table but has no failure: row", sc.File)
			continue
		}
		i := slices.Index(lessonTable, *sc.Failure)
		switch {
		case i < 0:
			t.Errorf("%s: failure row %+v is not a row of the lesson's table (word for word)", sc.File, *sc.Failure)
		case i < next:
			t.Errorf("%s: row %q comes before the previous scenario's row in the lesson's table", sc.File, sc.Failure.Trigger)
		default:
			for _, skipped := range lessonTable[next:i] {
				if why, ok := notPlayableYet[skipped.Trigger]; ok {
					t.Logf("row %q has no scenario: %s", skipped.Trigger, why)
				} else {
					t.Errorf("row %q of the lesson's table has no scenario", skipped.Trigger)
				}
			}
			next = i + 1
		}
		if len(sc.Response) == 0 {
			t.Errorf("%s: a failure row needs a response a learner can apply", sc.File)
		}
	}
	for _, skipped := range lessonTable[next:] {
		if _, ok := notPlayableYet[skipped.Trigger]; !ok {
			t.Errorf("row %q of the lesson's table has no scenario", skipped.Trigger)
		}
	}
	for _, id := range scenarios.IDs() {
		if sc := load(t, id); sc.Failure != nil && !slices.Contains(table, id) {
			t.Errorf("%s carries a failure row but is not in scenarios.FailureTable()", sc.File)
		}
	}
}

// TestEveryScenarioReplaysToTheSameDigest plays each bundled scenario to its
// horizon twice: the same seed and inputs must give the same trace.
func TestEveryScenarioReplaysToTheSameDigest(t *testing.T) {
	for _, id := range scenarios.IDs() {
		t.Run(id, func(t *testing.T) {
			sc := load(t, id)
			var digests []string
			var passes []int
			for range 2 {
				s := newSim(t, sc)
				s.RunUntil(s.Until(), 0)
				digests = append(digests, s.Digest())
				passes = append(passes, s.PassCount())
			}
			if digests[0] != digests[1] || passes[0] != passes[1] {
				t.Errorf("%s: two runs gave %d passes, digest %s and %d passes, digest %s", sc.File, passes[0], digests[0], passes[1], digests[1])
			}
		})
	}
}

// holdsThroughout are expects that hold at every moment the test samples,
// on purpose: each asserts that something does not change, which is the
// scenario's point, and a faulty engine would make it change. Anything
// else that holds everywhere cannot fail, and is a defect of the scenario.
var holdsThroughout = map[string][]string{
	// With the scheduler stopped, Pending pods get no event to explain them.
	"controllers-chain": {"event {Reason:FailedScheduling Object: Message: Min:0 Max:0}"},
	// Nothing the learner does by hand changes the wrong desired state.
	"converges-on-the-wrong-thing": {"deployment/web spec.template.spec.containers[0].image == shop/web:0.9"},
	// The edge twin runs seven pods while desired state still says five.
	"edge-vs-level-edge": {"deployment/search spec.replicas == 5"},
	// Deleting a pod changes observed state, never desired state.
	"self-healing": {"deployment/web metadata.generation == 1"},
	// No pod is ever ready: that is the symptom.
	"self-healing-is-not-ha": {"pods{app=api,ready} == 0", "deployment/api status.availableReplicas == 0"},
	// The refused apply changes nothing: generation, selector, labels.
	"immutable-field": {"deployment/web metadata.generation == 1", "deployment/web spec.selector.matchLabels.app == web",
		"deployment/web metadata.labels.app == web", "pods{app=storefront} == 0"},
	// A budget of all of web's pods never allows a disruption: that is the
	// symptom, with or without the drain.
	"drain-waits-on-a-budget": {"poddisruptionbudget/web-pdb status.disruptionsAllowed == 0"},
	// The refused apply stores nothing.
	"webhook-fail-closed": {"deployment/web metadata.generation == 1", "deployment/web spec.template.spec.containers[0].image == shop/web:1.0"},
}

// TestEveryExpectCanFail looks for expects that cannot fail: each must be
// false somewhere among the world at t=0 (manifests stored, nothing run),
// the run at the time of each of the scenario's expects and at its horizon,
// and the run without the scenario's steps at the expect's own time. An
// expect true in all of them does not tell the scenario's story (a typo in
// a label, an event reason that never happens, a bound that always holds).
func TestEveryExpectCanFail(t *testing.T) {
	for _, id := range scenarios.IDs() {
		t.Run(id, func(t *testing.T) {
			sc := load(t, id)
			start := newSim(t, sc)
			// The run at each expect's time and at the horizon.
			var times []api.Duration
			for _, e := range sc.Expect {
				times = append(times, e.At)
			}
			slices.Sort(times)
			times = slices.Compact(times)
			run := newSim(t, sc)
			failsSomewhere := make([]bool, len(sc.Expect))
			for _, at := range append(times, run.Until()) {
				run.RunUntil(at, 0)
				for i, e := range sc.Expect {
					if check.Expect(run, e) != nil {
						failsSomewhere[i] = true
					}
				}
			}
			quiet := *sc
			quiet.Steps = nil
			noSteps := newSim(t, &quiet)
			order := make([]int, len(sc.Expect))
			for i := range order {
				order[i] = i
			}
			sort.SliceStable(order, func(a, b int) bool { return sc.Expect[order[a]].At < sc.Expect[order[b]].At })
			for _, i := range order {
				e := sc.Expect[i]
				noSteps.RunUntil(e.At, 0)
				if failsSomewhere[i] || check.Expect(start, e) != nil || check.Expect(noSteps, e) != nil {
					continue
				}
				if slices.Contains(holdsThroughout[id], describe(e)) {
					continue
				}
				t.Errorf("%s: the expect %s holds at t=0, at every expect's time, at the horizon and without the steps: it cannot fail", e.Pos, describe(e))
			}
		})
	}
}

func describe(e scenario.Expect) string {
	switch {
	case e.Event != nil:
		return fmt.Sprintf("event %+v", *e.Event)
	case e.Output != nil:
		return fmt.Sprintf("output %+v", *e.Output)
	}
	return e.That
}

// TestResponsesConverge applies each scenario's response once its last
// expect has been checked (where the player's "play to the symptom"
// stops), and requires the loop to converge within ten minutes: every
// Deployment observed, fully updated and available, no pod left unready,
// no ReplicaFailure; and the engine says it has converged.
func TestResponsesConverge(t *testing.T) {
	for _, id := range scenarios.IDs() {
		sc := load(t, id)
		if len(sc.Response) == 0 {
			continue
		}
		t.Run(id, func(t *testing.T) {
			respond(t, sc, newSim(t, sc))
		})
	}
}

// respond plays sc to its last expect, applies its response and requires
// the loop to converge within ten minutes.
func respond(t *testing.T, sc *scenario.Scenario, s *sim.Sim) {
	t.Helper()
	var last api.Duration
	for _, e := range sc.Expect {
		last = max(last, e.At)
	}
	s.RunUntil(last, 0)
	for _, st := range sc.Response {
		out, err := s.Inject(st.Input)
		if err != nil {
			t.Fatalf("%s: response %s: %v", st.Pos, out.Command, err)
		}
		if out.ExitCode != 0 {
			t.Errorf("%s: response %s exited %d: %s", st.Pos, out.Command, out.ExitCode, out.Output)
		}
	}
	s.RunUntil(last+10*api.Minute, 0)
	for _, problem := range unconverged(s.Objects()) {
		t.Errorf("%s: 10m after the response: %s", sc.File, problem)
	}
	if ok, why := s.Converged(); !ok {
		t.Errorf("%s: 10m after the response, not converged: %s", sc.File, why)
	}
}

// unconverged lists what keeps a world from being converged.
func unconverged(objs []api.Object) []string {
	var out []string
	for _, o := range objs {
		switch o := o.(type) {
		case *api.Deployment:
			want := api.Deref(o.Spec.Replicas, 1)
			st := o.Status
			if st.ObservedGeneration < o.Generation {
				out = append(out, fmt.Sprintf("deployment/%s: observedGeneration %d < generation %d", o.Name, st.ObservedGeneration, o.Generation))
			}
			if st.Replicas != want || st.UpdatedReplicas != want || st.AvailableReplicas != want {
				out = append(out, fmt.Sprintf("deployment/%s: %d replicas, %d updated, %d available; want %d", o.Name, st.Replicas, st.UpdatedReplicas, st.AvailableReplicas, want))
			}
			for _, c := range st.Conditions {
				switch {
				case c.Type == "Progressing" && c.Reason != "NewReplicaSetAvailable":
					out = append(out, fmt.Sprintf("deployment/%s: Progressing %s %s: %s", o.Name, c.Status, c.Reason, c.Message))
				case c.Type == "Available" && c.Status != "True":
					out = append(out, fmt.Sprintf("deployment/%s: Available %s", o.Name, c.Status))
				case c.Type == "ReplicaFailure":
					out = append(out, fmt.Sprintf("deployment/%s: ReplicaFailure %s %s", o.Name, c.Status, c.Reason))
				}
			}
		case *api.Pod:
			if o.DeletionTimestamp != nil || o.Status.Phase == api.PodSucceeded {
				continue
			}
			ready := false
			for _, c := range o.Status.Conditions {
				if c.Type == "Ready" {
					ready = c.Status == "True"
				}
			}
			if o.Status.Phase != api.PodRunning || !ready {
				out = append(out, fmt.Sprintf("pod/%s: %s, ready %v", o.Name, o.Status.Phase, ready))
			}
		}
	}
	return out
}

// TestSummariesAreOurOwnWords keeps summaries short enough to read before
// a run and free of markup the player would show as text.
func TestSummariesAreOurOwnWords(t *testing.T) {
	for _, id := range scenarios.IDs() {
		sc := load(t, id)
		if n := len(strings.Fields(sc.Summary)); n < 20 || n > 160 {
			t.Errorf("%s: summary of %d words: want one paragraph of 20 to 160", sc.File, n)
		}
		if strings.Contains(sc.Summary, "\n\n") {
			t.Errorf("%s: summary has more than one paragraph", sc.File)
		}
	}
}
