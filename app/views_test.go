package app

import (
	"slices"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/engine/api"
	"reconcile/engine/fault"
	"reconcile/engine/scenario"
	"reconcile/scenarios"
)

// stuckRollout is a failure-table lesson written for the tests: a new image
// never becomes ready, the rollout passes its deadline, and the response
// rolls back.
const stuckRollout = `id: test-stuck-rollout
title: A rollout that never finishes
summary: The new pods never become ready.
seed: 3
cluster:
  images:
  - {ref: "shop/web:1.0"}
  - {ref: "shop/web:2.0", ready: false}
manifests: |
  apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: web
  spec:
    replicas: 3
    progressDeadlineSeconds: 60
    selector:
      matchLabels: {app: web}
    template:
      metadata:
        labels: {app: web}
      spec:
        containers:
        - name: web
          image: shop/web:1.0
          readinessProbe: {httpGet: {path: /healthz, port: 8080}}
steps:
- {at: 30s, kubectl: "set image deployment/web web=shop/web:2.0"}
response:
- {kubectl: "rollout undo deployment/web"}
expect:
- {at: 3m, that: "deployment/web status.conditions[type=Progressing].reason == ProgressDeadlineExceeded"}
failure:
  trigger: Deployment stuck part-way
  symptom: Progressing becomes False, reason ProgressDeadlineExceeded
  cause: New pods never became ready
  response: Read the new ReplicaSet's pods, not the Deployment
`

