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
	_, res := loadChecked(t, "docs/scenarios.md example", []byte(example))
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

// TestGuideWalkthrough holds the guide's walk through writing a challenge
// to its file and to what the tools say: the block the guide shows is
// docs/examples/typo-tag.yaml, the file checks and its challenge proves
// with the check line the guide prints, and each mistake the guide shows
// is reported as it says, at its line and column.
func TestGuideWalkthrough(t *testing.T) {
	const path = "docs/examples/typo-tag.yaml"
	doc := guide(t)
	_, rest, ok := strings.Cut(doc, "<!-- example-file: "+path)
	if !ok {
		t.Fatal("docs/scenarios.md: no <!-- example-file: " + path + " --> marker")
	}
	_, rest, _ = strings.Cut(rest, "```yaml\n")
	shown, _, ok := strings.Cut(rest, "```")
	if !ok {
		t.Fatal("docs/scenarios.md: the walkthrough's yaml block is not closed")
	}
	file, err := os.ReadFile("../" + path)
	if err != nil {
		t.Fatal(err)
	}
	if shown != string(file) {
		t.Fatalf("docs/scenarios.md shows another text than %s: copy the file into the guide", path)
	}
	sc, res := loadChecked(t, path, file)
	p, err := challenge.Prove(sc)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range p.Failures {
		t.Error(f)
	}
	if !p.OK() {
		return
	}
	line := fmt.Sprintf("# ok  %s  (%d expects, digest %s; challenge: the solution holds the goal from t=%s, doing nothing does not, %d shortcut caught)",
		path, res.Expects, res.Digest[:len("sha256:")+12], check.Duration(p.Solution.Status.Since), p.Shortcuts)
	if !strings.Contains(doc, line) {
		t.Errorf("the guide's check line is not\n%s", line)
	}
	// The mistakes, each as the guide shows it.
	mistake := func(old, new string) (*scenario.Scenario, error) {
		t.Helper()
		text := strings.Replace(string(file), old, new, 1)
		if text == string(file) {
			t.Fatalf("%q is not in %s", old, path)
		}
		return scenario.Load("typo-tag.yaml", []byte(text))
	}
	_, err = mistake(`    conditions: "web is still`, `    condition: "web is still`)
	if err == nil {
		t.Fatal("a misspelt hint loads")
	}
	for _, l := range strings.Split(err.Error(), "\n") {
		if !strings.Contains(doc, "\n"+l+"\n") {
			t.Errorf("the guide does not show the loader's line\n%s", l)
		}
	}
	for _, m := range []struct {
		old, new, prefix string
		whole            bool // the guide shows the whole line
	}{
		{`kubectl: "set image deployment/web web=shop/web:1.0"}`, `kubectl: "rollout restart deployment/web"}`,
			"typo-tag.yaml:42:3: challenge.solution does not solve the challenge: out of time", true},
		{`try: {kubectl: "delete pods -l app=web"}`, `try: {kubectl: "delete deployment web"}`,
			"typo-tag.yaml:54:10: challenge.forbid[0].try is not caught: ", false},
	} {
		sc, err := mistake(m.old, m.new)
		if err != nil {
			t.Fatal(err)
		}
		p, err := challenge.Prove(sc)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Failures) != 1 || !strings.HasPrefix(p.Failures[0].Error(), m.prefix) {
			t.Fatalf("%s: %v", m.new, p.Failures)
		}
		shown := m.prefix
		if m.whole {
			shown = "\n" + p.Failures[0].Error() + "\n"
		}
		if !strings.Contains(doc, shown) {
			t.Errorf("the guide does not show %q", shown)
		}
	}
}

// loadChecked loads a scenario and reports every expect reconcile check
// finds failing.
func loadChecked(t *testing.T, name string, text []byte) (*scenario.Scenario, *check.Result) {
	t.Helper()
	sc, err := scenario.Load(name, text)
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
	return sc, res
}
