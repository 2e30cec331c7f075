package scenario

import (
	"strings"
	"testing"

	"reconcile/engine/api"
)

const challengeBase = `id: web
cluster: {gitops: {interval: 30s}}
expect:
- {at: 1m, that: "deployment/web spec.replicas == 3"}
challenge:
  start: symptom
  goal: ["deployment/web spec.replicas == 5"]
  hold: 30s
  forbid:
  - {edit: deployment/web, message: "change it at its source", try: {kubectl: "scale deployment/web --replicas=5"}}
  hints: {desired: "d", conditions: "c", events: "e"}
  solution:
  - {at: 1m10s, kubectl: "scale deployment/web --replicas=5"}
`

func TestLoadChallenge(t *testing.T) {
	sc, err := Load("web.yaml", []byte(challengeBase))
	if err != nil {
		t.Fatal(err)
	}
	c := sc.Challenge
	if c == nil || c.Start != api.Minute || c.StartText != "symptom" || c.Hold != 30*api.Second || len(c.Goal) != 1 || c.Goal[0].Assertion == nil {
		t.Fatalf("challenge: %+v", c)
	}
	if f := c.Forbid[0]; f.Action != ForbidEdit || f.Kind != "Deployment" || f.Name != "web" || f.Try.At != api.Minute || f.Try.Pos.Line != 10 {
		t.Errorf("forbid: %+v", f)
	}
	if c.Hints.Desired != "d" || c.Hints.Events != "e" || len(c.Solution) != 1 || c.Solution[0].At != 70*api.Second {
		t.Errorf("hints and solution: %+v", c)
	}
	// The challenge adds nothing to the lesson's run.
	plain, err := Load("web.yaml", []byte(strings.Split(challengeBase, "challenge:")[0]))
	if err != nil {
		t.Fatal(err)
	}
	if a, b := sc.Config(), plain.Config(); len(a.Steps) != len(b.Steps) || a.Until != b.Until {
		t.Errorf("config changed by the challenge: %+v vs %+v", a, b)
	}
}

func TestLoadChallengeErrors(t *testing.T) {
	tests := []struct{ name, old, new, want string }{
		{"unknown field", "  hold: 30s\n", "  hold: 30s\n  hodl: 1m\n", `web.yaml:9:3: unknown field "hodl" in challenge; expected one of start, goal, hold, within, failedRequests, forbid, hints, solution, why, questions`},
		{"bad goal", `["deployment/web spec.replicas == 5"]`, `["deployment/web spec.replicas = 5"]`, `web.yaml:7:40: challenge.goal[0]: unknown operator "=": want one of == != < <= > >= contains`},
		{"traffic since the start", `["deployment/web spec.replicas == 5"]`, `["traffic.failed == 0"]`, "web.yaml:7:10: challenge.goal[0]: a goal holds now: count the traffic over a window that ends now, e.g. traffic(10s).failed == 0"},
		{"no hold", "  hold: 30s\n", "", "web.yaml:6:3: challenge.hold: Required value: how long the goal must keep holding, e.g. hold: 30s"},
		{"within too short", "  hold: 30s\n", "  hold: 30s\n  within: 10s\n", "web.yaml:9:11: challenge.within: 10s leaves no time: it must be longer than hold (30s)"},
		{"budget without traffic", "  hold: 30s\n", "  hold: 30s\n  failedRequests: 0\n", "web.yaml:9:19: challenge.failedRequests: the scenario sends no traffic"},
		{"unknown kind", "edit: deployment/web", "edit: deploymnt/web", `web.yaml:10:12: challenge.forbid[0].edit: "deploymnt/web": want a kind, or kind/name, e.g. deployment/web or node`},
		{"unknown fault", `edit: deployment/web`, `fault: node-upp`, `web.yaml:10:13: challenge.forbid[0].fault: "node-upp": want a fault verb: node-down, node-up`},
		{"no message", `, message: "change it at its source"`, "", "web.yaml:10:5: challenge.forbid[0].message: Required value: why this is not the lesson's answer"},
		{"no try", `, try: {kubectl: "scale deployment/web --replicas=5"}`, "", "web.yaml:10:5: challenge.forbid[0].try: Required value"},
		{"missing hint", `events: "e"`, `event: "e"`, `web.yaml:11:42: unknown field "event" in challenge.hints`},
		{"solution before the start", "at: 1m10s", "at: 50s", "web.yaml:13:5: challenge.solution[0].at: 50s is before the challenge starts (1m0s)"},
		{"budget without max", "  hold: 30s\n", "  hold: 30s\n  failedRequests: {message: m, try: [{kubectl: \"delete deployment web\"}]}\n", "web.yaml:9:19: challenge.failedRequests.max: Required value: how many requests may fail, e.g. max: 0"},
		{"budget field misspelt", "  hold: 30s\n", "  hold: 30s\n  failedRequests: {max: 0, tries: []}\n", `web.yaml:9:28: unknown field "tries" in challenge.failedRequests; expected one of max, message, try`},
		{"budget without try", "  hold: 30s\n", "  hold: 30s\n  failedRequests: {max: 0}\n", "web.yaml:9:19: challenge.failedRequests.try: Required value: inputs that go over the budget"},
		{"budget try before the start", "  hold: 30s\n", "  hold: 30s\n  failedRequests: {max: 0, try: [{at: 5s, kubectl: \"delete deployment web\"}]}\n", "web.yaml:9:34: challenge.failedRequests.try[0].at: 5s is before the challenge starts (1m0s)"},
		{"negative budget", "  hold: 30s\n", "  hold: 30s\n  failedRequests: {max: -1, try: [{kubectl: \"delete deployment web\"}]}\n", "web.yaml:9:25: challenge.failedRequests.max: must be 0 or more"},
		{"bad kubectl", `kubectl: "scale deployment/web --replicas=5"}` + "\n", `kubectl: "scale deployment/web --replica=5"}` + "\n", "web.yaml:13:26: challenge.solution[0].kubectl: unknown flag: --replica"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := strings.Replace(challengeBase, tt.old, tt.new, 1)
			if text == challengeBase {
				t.Fatalf("%q not in the base", tt.old)
			}
			_, err := Load("web.yaml", []byte(text))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v\nwant %s", err, tt.want)
			}
		})
	}
}