func loadInline(t *testing.T, text string) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Load("inline.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// playerOf opens a player on sc as if it were bundled.
func playerOf(t *testing.T, sc *scenario.Scenario) *Player {
	t.Helper()
	p := &Player{id: sc.ID, sc: sc, speed: defaultSpeed}
	ses, err := newSession(sc)
	if err != nil {
		t.Fatal(err)
	}
	p.ses = ses
	p.refresh()
	return p
}

// replayFailure plays a failure lesson to its symptom, checks that the
// expectations of that moment hold and the evidence is inspected, applies
// the response and runs until the loop converges.
func replayFailure(t *testing.T, sc *scenario.Scenario) {
	t.Helper()
	p := playerOf(t, sc)
	var ctx app.Context
	p.playToSymptom(ctx)
	if p.alert != "" || !p.atSymptom {
		t.Fatalf("%s: playing to the symptom: alert %q", sc.ID, p.alert)
	}
	at := symptomAt(sc)
	objs := p.ses.run.Objects()
	for _, e := range sc.Expect {
		if e.Assertion == nil || e.At != at {
			continue
		}
		if got, ok := e.Assertion.Eval(objs); !ok {
			t.Errorf("%s at the symptom (pass %d, t=%s): %s: %s", sc.ID, p.view.n, p.view.now, e.That, got)
		}
	}
	if p.selected == (api.Ref{}) {
		t.Errorf("%s: no evidence selected in the inspector", sc.ID)
	}
	html := app.HTMLString(p.Render())
	for _, want := range []string{"This is the symptom", sc.Failure.Symptom, ">Apply the response</button>"} {
		if !strings.Contains(html, want) {
			t.Errorf("%s at the symptom: the page lacks %q", sc.ID, want)
		}
	}
	before, convergedBefore := p.ses.run.Now(), p.view.converged
	p.applyResponse(ctx)
	if p.alert != "" || !p.responded {
		t.Fatalf("%s: applying the response: alert %q", sc.ID, p.alert)
	}
	if now := p.ses.run.Now(); now < before {
		t.Errorf("%s: applying the response moved the clock back from %s to %s", sc.ID, before, now)
	}
	if p.view.converged && !convergedBefore {
		t.Errorf("%s: converged the moment the response was applied, before any pass", sc.ID)
	}
	for i := 0; i < 20000 && !p.view.converged && !p.view.atEnd; i++ {
		p.next(ctx)
	}
	if !p.view.converged {
		t.Errorf("%s: the response did not converge (pass %d, t=%s)", sc.ID, p.view.n, p.view.now)
	}
	if html := app.HTMLString(p.Render()); !strings.Contains(html, "Converged: the loop has nothing left to do.") {
		t.Errorf("%s: the page does not say it converged", sc.ID)
	}
}

func TestAFailureLessonReplaysToItsSymptomAndItsResponseConverges(t *testing.T) {
	replayFailure(t, loadInline(t, stuckRollout))
}

func TestEveryBundledFailureRowReplaysAndConverges(t *testing.T) {
	rows := failureRows()
	for _, r := range rows {
		t.Run(r.id, func(t *testing.T) {
			sc, err := scenarios.Load(r.id)
			if err != nil {
				t.Fatal(err)
			}
			replayFailure(t, sc)
		})
	}
	if len(rows) == 0 {
		t.Log("no bundled lesson has a failure row yet")
	}
}

func TestFailuresTableFollowsTheLessonsOrder(t *testing.T) {
	rows := failureRows()
	table := scenarios.FailureTable()
	for i, r := range rows {
		if i < len(table) && r.id != table[i] {
			t.Errorf("row %d plays %s, the lesson's table has %s there", i+1, r.id, table[i])
		}
	}
	html := app.HTMLString((&Failures{rows: rows}).Render())
	for _, h := range []string{"Trigger", "Symptom", "Cause", "Response"} {
		if !strings.Contains(html, `<th scope="col">`+h+`</th>`) {
			t.Errorf("the table lacks the header cell %s", h)
		}
	}
	if got := strings.Count(html, ">Replay</a>"); got != len(rows) {
		t.Errorf("%d Replay links for %d rows", got, len(rows))
	}
	f := &Failures{rows: []failureRow{{id: "x", title: "X", row: scenario.FailureRow{Trigger: "t", Symptom: "s", Cause: "c", Response: "r"}}}}
	if html := app.HTMLString(f.Render()); !strings.Contains(html, `href="/s/x?at=symptom"`) {
		t.Errorf("a row does not replay its lesson to the symptom: %s", html)
	}
}

func TestTwinsShowWhatTheLessonsCommentsSay(t *testing.T) {
	sc, err := compareScenario()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range demonstrations {
		t.Run(d.name, func(t *testing.T) {
			tw, err := newTwins(sc)
			if err != nil {
				t.Fatal(err)
			}
			if err := tw.give(d); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 10000 && tw.step(); i++ {
			}
			level, edge, want := activePods(tw.level), activePods(tw.edge), wantedPods(tw.level)
			if level != want {
				t.Errorf("the level-triggered twin runs %d pods of %d", level, want)
			}
			switch {
			case d.name == "twice" && edge <= want:
				t.Errorf("handled twice, the edge-triggered twin runs %d pods of %d, want more", edge, want)
			case d.name != "twice" && edge >= want:
				t.Errorf("%s: the edge-triggered twin runs %d pods of %d, want fewer", d.name, edge, want)
			}
			if tw.diverged == nil || tw.diverged.at < settleAt {
				t.Errorf("first divergence = %+v, want one after the inputs at %s", tw.diverged, settleAt)
			}
		})
	}
}

func TestCompareMarksTheExecutingLine(t *testing.T) {
	c := &Compare{}
	c.OnInit()
	for i := 0; i < 60; i++ {
		c.next()
	}
	html := app.HTMLString(c.Render())
	for _, want := range []string{`id="edge-title">Edge-triggered</h2>`, `id="level-title">Level-triggered</h2>`, "create(desired - observed)", "count = pods_lost(node)"} {
		if !strings.Contains(html, want) {
			t.Errorf("compare lacks %q", want)
		}
	}
	if n := strings.Count(html, `aria-current="step"`); n != 2 {
		t.Errorf("%d lines marked as executing, want one per twin", n)
	}
	if c.alert != "" {
		t.Errorf("alert: %s", c.alert)
	}
}

func TestInspectorAnswersTheThreeQuestionsInOrder(t *testing.T) {
	p := openPlayer(t, "/s/"+scenarios.Default)
	var ctx app.Context
	for i := 0; i < 1000 && !p.view.atEnd; i++ {
		p.next(ctx)
	}
	p.pick(api.Ref{Kind: "Deployment", Namespace: "default", Name: "web"})
	v := p.view.inspector
	if v.generation != 1 || !v.hasObserved || v.observed != 1 {
		t.Errorf("generation %d, observed %d (%v)", v.generation, v.observed, v.hasObserved)
	}
	html := app.HTMLString(p.Render())
	order := []string{"1. Has the controller seen my change?", "metadata.generation", "status.observedGeneration",
		"2. What do its conditions say?", "NewReplicaSetAvailable", "3. What do its events say?", "ScalingReplicaSet", "Live YAML", "apiVersion: apps/v1"}
	at := 0
	for _, want := range order {
		i := strings.Index(html[at:], want)
		if i < 0 {
			t.Fatalf("the inspector lacks %q after %q", want, html[max(0, at-40):at])
		}
		at += i
	}
}

func TestEventAgeCountsRepeats(t *testing.T) {
	e := &api.Event{Count: 3, FirstTimestamp: 10 * api.Second, LastTimestamp: 40 * api.Second}
	if got := eventAge(50*api.Second, e); got != "10s (x3 over 40s)" {
		t.Errorf("eventAge = %q", got)
	}
}

func TestClusterShowsPhaseByShapeAndText(t *testing.T) {
	p := openPlayer(t, "/s/"+scenarios.Default+"?pass=34")
	v := p.view.cluster
	if len(v.nodes) != 3 || v.activePods != 5 || len(v.replicaSets) != 1 || v.replicaSets[0].ready != 5 {
		t.Fatalf("cluster at pass 34: %d nodes, %d pods, %+v", len(v.nodes), v.activePods, v.replicaSets)
	}
	html := app.HTMLString(p.Render())
	for _, want := range []string{`class="obj pod s-ready"`, "Running 1/1", "worker-1", "running and ready"} {
		if !strings.Contains(html, want) {
			t.Errorf("the cluster lacks %q", want)
		}
	}
}

func TestInjectingInThePastStartsANewFuture(t *testing.T) {
	p := openPlayer(t, "/s/"+scenarios.Default)
	var ctx app.Context
	p.seek(30)
	p.fault = faultForm{verb: "crash", target: "replicaset-controller"}
	p.inject(ctx)
	p.seek(10)
	p.fault = faultForm{verb: "node-down", target: "worker-1"}
	p.inject(ctx)
	if p.alert != "" {
		t.Fatal(p.alert)
	}
	ins := p.ses.run.Inputs()
	if len(ins) != 1 || ins[0].Input.Text() != "node-down worker-1" || ins[0].After != 10 {
		t.Errorf("inputs after stepping back and injecting: %+v", ins)
	}
}

func TestFaultTargetsComeFromTheWorld(t *testing.T) {
	p := openPlayer(t, "/s/"+scenarios.Default+"?pass=34")
	tg := p.view.targets
	if len(tg["node-down"]) != 3 || len(tg["delete-pod"]) != 5 || !slices.Contains(tg["crash"], "replicaset-controller") || !slices.Contains(tg["push-image"], "shop/web:1.0") {
		t.Errorf("targets: %v", tg)
	}
	for _, v := range fault.Verbs {
		if faultHelp[v] == "" {
			t.Errorf("fault %s has no help text", v)
		}
	}
	if got := (faultForm{verb: "delay-watch", target: "kubelet"}).line(tg); got != "delay-watch kubelet 30s" {
		t.Errorf("line = %q", got)
	}
}

func TestEmbedSnippet(t *testing.T) {
	got := embedSnippet("https://example.org", "web", `A "quoted" title`)
	for _, want := range []string{`src="https://example.org/s/web?embed=1"`, `loading="lazy"`, `title="A &#34;quoted&#34; title · Reconcile"`} {
		if !strings.Contains(got, want) {
			t.Errorf("snippet %s lacks %s", got, want)
		}
	}
}

func TestPlayerShowsThePseudocodeAReplicaSetPassRan(t *testing.T) {
	p := openPlayer(t, "/s/"+scenarios.Default)
	var ctx app.Context
	for i := 0; i < 50 && (p.view.current == nil || len(p.view.current.Lines) == 0); i++ {
		p.next(ctx)
	}
	if p.view.current == nil || len(p.view.current.Lines) == 0 {
		t.Fatal("no ReplicaSet pass in the first 50 passes")
	}
	html := app.HTMLString(p.Render())
	if !strings.Contains(html, "Level-triggered pseudocode, as this pass ran it") || strings.Count(html, `aria-current="step"`) != 1 {
		t.Errorf("pass %d ran lines %v; the page does not mark them", p.view.n, p.view.current.Lines)
	}
}
