package app

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/session"
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
	p := &Player{id: sc.ID, sc: sc}
	p.speed = defaultSpeed
	ses, err := session.New(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	p.use(ses)
	return p
}

// replayFailure plays a failure lesson to its symptom, checks that the
// expectations of that moment hold and the evidence is inspected, applies
// the response and runs until the loop converges.
func replayFailure(t *testing.T, sc *scenario.Scenario) {
	t.Helper()
	p := playerOf(t, sc)
	var ctx app.Context
	p.playToSymptom(ctx, false)
	if p.alert != "" || !p.atSymptom {
		t.Fatalf("%s: playing to the symptom: alert %q", sc.ID, p.alert)
	}
	at := session.SymptomAt(sc)
	objs := p.ses.Objects()
	for _, e := range sc.Expect {
		if e.Assertion == nil || e.At != at {
			continue
		}
		if e.Assertion.Traffic != nil {
			if f := p.ses.Check(e); f != nil {
				t.Errorf("%s at the symptom (pass %d, t=%s): %s: %s", sc.ID, p.view.N, p.view.Now, e.That, f.Got)
			}
			continue
		}
		if got, ok := e.Assertion.Eval(objs); !ok {
			t.Errorf("%s at the symptom (pass %d, t=%s): %s: %s", sc.ID, p.view.N, p.view.Now, e.That, got)
		}
	}
	if p.reader.Selected == (api.Ref{}) {
		t.Errorf("%s: no evidence selected in the inspector", sc.ID)
	}
	html := app.HTMLString(p.Render())
	for _, want := range []string{"This is the symptom", sc.Failure.Symptom, ">Apply the response</button>"} {
		if !strings.Contains(html, want) {
			t.Errorf("%s at the symptom: the page lacks %q", sc.ID, want)
		}
	}
	before, convergedBefore := p.ses.Now(), p.view.Converged
	p.applyResponse(ctx)
	if p.alert != "" || !p.responded {
		t.Fatalf("%s: applying the response: alert %q", sc.ID, p.alert)
	}
	if now := p.ses.Now(); now < before {
		t.Errorf("%s: applying the response moved the clock back from %s to %s", sc.ID, before, now)
	}
	if p.view.Converged && !convergedBefore {
		t.Errorf("%s: converged the moment the response was applied, before any pass", sc.ID)
	}
	for i := 0; i < 20000 && !p.view.Converged && !p.view.AtEnd; i++ {
		step(p)
	}
	if !p.view.Converged {
		t.Errorf("%s: the response did not converge (pass %d, t=%s)", sc.ID, p.view.N, p.view.Now)
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
	if html := app.HTMLString(f.Render()); !strings.Contains(html, `href="/s/x?play=symptom"`) {
		t.Errorf("a row does not replay its lesson to the symptom: %s", html)
	}
}

// A pseudocode line is lit only in a twin whose pass just ran it: after a
// step, the lines marked as the current step are those of the twins whose
// pass was their ReplicaSet controller's.
func TestCompareMarksTheExecutingLine(t *testing.T) {
	c := &Compare{}
	c.OnInit()
	ranRS, ranOther := false, false
	for i := 0; i < 200 && !(ranRS && ranOther); i++ {
		c.step()
		want := 0
		for _, v := range []session.TwinView{c.view.Level, c.view.Edge} {
			if v.HasRan && len(v.Lit) > 0 {
				want++
			}
		}
		if want > 0 {
			ranRS = true
		} else {
			ranOther = true
		}
		html := app.HTMLString(c.Render())
		if n := strings.Count(html, `aria-current="step"`); n != want {
			t.Fatalf("after step %d: %d lines marked as the current step, want %d (level ran %q, edge ran %q)",
				i+1, n, want, c.view.Level.Ran.Controller, c.view.Edge.Ran.Controller)
		}
	}
	if !ranRS || !ranOther {
		t.Errorf("200 steps ran ReplicaSet passes %v and others %v: the check saw both kinds of pass only if both are true", ranRS, ranOther)
	}
	html := app.HTMLString(c.Render())
	for _, want := range []string{`id="edge-title">Edge-triggered</h2>`, `id="level-title">Level-triggered</h2>`, "create(desired - observed)"} {
		if !strings.Contains(html, want) {
			t.Errorf("compare lacks %q", want)
		}
	}
	if c.alert != "" {
		t.Errorf("alert: %s", c.alert)
	}
}

func TestInspectorAnswersTheThreeQuestionsInOrder(t *testing.T) {
	p := openPlayer(t, "/s/"+scenarios.Default)
	var ctx app.Context
	for i := 0; i < 1000 && !p.view.AtEnd; i++ {
		step(p)
	}
	p.pick(ctx, api.Ref{Kind: "Deployment", Namespace: "default", Name: "web"})
	v := p.view.Inspector
	if v.Generation != 1 || !v.HasObserved || v.Observed != 1 {
		t.Errorf("generation %d, observed %d (%v)", v.Generation, v.Observed, v.HasObserved)
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
	if got := session.EventAge(50*api.Second, e); got != "10s (x3 over 40s)" {
		t.Errorf("eventAge = %q", got)
	}
	// The scheduler's: a series (its count, when last observed) over the
	// time since its eventTime; a singleton, the time since its eventTime.
	at := api.MicroTime(10 * api.Second)
	e = &api.Event{FirstTimestamp: api.NoTime, LastTimestamp: api.NoTime, EventTime: &at, Series: &api.EventSeries{Count: 2, LastObservedTime: api.MicroTime(20 * api.Second)}}
	if got := session.EventAge(50*api.Second, e); got != "30s (x2 over 40s)" {
		t.Errorf("eventAge of a series = %q", got)
	}
	e.Series = nil
	if got := session.EventAge(50*api.Second, e); got != "40s" {
		t.Errorf("eventAge of a singleton of the events.k8s.io recorder = %q", got)
	}
}

func TestClusterShowsPhaseByShapeAndText(t *testing.T) {
	p := openPlayer(t, "/s/"+scenarios.Default+"?pass=34")
	v := p.view.Cluster
	if len(v.Nodes) != 3 || v.ActivePods != 5 || len(v.ReplicaSets) != 1 || v.ReplicaSets[0].Ready != 5 {
		t.Fatalf("cluster at pass 34: %d nodes, %d pods, %+v", len(v.Nodes), v.ActivePods, v.ReplicaSets)
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
	p.seek(ctx, 30)
	p.fault = session.FaultForm{Verb: "crash", Target: "replicaset-controller"}
	p.inject(ctx)
	p.seek(ctx, 10)
	p.fault = session.FaultForm{Verb: "node-down", Target: "worker-1"}
	p.inject(ctx)
	if p.alert != "" {
		t.Fatal(p.alert)
	}
	ins := p.ses.Inputs()
	if len(ins) != 1 || ins[0].Input.Text() != "node-down worker-1" || ins[0].After != 10 {
		t.Errorf("inputs after stepping back and injecting: %+v", ins)
	}
}

func TestFaultTargetsComeFromTheWorld(t *testing.T) {
	p := openPlayer(t, "/s/"+scenarios.Default+"?pass=34")
	tg := p.view.Targets
	if len(tg["node-down"]) != 3 || len(tg["delete-pod"]) != 5 || !slices.Contains(tg["crash"], "replicaset-controller") || !slices.Contains(tg["push-image"], "shop/web:1.0") {
		t.Errorf("targets: %v", tg)
	}
	for _, v := range fault.Verbs {
		if session.FaultHelp[v] == "" {
			t.Errorf("fault %s has no help text", v)
		}
	}
	if got := (session.FaultForm{Verb: "delay-watch", Target: "kubelet"}).Line(tg); got != "delay-watch kubelet 30s" {
		t.Errorf("line = %q", got)
	}
}

func TestEmbedSnippet(t *testing.T) {
	got := embedSnippet("https://example.org", "web", `A "quoted" title`, url.Values{"pass": {"12"}})
	for _, want := range []string{`src="https://example.org/s/web?embed=1&amp;pass=12"`, `height="560"`, `loading="lazy"`, `title="A &#34;quoted&#34; title · Reconcile"`} {
		if !strings.Contains(got, want) {
			t.Errorf("snippet %s lacks %s", got, want)
		}
	}
}

func TestPlayerShowsThePseudocodeAReplicaSetPassRan(t *testing.T) {
	p := openPlayer(t, "/s/"+scenarios.Default)
	for i := 0; i < 50 && (p.view.Current == nil || len(p.view.Current.Lines) == 0); i++ {
		step(p)
	}
	if p.view.Current == nil || len(p.view.Current.Lines) == 0 {
		t.Fatal("no ReplicaSet pass in the first 50 passes")
	}
	html := app.HTMLString(p.Render())
	if !strings.Contains(html, "Level-triggered pseudocode, as this pass ran it") || strings.Count(html, `aria-current="step"`) != 1 {
		t.Errorf("pass %d ran lines %v; the page does not mark them", p.view.N, p.view.Current.Lines)
	}
}

// A cluster of more nodes than the pane draws is drawn a page at a time,
// and every node can be reached with the labelled page buttons.
func TestClusterPagesThroughTheNodes(t *testing.T) {
	var b strings.Builder
	b.WriteString("id: test-many-nodes\ntitle: Many nodes\nsummary: More nodes than the pane draws.\nseed: 1\ncluster:\n  nodes:\n")
	for i := 1; i <= session.MaxNodesShown+6; i++ {
		b.WriteString("  - {name: node-" + fmt.Sprintf("%02d", i) + ", cpu: \"4\", memory: 8Gi, pods: 20}\n")
	}
	b.WriteString("manifests: |\n  apiVersion: apps/v1\n  kind: Deployment\n  metadata: {name: web}\n  spec:\n    replicas: 2\n    selector: {matchLabels: {app: web}}\n    template:\n      metadata: {labels: {app: web}}\n      spec: {containers: [{name: web, image: shop/web:1.0}]}\n")
	p := playerOf(t, loadInline(t, b.String()))
	html := app.HTMLString(p.Render())
	for _, want := range []string{"Nodes 1–24 of 30", ">Previous nodes</button>", ">Next nodes</button>", "node-24", `aria-label="Node pages"`} {
		if !strings.Contains(html, want) {
			t.Errorf("the first page lacks %q", want)
		}
	}
	if strings.Contains(html, ">node-25</button>") {
		t.Error("the first page draws node-25")
	}
	p.reader.NodePage = 1
	p.refresh()
	html = app.HTMLString(p.Render())
	for _, want := range []string{"Nodes 25–30 of 30", ">node-25</button>", ">node-30</button>"} {
		if !strings.Contains(html, want) {
			t.Errorf("the second page lacks %q", want)
		}
	}
	if strings.Contains(html, ">node-24</button>") {
		t.Error("the second page draws node-24")
	}
}
