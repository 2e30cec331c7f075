package scenarios_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"reconcile/engine/challenge"
	"reconcile/engine/check"
	"reconcile/engine/controller"
	"reconcile/engine/fault"
	"reconcile/engine/kubectl"
	"reconcile/engine/scenario"
)

// guide is the authoring guide, docs/scenarios.md.
func guide(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../docs/scenarios.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestGuideExampleHolds loads the guide's complete example and checks it,
// so that the example a course author copies works as the guide says.
func TestGuideExampleHolds(t *testing.T) {
	doc := guide(t)
	_, rest, ok := strings.Cut(doc, "<!-- guide-example")
	if !ok {
		t.Fatal("docs/scenarios.md: no <!-- guide-example --> marker")
	}
	_, rest, _ = strings.Cut(rest, "```yaml\n")
	example, _, ok := strings.Cut(rest, "```")
	if !ok {
		t.Fatal("docs/scenarios.md: the example's yaml block is not closed")
	}
	sc, err := scenario.Load("docs/scenarios.md example", []byte(example))
	if err != nil {
		t.Fatal(err)
	}
	res, err := check.Run(sc)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Failures {
		t.Error(f)
	}
	if res.Expects != 5 || !strings.Contains(doc, "(5 expects, digest") {
		t.Errorf("the example has %d expects; the guide's check line says 5", res.Expects)
	}
}

// TestGuideNamesEverything keeps the guide complete: every fault verb,
// kubectl command, controller and top-level field the loader accepts is
// documented.
func TestGuideNamesEverything(t *testing.T) {
	doc := guide(t)
	for _, list := range []struct {
		what  string
		names []string
		form  string
	}{
		{"fault verb", fault.Verbs, "`%s"},
		{"kubectl command", kubectl.Verbs, "`%s"},
		{"rollout subcommand", kubectl.RolloutCommands, "%s"},
		{"controller", controller.Names(), "`%s`"},
		{"top-level field", []string{"id", "title", "summary", "lead", "story", "predict", "seed", "cluster", "manifests", "steps", "response", "expect", "failure", "challenge"}, "`%s`"},
	} {
		for _, name := range list.names {
			if !strings.Contains(doc, strings.Replace(list.form, "%s", name, 1)) {
				t.Errorf("docs/scenarios.md does not document the %s %q", list.what, name)
			}
		}
	}
}

// TestGuideChallengeExampleHolds loads the guide's challenge example,
// checks its expects and proves its challenge, as the guide's check line
// says.
func TestGuideChallengeExampleHolds(t *testing.T) {
	doc := guide(t)
	_, rest, ok := strings.Cut(doc, "<!-- challenge-example")
	if !ok {
		t.Fatal("docs/scenarios.md: no <!-- challenge-example --> marker")
	}
	_, rest, _ = strings.Cut(rest, "```yaml\n")
	example, _, ok := strings.Cut(rest, "```")
	if !ok {
		t.Fatal("docs/scenarios.md: the challenge example's yaml block is not closed")
	}
	sc, err := scenario.Load("keep-five.yaml", []byte(example))
	if err != nil {
		t.Fatal(err)
	}
	res, err := check.Run(sc)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Failures {
		t.Error(f)
	}
	p, err := challenge.Prove(sc)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range p.Failures {
		t.Error(f)
	}
	line := fmt.Sprintf("(%d expects, digest sha256:…; challenge: the solution holds the goal from t=%s, doing nothing does not, %d shortcut caught)",
		res.Expects, check.Duration(p.Solution.Status.Since), len(sc.Challenge.Forbid))
	if p.OK() && !strings.Contains(doc, line) {
		t.Errorf("the guide's check line is not %s", line)
	}
}