const questionsBase = `  questions:
    controller: deployment-controller
    object: deployment/web
    says: {condition: Progressing, reason: ProgressDeadlineExceeded}
`

func TestLoadChallengeQuestions(t *testing.T) {
	text := strings.Replace(challengeBase, "  solution:\n", questionsBase+"  solution:\n", 1)
	sc, err := Load("web.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	q := sc.Challenge.Questions
	if q == nil || q.Controller != "deployment-controller" || q.Kind != "Deployment" || q.Name != "web" || q.Object != "deployment/web" ||
		q.Says != (Says{Pos: q.Says.Pos, Condition: "Progressing", Reason: "ProgressDeadlineExceeded"}) || q.ObjectPos.Line != 14 || q.Says.Pos.Line != 15 {
		t.Fatalf("questions: %+v", q)
	}
	tests := []struct{ name, old, new, want string }{
		{"an event", "{condition: Progressing, reason: ProgressDeadlineExceeded}", "{event: FailedScheduling}", ""},
		{"unknown field", "    object: deployment/web\n", "    object: deployment/web\n    objet: x\n", `web.yaml:15:5: unknown field "objet" in challenge.questions; expected one of controller, object, says`},
		{"no controller", "    controller: deployment-controller\n", "", "web.yaml:13:5: challenge.questions.controller: Required value: the controller responsible for closing the gap"},
		{"not an object", "object: deployment/web", "object: web", `web.yaml:14:13: challenge.questions.object: invalid object "web": want KIND/NAME`},
		{"a pattern", "object: deployment/web", "object: deployment/web-*", `web.yaml:14:13: challenge.questions.object: "deployment/web-*": name one object, not a pattern`},
		{"both", "{condition: Progressing, reason: ProgressDeadlineExceeded}", "{condition: Progressing, event: FailedScheduling}", "web.yaml:15:11: challenge.questions.says: want exactly one of condition, event; got condition and event"},
		{"an event's reason", "{condition: Progressing, reason: ProgressDeadlineExceeded}", "{event: FailedScheduling, reason: x}", "web.yaml:15:45: challenge.questions.says.reason: an event is named by its reason"},
		{"says misspelt", "{condition: Progressing, reason: ProgressDeadlineExceeded}", "{conditon: Progressing}", `web.yaml:15:12: unknown field "conditon" in challenge.questions.says`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bad := strings.Replace(text, tt.old, tt.new, 1)
			if bad == text {
				t.Fatalf("%q not in the base", tt.old)
			}
			_, err := Load("web.yaml", []byte(bad))
			if tt.want == "" {
				if err != nil {
					t.Errorf("got %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v\nwant %s", err, tt.want)
			}
		})
	}
}

// A challenge may withhold a step of the lesson, its own fix: the
// challenge's run goes without it, the lesson's keeps it, and a step the
// lesson does not have is refused at its place.
func TestChallengeWithhold(t *testing.T) {
	const withheld = `id: web
steps:
- {at: 30s, kubectl: "scale deployment/web --replicas=5"}
- {at: 1m, kubectl: "scale deployment/web --replicas=3"}
expect:
- {at: 50s, that: "deployment/web spec.replicas == 5"}
challenge:
  start: 40s
  withhold:
  - {at: 1m, kubectl: "scale deployment/web --replicas=3"}
  goal: ["deployment/web spec.replicas == 3"]
  hold: 30s
  hints: {desired: "d", conditions: "c", events: "e"}
  solution:
  - {at: 40s, kubectl: "scale deployment/web --replicas=3"}
`
	sc, err := Load("web.yaml", []byte(withheld))
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Challenge.Withhold) != 1 || len(sc.Config().Steps) != 2 {
		t.Fatalf("withhold %+v; the lesson's steps %+v", sc.Challenge.Withhold, sc.Config().Steps)
	}
	ch := sc.ForChallenge()
	if steps := ch.Config().Steps; len(steps) != 1 || steps[0].At != 30*api.Second {
		t.Errorf("the challenge's run has the steps %+v, want the one at 30s", steps)
	}
	if len(sc.Steps) != 2 || ch.ForChallenge() != ch {
		t.Errorf("ForChallenge changed the lesson, or is not its own ForChallenge")
	}
	for _, tt := range []struct{ old, new, want string }{
		{`{at: 1m, kubectl: "scale deployment/web --replicas=3"}` + "\n  goal", `{at: 1m, kubectl: "scale deployment/web --replicas=4"}` + "\n  goal",
			`web.yaml:10:5: challenge.withhold[0]: the lesson has no step at 1m0s: kubectl scale deployment/web --replicas=4: write a step of its steps, as it is written there`},
		{`{at: 1m, kubectl: "scale deployment/web --replicas=3"}` + "\n  goal", `{at: 30s, kubectl: "scale deployment/web --replicas=5"}` + "\n  goal",
			`web.yaml:10:5: challenge.withhold[0].at: 30s is before the challenge starts (40s)`},
	} {
		_, err := Load("web.yaml", []byte(strings.Replace(withheld, tt.old, tt.new, 1)))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s:\ngot  %v\nwant %s", tt.new, err, tt.want)
		}
	}
}
