package session_test

import (
	"strings"
	"testing"

	"reconcile/app/session"
	"reconcile/engine/api"
)

var web = api.Ref{Kind: "Deployment", Namespace: "default", Name: "web"}

// opened lists what was opened as "What via Line".
func opened(c *session.Challenge) []string {
	var out []string
	for _, o := range c.Opened() {
		out = append(out, []string{"generation", "conditions", "events"}[o.What]+" "+o.Ref.Kind+"/"+o.Ref.Name)
	}
	return out
}

// The hint offered follows the questions and points at the evidence not
// opened yet: before anything, the desired one, pointing at the
// generations; with kubectl get -o yaml read (generations and conditions
// open), the events'; with the events read too, the first question not
// answered, the hint reading what was opened, and where.
func TestHintPointsAtEvidenceNotOpened(t *testing.T) {
	_, _, s, c := openChallenge(t, "stuck-rollout")
	if l, ok := c.NextHint(); !ok || l != session.HintDesired {
		t.Fatalf("first: %d %v", l, ok)
	}
	if p := c.Pointer(session.HintDesired); p != "You have not looked at deployment/web's metadata.generation beside its status.observedGeneration yet: select it in the cluster and read the inspector's first question, or run kubectl get deployment web -o yaml." {
		t.Errorf("pointer before: %q", p)
	}
	s.Ran(c, "get deploy web -o yaml", 0)
	if l, _ := c.NextHint(); l != session.HintEvents {
		t.Errorf("with -o yaml read: %d, want the events'", l)
	}
	if p := c.Pointer(session.HintDesired); p != "You have seen deployment/web's generations with kubectl get deploy web -o yaml: compare metadata.generation with status.observedGeneration." {
		t.Errorf("pointer after: %q", p)
	}
	s.Ran(c, "get events --field-selector involvedObject.name=web", 0)
	if l, _ := c.NextHint(); l != session.HintDesired {
		t.Errorf("with everything open: %d, want the first question's", l)
	}
	if p := c.Pointer(session.HintEvents); !strings.HasPrefix(p, "You have read the events about deployment/web with kubectl get events --field-selector involvedObject.name=web") {
		t.Errorf("events pointer: %q", p)
	}
	if got := strings.Join(opened(c), "; "); got != "generation Deployment/web; conditions Deployment/web; events /web" {
		t.Errorf("opened: %s", got)
	}
}

// kubectl events --for opens the events of the object it names, where the
// pointer says it was read; without --for, every object's.
func TestHintEventsCommand(t *testing.T) {
	_, _, s, c := openChallenge(t, "stuck-rollout")
	s.Ran(c, "events --for deploy/web", 0)
	if p := c.Pointer(session.HintEvents); !strings.HasPrefix(p, "You have read the events about deployment/web with kubectl events --for deploy/web") {
		t.Errorf("events pointer: %q", p)
	}
	s.Ran(c, "events --for pod/other", 0)
	s.Ran(c, "events --for deploy/web --types=Bad", 1)
	if got := strings.Join(opened(c), "; "); got != "events Deployment/web; events Pod/other" {
		t.Errorf("opened: %s", got)
	}
}

// Answered right, a question's hint is passed over for one whose evidence
// is not open; the inspector opens all three; taking hints keeps them
// recorded, and a try again keeps both the hints and what was opened.
func TestHintFollowsTheAnswers(t *testing.T) {
	sc, data, s, c := openChallenge(t, "stuck-rollout")
	s.AnswerController(c, "deployment-controller")
	s.AnswerSeen(c, web, true)
	if l, _ := c.NextHint(); l != session.HintConditions {
		t.Errorf("questions 1 and 2 right: %d, want the conditions'", l)
	}
	s.AnswerSeen(c, web, false) // answered wrong since: the desired hint again
	if l, _ := c.NextHint(); l != session.HintDesired {
		t.Errorf("question 2 wrong: %d", l)
	}
	s.Inspected(c, web)
	if got := strings.Join(opened(c), "; "); got != "generation Deployment/web; conditions Deployment/web; events Deployment/web" {
		t.Errorf("inspected: %s", got)
	}
	if p := c.Pointer(session.HintConditions); !strings.HasPrefix(p, "You have opened deployment/web's conditions in the inspector") {
		t.Errorf("pointer: %q", p)
	}
	c.TakeHint(session.HintDesired)
	if l, _ := c.NextHint(); l != session.HintConditions {
		t.Errorf("desired taken, all open: %d", l)
	}
	next, err := session.NewChallenge(sc, data)
	if err != nil {
		t.Fatal(err)
	}
	next.KeepHints(c)
	if got := next.HintsTaken(); len(got) != 1 || got[0] != "desired" || len(next.Opened()) != 3 {
		t.Errorf("kept: %q, %d opened", got, len(next.Opened()))
	}
}

// What each command shows: describe the conditions and the events,
// rollout status the generations and the conditions, jsonpath what it
// names; a command that failed, another object, a table or help show
// nothing of the Deployment.
func TestHintEvidenceOfCommands(t *testing.T) {
	for _, tt := range []struct {
		line string
		code int
		want string
	}{
		{"describe deployment/web", 0, "conditions Deployment/web; events Deployment/web"},
		{"rollout status deploy web", 0, "generation Deployment/web; conditions Deployment/web"},
		{"get deployment web -o jsonpath={.status.observedGeneration}", 0, "generation Deployment/web"},
		{"get deploy,rs -o json", 0, "generation Deployment/; conditions Deployment/; generation ReplicaSet/; conditions ReplicaSet/"},
		{"get ev", 0, "events /"},
		{"get deploy web -o yaml", 1, ""},
		{"get deploy api -o yaml", 0, "generation Deployment/api; conditions Deployment/api"},
		{"get deploy web", 0, ""},
		{"describe deployment --help", 0, ""},
	} {
		_, _, s, c := openChallenge(t, "stuck-rollout")
		s.Ran(c, tt.line, tt.code)
		if got := strings.Join(opened(c), "; "); got != tt.want {
			t.Errorf("%s (exit %d): %q, want %q", tt.line, tt.code, got, tt.want)
		}
	}
	// Another Deployment's evidence is not the Deployment's.
	_, _, s, c := openChallenge(t, "stuck-rollout")
	s.Ran(c, "get deploy api -o yaml", 0)
	if l, _ := c.NextHint(); l != session.HintDesired || !strings.HasPrefix(c.Pointer(session.HintDesired), "You have not looked") {
		t.Errorf("another object's: %d %q", l, c.Pointer(session.HintDesired))
	}
}
