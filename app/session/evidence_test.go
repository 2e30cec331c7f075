package session

import (
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/check"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
	"reconcile/scenarios"
)

// evidenceAt steps a new run of lesson id to t and reads its evidence.
func evidenceAt(t *testing.T, sc *scenario.Scenario, at api.Time) (api.Duration, []EvidenceLine, bool) {
	t.Helper()
	run, err := sim.New(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	run.RunUntil(at, 0)
	return EvidenceNow(run, sc)
}

// TestEvidenceNow checks that a failure lesson's evidence is the
// expectations of the moment the run has reached, no others, each checked
// on the world as it is then.
func TestEvidenceNow(t *testing.T) {
	type line struct {
		text  string
		holds bool
	}
	tests := []struct {
		lesson string
		now    api.Time
		at     api.Duration // the moment shown; 0 with none: before the first
		lines  []line
	}{
		{"stuck-rollout", 30 * api.Second, 0, nil},
		{"stuck-rollout", 1 * api.Minute, 1 * api.Minute, []line{
			{"deployment/web status.availableReplicas == 5", true},
		}},
		// Still the moment of 1m, half a minute into the rollout: four pods
		// available now, so its expectation no longer holds.
		{"stuck-rollout", 1*api.Minute + 45*api.Second, 1 * api.Minute, []line{
			{"deployment/web status.availableReplicas == 5", false},
		}},
		{"stuck-rollout", 2 * api.Minute, 2 * api.Minute, []line{
			{"deployment/web metadata.generation == 2", true},
			{"deployment/web status.observedGeneration == 2", true},
			{"deployment/web status.conditions[type=Progressing].reason == ReplicaSetUpdated", true},
			{"deployment/web status.updatedReplicas == 3", true},
			{"replicasets{app=web} == 2", true},
			{"pods{app=web,phase=Running,!ready} == 3", true},
			{"pods{app=web,ready} == 4", true},
			{`output of "rollout status deployment/web --watch=false" contains "Waiting for deployment \"web\" rollout to finish: 3 out of 5 new replicas have been updated..." and exit code 0`, true},
		}},
		{"stuck-rollout", 3 * api.Minute, 3 * api.Minute, []line{
			{`deployment/web status.conditions[type=Progressing].status == "False"`, true},
			{"deployment/web status.conditions[type=Progressing].reason == ProgressDeadlineExceeded", true},
			{`deployment/web status.conditions[type=Progressing].message contains "has timed out progressing."`, true},
			{`deployment/web status.conditions[type=Available].status == "True"`, true},
			{"deployment/web status.updatedReplicas == 3", true},
			{`output of "rollout status deployment/web" contains "error: deployment \"web\" exceeded its progress deadline" and exit code 1`, true},
			{"pods{app=web,phase=Running,!ready} == 3", true},
			{`event reason Unhealthy, on pod/web-*, message containing "Readiness probe failed", at least 20`, true},
			{`output of "get pods" contains "0/1     Running"`, true},
		}},
		{"edit-reverts", 50 * api.Second, 50 * api.Second, []line{
			{`output of "scale deployment/web" contains "deployment.apps/web scaled" and exit code 0`, true},
			{"deployment/web spec.replicas == 5", true},
			{"deployment/web metadata.generation == 2", true},
			{"pods{app=web,ready} == 5", true},
			{`output of "get deployment web" contains "5/5"`, true},
		}},
		// Still the moment of 50s, after the sync at 1m reverted the edit:
		// the world no longer shows it.
		{"edit-reverts", 1*api.Minute + 5*api.Second, 50 * api.Second, []line{
			{`output of "scale deployment/web" contains "deployment.apps/web scaled" and exit code 0`, true},
			{"deployment/web spec.replicas == 5", false},
			{"deployment/web metadata.generation == 2", false},
			{"pods{app=web,ready} == 5", false},
			{`output of "get deployment web" contains "5/5"`, true},
		}},
		{"edit-reverts", 1*api.Minute + 10*api.Second, 1*api.Minute + 10*api.Second, []line{
			{"deployment/web spec.replicas == 3", true},
			{"deployment/web metadata.generation == 3", true},
			{"pods{app=web,!terminating} == 3", true},
			{`event reason ScalingReplicaSet, on deployment/web, message containing "Scaled down replica set web-", exactly 1`, true},
			{"event reason SuccessfulDelete, on replicaset/web-*, exactly 2", true},
			{`output of "get deployment web" contains "3/3"`, true},
		}},
		{"edit-reverts", 1*api.Minute + 40*api.Second, 1*api.Minute + 40*api.Second, []line{
			{"deployment/web spec.replicas == 3", true},
			{"deployment/web metadata.generation == 5", true},
			{`event reason ScalingReplicaSet, on deployment/web, message containing "Scaled down replica set web-", exactly 2`, true},
			{`event reason ScalingReplicaSet, on deployment/web, message containing "Scaled up replica set web-", exactly 3`, true},
		}},
	}
	for _, tt := range tests {
		sc, err := scenarios.Load(tt.lesson)
		if err != nil {
			t.Fatal(err)
		}
		at, lines, ok := evidenceAt(t, sc, tt.now)
		if ok != (tt.lines != nil) || at != tt.at {
			t.Errorf("%s at t=%s: moment %s (ok %v), want %s (ok %v)", tt.lesson, tt.now, at, ok, tt.at, tt.lines != nil)
			continue
		}
		if len(lines) != len(tt.lines) {
			t.Errorf("%s at t=%s: %d lines, want %d: %+v", tt.lesson, tt.now, len(lines), len(tt.lines), lines)
			continue
		}
		for i, l := range lines {
			w := tt.lines[i]
			if l.Text != w.text || l.Holds != w.holds {
				t.Errorf("%s at t=%s, line %d: %q holds %v (got %q), want %q holds %v", tt.lesson, tt.now, i, l.Text, l.Holds, l.Got, w.text, w.holds)
			}
			if l.Holds != (l.Got == "") {
				t.Errorf("%s at t=%s, line %d: holds %v with got %q", tt.lesson, tt.now, i, l.Holds, l.Got)
			}
		}
	}
}

// noWorld is a world with nothing in it, where every expectation that
// asks for something fails, and check says it in its words.
type noWorld struct{}

func (noWorld) Objects() []api.Object { return nil }
func (noWorld) Events() []*api.Event  { return nil }
func (noWorld) Outputs() []sim.Output { return nil }

// TestEvidenceTextIsCheckText: an expectation reads the same in the
// evidence as in check's failures, for every bundled lesson.
func TestEvidenceTextIsCheckText(t *testing.T) {
	compared := 0
	for _, id := range scenarios.IDs() {
		sc, err := scenarios.Load(id)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range sc.Expect {
			f := check.Expect(noWorld{}, e)
			if f == nil {
				continue // holds on an empty world: nothing to compare
			}
			compared++
			if got := expectText(e); got != f.What && !(e.That != "" && e.Assertion != nil && f.What == e.Assertion.Text) {
				t.Errorf("%s: %s: evidence reads %q, check %q", id, e.Pos, got, f.What)
			}
		}
	}
	if compared == 0 {
		t.Error("no expectation compared")
	}
}
