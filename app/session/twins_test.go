package session

import (
	"testing"

	"reconcile/engine/scenario"
	"reconcile/scenarios"
)

// mustLoad loads the bundled scenario id.
func mustLoad(t *testing.T, id string) *scenario.Scenario {
	t.Helper()
	sc, err := scenarios.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// Each demonstration does to the edge-triggered twin what the lesson's
// comments say it does, and the level-triggered twin converges anyway.
func TestTwinsShowWhatTheLessonsCommentsSay(t *testing.T) {
	sc := mustLoad(t, "edge-vs-level")
	for _, d := range Demonstrations {
		t.Run(d.Name, func(t *testing.T) {
			tw, err := NewTwins(sc)
			if err != nil {
				t.Fatal(err)
			}
			if err := tw.Give(d); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 10000 && tw.Step(); i++ {
			}
			level, edge, want := activePods(tw.level), activePods(tw.edge), wantedPods(tw.level)
			if level != want {
				t.Errorf("the level-triggered twin runs %d pods of %d", level, want)
			}
			switch {
			case d.Name == "twice" && edge <= want:
				t.Errorf("handled twice, the edge-triggered twin runs %d pods of %d, want more", edge, want)
			case d.Name != "twice" && edge >= want:
				t.Errorf("%s: the edge-triggered twin runs %d pods of %d, want fewer", d.Name, edge, want)
			}
			if tw.diverged == nil || tw.diverged.At < settleAt {
				t.Errorf("first divergence = %+v, want one after the inputs at %s", tw.diverged, settleAt)
			}
		})
	}
}
