package session

import (
	"slices"
	"strings"
	"testing"

	"reconcile/engine/controller"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
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

// given starts twins of edge-vs-level and gives them the demonstration
// named name.
func given(t *testing.T, name string) *Twins {
	t.Helper()
	tw, err := NewTwins(mustLoad(t, "edge-vs-level"))
	if err != nil {
		t.Fatal(err)
	}
	if err := tw.Give(demo(t, name)); err != nil {
		t.Fatal(err)
	}
	return tw
}

func demo(t *testing.T, name string) Demonstration {
	t.Helper()
	for _, d := range Demonstrations {
		if d.Name == name {
			return d
		}
	}
	t.Fatalf("no demonstration %s", name)
	return Demonstration{}
}

// toEnd steps the twins until neither has a pass left.
func toEnd(t *testing.T, tw *Twins) {
	t.Helper()
	for i := 0; tw.Step(); i++ {
		if i > 20000 {
			t.Fatal("the twins never finish")
		}
	}
}

// count finds Deployment name in a twin's view.
func count(t *testing.T, v TwinView, name string) DeploymentCount {
	t.Helper()
	for _, d := range v.Each {
		if d.Name == name {
			return d
		}
	}
	t.Fatalf("no Deployment %s in %+v", name, v.Each)
	return DeploymentCount{}
}

// Each demonstration does to the edge-triggered twin what the lesson's
// comments say it does, and the level-triggered twin converges anyway.
func TestTwinsShowWhatTheLessonsCommentsSay(t *testing.T) {
	for _, d := range Demonstrations {
		t.Run(d.Name, func(t *testing.T) {
			tw := given(t, d.Name)
			toEnd(t, tw)
			level, edge, want := activePods(tw.level.run), activePods(tw.edge.run), wantedPods(tw.level.run)
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

// Per Deployment, each mishap leaves the edge-triggered twin where the
// lesson's edge twin (edge-vs-level-edge) ends: cart three of five,
// search seven of five, checkout six of seven; the others untouched. The
// level-triggered twin ends with every Deployment as desired.
func TestTwinsCountPerDeployment(t *testing.T) {
	want := map[string]map[string][2]int{ // demonstration → Deployment → edge pods, wanted
		"missed": {"cart": {3, 5}, "search": {5, 5}, "checkout": {5, 5}},
		"twice":  {"cart": {5, 5}, "search": {7, 5}, "checkout": {5, 5}},
		"crash":  {"cart": {5, 5}, "search": {5, 5}, "checkout": {6, 7}},
	}
	for _, d := range Demonstrations {
		t.Run(d.Name, func(t *testing.T) {
			tw := given(t, d.Name)
			toEnd(t, tw)
			v := tw.Read()
			if v.Focus != d.Deployment || v.Demo != d.Name {
				t.Errorf("the view is about %s (%s), want %s (%s)", v.Focus, v.Demo, d.Deployment, d.Name)
			}
			for name, w := range want[d.Name] {
				e, l := count(t, v.Edge, name), count(t, v.Level, name)
				if e.Pods != w[0] || e.Wanted != w[1] {
					t.Errorf("edge-triggered %s: %d of %d, want %d of %d", name, e.Pods, e.Wanted, w[0], w[1])
				}
				if l.Pods != l.Wanted || l.Wanted != w[1] {
					t.Errorf("level-triggered %s: %d of %d, want %d of %d", name, l.Pods, l.Wanted, w[1], w[1])
				}
				if !e.Settled || !l.Settled || e.Final != e.Pods {
					t.Errorf("%s at the end: edge %+v, level %+v: both settled, final = pods", name, e, l)
				}
			}
			off := v.Edge.Off()
			if len(off) != 1 || off[0].Name != d.Deployment {
				t.Errorf("the edge twin is off on %+v, want %s alone", off, d.Deployment)
			}
			if len(v.Level.Off()) != 0 {
				t.Errorf("the level twin is off on %+v", v.Level.Off())
			}
			if g := count(t, v.Edge, d.Deployment).Gap(); !strings.Contains(g, "and it stays") {
				t.Errorf("the edge twin's gap at the end reads %q", g)
			}
		})
	}
}

// A demonstration starts from a settled world: what an earlier one did is
// gone (handled twice, then crashed mid-way, leaves search at 5 of 5), and
// the first divergence is the new one's.
func TestTwinsDemonstrationsDoNotStack(t *testing.T) {
	tw := given(t, "twice")
	toEnd(t, tw)
	first := *tw.diverged
	if err := tw.Give(demo(t, "crash")); err != nil {
		t.Fatal(err)
	}
	if tw.Now() != settleAt || tw.diverged != nil {
		t.Errorf("after Give the twins are at t=%s with divergence %+v, want t=%s and none yet", tw.Now(), tw.diverged, settleAt)
	}
	if got := tw.Read().Summary; !strings.HasPrefix(got, "So far") {
		t.Errorf("right after Give the summary says %q", got)
	}
	toEnd(t, tw)
	fresh := given(t, "crash")
	toEnd(t, fresh)
	if *tw.diverged != *fresh.diverged {
		t.Errorf("after twice then crash the divergence is %+v, a fresh crash gives %+v", *tw.diverged, *fresh.diverged)
	}
	if tw.diverged.At == first.At && tw.diverged.Edge == first.Edge {
		t.Errorf("the divergence was not recomputed: %+v", *tw.diverged)
	}
	v := tw.Read()
	if d := count(t, v.Edge, "search"); d.Pods != 5 {
		t.Errorf("after twice then crash, the edge twin runs %d pods of search, want 5 (a fresh start)", d.Pods)
	}
	if len(tw.marks) != 1 {
		t.Errorf("%d inputs marked, want the crash alone", len(tw.marks))
	}
	if !strings.Contains(v.Summary, "pods of checkout") {
		t.Errorf("the summary is not about checkout: %q", v.Summary)
	}
	if err := tw.Restart(); err != nil {
		t.Fatal(err)
	}
	if v := tw.Read(); v.Focus != "" || !strings.HasPrefix(v.Summary, "So far") || v.At != 0 || tw.diverged != nil {
		t.Errorf("after Restart: focus %q at %s, summary %q", v.Focus, v.Now, v.Summary)
	}
}

// Every Step leaves both twins at the same moment, and in lockstep each
// runs exactly the passes it runs alone.
func TestTwinsStepToTheSameMoment(t *testing.T) {
	for _, d := range Demonstrations {
		t.Run(d.Name, func(t *testing.T) {
			tw := given(t, d.Name)
			// Each twin alone: a copy run to its horizon.
			alone := []*sim.Sim{tw.level.run.Copy(), tw.edge.run.Copy()}
			for _, a := range alone {
				for {
					if _, ok := a.Next(); !ok {
						break
					}
				}
			}
			steps, both := 0, 0
			for tw.Step() {
				steps++
				l, e := tw.level.run.Now(), tw.edge.run.Now()
				if l != e {
					t.Fatalf("after step %d the level twin is at t=%s and the edge twin at t=%s", steps, l, e)
				}
				v := tw.Read()
				if !v.Level.HasRan && !v.Edge.HasRan {
					t.Fatalf("step %d ran no pass", steps)
				}
				if v.Level.HasRan && v.Edge.HasRan {
					both++
				}
				for _, r := range []TwinView{v.Level, v.Edge} {
					if r.HasRan && (r.Ran.At != v.At || r.Ran.N != r.Pass) {
						t.Fatalf("step %d at t=%s shows pass %d at t=%s of %d", steps, v.Now, r.Ran.N, r.Ran.AtText, r.Pass)
					}
				}
			}
			if both == 0 {
				t.Error("no step ran a pass of both twins")
			}
			for i, w := range tw.both() {
				if got, want := w.run.Digest(), alone[i].Digest(); got != want {
					t.Errorf("twin %d in lockstep: digest %s, alone %s", i, got, want)
				}
			}
		})
	}
}

// A line is lit only on a pass that ran it: none on another controller's
// pass; on a ReplicaSet pass, the handler of the event the pass handled
// (in the edge twin) or the lines the pass ran (in the level one).
func TestTwinsLightOnlyThePassJustRun(t *testing.T) {
	handler := map[string][]int{"twice": {7, 8, 9}, "crash": {4, 5, 6}} // pod_lost, replicaset_resized
	for _, d := range Demonstrations {
		t.Run(d.Name, func(t *testing.T) {
			tw := given(t, d.Name)
			if v := tw.Read(); v.Level.HasRan || v.Edge.HasRan || len(v.Edge.Lit)+len(v.Level.Lit) > 0 {
				t.Errorf("before a step, a twin shows a pass: %+v %+v", v.Level.Ran, v.Edge.Ran)
			}
			edgeLit, levelLit := 0, 0
			for tw.Step() {
				v := tw.Read()
				for name, r := range map[string]TwinView{"level": v.Level, "edge": v.Edge} {
					rs := r.HasRan && r.Ran.Controller == controller.ReplicaSetController
					switch {
					case !rs && len(r.Lit) > 0:
						t.Errorf("%s twin, pass %d of %s: lines %v lit", name, r.Ran.N, r.Ran.Controller, r.Lit)
					case rs && len(r.Lit) == 0:
						t.Errorf("%s twin, ReplicaSet pass %d (%s): no line lit", name, r.Ran.N, r.Ran.Desired)
					case rs && name == "level" && !slices.Equal(r.Lit, r.Ran.Lines):
						t.Errorf("level twin, pass %d: lit %v, ran %v", r.Ran.N, r.Lit, r.Ran.Lines)
					case rs && name == "edge":
						edgeLit++
						if !slices.Equal(r.Lit, handler[d.Name]) {
							t.Errorf("edge twin, pass %d on %q: lit %v, want %v", r.Ran.N, r.Ran.Desired, r.Lit, handler[d.Name])
						}
					case rs:
						levelLit++
					}
				}
			}
			if levelLit == 0 {
				t.Error("the level twin never lit a line")
			}
			if want := map[string]int{"missed": 0, "twice": 4, "crash": 1}[d.Name]; edgeLit != want {
				t.Errorf("the edge twin lit its handler on %d passes, want %d (one per event it heard of)", edgeLit, want)
			}
			v := tw.Read()
			if v.Level.HasLast && !slices.Equal(v.Level.LastLit, v.Level.Last.Lines) {
				t.Errorf("the level twin's last ReplicaSet pass ran %v, shown %v", v.Level.Last.Lines, v.Level.LastLit)
			}
		})
	}
}

// Every edge ReplicaSet pass of a whole run from t=0 maps to a handler.
func TestEdgeHandlersCoverEveryEvent(t *testing.T) {
	tw, err := NewTwins(mustLoad(t, "edge-vs-level"))
	if err != nil {
		t.Fatal(err)
	}
	created := 0
	for tw.Step() {
		if r := tw.Read().Edge; r.HasRan && r.Ran.Controller == controller.ReplicaSetController {
			if len(r.Lit) == 0 {
				t.Errorf("pass %d on %q lights no handler", r.Ran.N, r.Ran.Desired)
			}
			if slices.Equal(r.Lit, []int{1, 2, 3}) {
				created++
			}
		}
	}
	if created != 3 {
		t.Errorf("the replicaset_created handler ran %d times, want once per Deployment", created)
	}
	if n := len(EdgeHandlers); n != 3*len(edgeEvents) {
		t.Errorf("%d handler lines for %d events", n, len(edgeEvents))
	}
}

// The question's three choices hold the count the edge twin ends with, and
// the words of a count say whether it lasts.
func TestTwinsQuestionAndGapWords(t *testing.T) {
	for _, d := range Demonstrations {
		tw := given(t, d.Name)
		q, ok := tw.Question()
		if !ok {
			t.Fatalf("%s: no question", d.Name)
		}
		toEnd(t, tw)
		got := count(t, tw.Read().Edge, d.Deployment).Pods
		if len(q.Choices) != 3 || q.Right < 0 || q.Choices[q.Right] != got || !slices.IsSorted(q.Choices) {
			t.Errorf("%s: choices %v, right %d, the edge twin ends with %d", d.Name, q.Choices, q.Right, got)
		}
		if !strings.Contains(q.Text, d.After) || !strings.Contains(q.Text, d.Deployment) {
			t.Errorf("%s: question %q", d.Name, q.Text)
		}
	}
	tw, err := NewTwins(mustLoad(t, "edge-vs-level"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := tw.Question(); ok {
		t.Error("a question with no demonstration given")
	}
	for _, c := range []struct {
		d    DeploymentCount
		want string
	}{
		{DeploymentCount{Pods: 5, Wanted: 5, Settled: true}, "as desired"},
		{DeploymentCount{Pods: 3, Wanted: 5, Settled: true}, "short by 2, and it stays short: nothing will create the missing pods"},
		{DeploymentCount{Pods: 6, Wanted: 5, Settled: true}, "over by 1, and it stays over: nothing will delete the extra pod"},
		{DeploymentCount{Pods: 3, Wanted: 5}, "short by 2 for now: more passes change it"},
		{DeploymentCount{Pods: 5, Wanted: 5}, "as desired for now: more passes change it"},
	} {
		if got := c.d.Gap(); got != c.want {
			t.Errorf("%d of %d (settled %v) reads %q, want %q", c.d.Pods, c.d.Wanted, c.d.Settled, got, c.want)
		}
		if got := c.d.Difference(); strings.Contains(got, "now") || strings.Contains(got, "stays") {
			t.Errorf("%d of %d: the difference alone reads %q, which tells the future", c.d.Pods, c.d.Wanted, got)
		}
	}
	for _, c := range [][3]int{{3, 5, 0}, {7, 5, 0}, {6, 7, 0}, {5, 5, 0}, {0, 1, 0}, {0, 0, 0}} {
		ch := countChoices(c[0], c[1])
		if len(ch) != 3 || !slices.Contains(ch, c[0]) || !slices.Contains(ch, c[1]) || !slices.IsSorted(ch) {
			t.Errorf("countChoices(%d, %d) = %v", c[0], c[1], ch)
		}
	}
}
