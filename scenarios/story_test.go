package scenarios_test

import (
	"reflect"
	"regexp"
	"strings"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
	"reconcile/scenarios"
)

// askedPasses names, for each lesson that asks the learner to predict, the
// controller of the pass each prediction is about, in the file's order.
// A change to the engine that moves a pass shows here before it makes a
// lesson ask about the wrong pass.
var askedPasses = map[string][]string{
	"apply-is-not-running":      {"deployment-controller"},
	"node-dies-at-3am":          {"node-lifecycle-controller", "replicaset-controller"},
	"edge-vs-level":             {"replicaset-controller"},
	"edge-vs-level-edge":        {"deployment-controller"},
	"edit-reverts":              {"gitops"},
	"pending-pods":              {"default-scheduler"},
	"stuck-rollout":             {"deployment-controller"},
	"stale-tag":                 {"deployment-controller"},
	"rollback-is-desired-state": {"deployment-controller"},
	"self-healing-is-not-ha":    {"kubelet", "replicaset-controller"},
	"two-controllers-fight":     {"gitops"},

	// The autoscaler's lessons.
	"two-controllers-own-replicas":           {"gitops", "horizontal-pod-autoscaler"},
	"an-autoscaler-reconciles-one-dimension": {"horizontal-pod-autoscaler", "deployment-controller"},
	"the-chains-last-link":                   {"endpointslice-controller"},
}

// TestEveryLessonTellsItsStory checks the text a lesson page reveals as the
// run goes: one line before the run, a story of three to seven moments
// that all fall within the run, and predictions that each have a pass to
// ask about before the run ends, the pass askedPasses names.
func TestEveryLessonTellsItsStory(t *testing.T) {
	for _, id := range scenarios.IDs() {
		t.Run(id, func(t *testing.T) {
			_, data, _ := scenarios.File(id)
			sc := load(t, id)
			if !regexp.MustCompile(`(?m)^lead:`).Match(data) || sc.Lead == "" {
				t.Errorf("%s: no lead: write the one line shown before the run", sc.File)
			}
			if n := len(sc.Story); n < 3 || n > 7 {
				t.Errorf("%s: a story of %d moments: want 3 to 7", sc.File, n)
			}
			end := sc.Horizon()
			for _, m := range sc.Story {
				if m.At > end {
					t.Errorf("%s: moment at %s, after the end of the run at %s", m.Pos, m.At, end)
				}
			}

			var asked []string
			for _, p := range sc.Predict {
				pass, ok := passFrom(t, sc, p.At)
				if !ok {
					t.Errorf("%s: predict at %s: no pass before the end of the run at %s", p.Pos, p.At, end)
					continue
				}
				asked = append(asked, pass.Controller)
			}
			if want := askedPasses[id]; !reflect.DeepEqual(asked, want) {
				t.Errorf("%s: the predictions ask about passes of %q, want %q", sc.File, asked, want)
			}
		})
	}
	if len(askedPasses) < 6 {
		t.Errorf("%d lessons ask the learner to predict: want at least 6", len(askedPasses))
	}
}

// passFrom plays a run of sc to the first pass at or after at, the pass a
// page asks about; false when the run ends first.
func passFrom(t *testing.T, sc *scenario.Scenario, at api.Duration) (sim.Pass, bool) {
	t.Helper()
	s := newSim(t, sc)
	for {
		p, ok := s.Next()
		if !ok || p.At >= at {
			return p, ok
		}
	}
}

// lessonText matches the lines of a lesson's lead, story and predict:
// the key at the start of a line and what is indented or listed under it.
var lessonText = regexp.MustCompile(`(?m)^(lead|story|predict):.*\n(([ -].*)?\n)*`)

// TestLessonTextLeavesTheRunAlone loads every lesson with and without its
// lead, story and predict (blanked, so that every other line keeps its
// number) and requires the same run: the same Config, and the same digest
// after the same passes at the end of the run.
func TestLessonTextLeavesTheRunAlone(t *testing.T) {
	for _, id := range scenarios.IDs() {
		t.Run(id, func(t *testing.T) {
			name, data, _ := scenarios.File(id)
			bare := lessonText.ReplaceAllStringFunc(string(data), func(s string) string {
				return strings.Repeat("\n", strings.Count(s, "\n"))
			})
			told := load(t, id)
			plain, err := scenario.Load(name, []byte(bare))
			if err != nil {
				t.Fatal(err)
			}
			if len(told.Story) == 0 || len(plain.Story) != 0 || len(plain.Predict) != 0 {
				t.Fatalf("%s: stripping the text left %d moments and %d predictions of %d and %d",
					name, len(plain.Story), len(plain.Predict), len(told.Story), len(told.Predict))
			}
			if !reflect.DeepEqual(told.Config(), plain.Config()) {
				t.Fatalf("%s: the lesson's text changes its Config", name)
			}
			var digests []string
			var passes []int
			for _, sc := range []*scenario.Scenario{told, plain} {
				s := newSim(t, sc)
				s.RunUntil(s.Until(), 0)
				digests = append(digests, s.Digest())
				passes = append(passes, s.PassCount())
			}
			if digests[0] != digests[1] || passes[0] != passes[1] {
				t.Errorf("%s: with its text %d passes, digest %s; without %d passes, digest %s",
					name, passes[0], digests[0], passes[1], digests[1])
			}
		})
	}
}
