package app

import (
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/engine/api"
	"reconcile/engine/limits"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
	"reconcile/scenarios"
)

// Playground is /play: the learner's own cluster. A desired-state editor
// (Apply is kubectl apply -f -), a kubectl console, every fault at any
// pass, the transport, "Fork here" to try another future from any pass and
// compare the two side by side, and the work kept in the browser (autosaved,
// exported and imported as a file, shared as a link).
//
// /play starts from a small cluster of its own; /play?from=ID from the
// bundled lesson ID ("Try it yourself"); /play#z=... from a share link
// (then /play?work=shared). Each of these is a slot: its work is saved on
// its own, so trying one lesson never overwrites another.
type Playground struct {
	app.Compo

	slot      string
	from      string
	embed     bool
	updatable bool

	// The scenario the work runs, and its text.
	sc       *scenario.Scenario
	file     string
	text     string
	futures  []*session
	active   int
	forkedAt int

	// desired is the editor's text as typed; editorText what the editor
	// was last given (the editor keeps its own value while the learner types).
	desired    string
	editorText string
	// kept is the latest desired state within the limit on a file: the
	// one saved when the editor holds more.
	kept string
	// problems are the positions of the last Apply's errors.
	problems    []problemAt
	applyResult string

	history    []string
	histPos    int
	transcript []consoleEntry

	fault     faultForm
	selected  api.Ref
	inspected *objectText
	world     worldIndex
	nodePage  int

	alert  string
	notice string
	// undo is the work before the last Start over.
	undo *playState

	view    playView
	compare *[2]futureView

	// Persistence.
	loading    bool
	saveStatus string
	saving     bool
	saveAgain  bool
	saveQueued bool
	// dirty says the work changed since it was last saved.
	dirty     bool
	saved     []savedSlot
	setAside  []string
	shareLink string
	shareNote string

	// failOn names a handler the tests make fail on purpose (see testHook).
	failOn string

	ctx      app.Context
	mounted  bool
	clock    clock
	stopKeys func()
	stopHide func()
	stopHash func()
}

// playView is what the page shows of the active run.
type playView struct {
	ready     bool
	n         int
	now       string
	atEnd     bool
	converged bool
	log       []sim.Pass
	current   *sim.Pass
	digest    string
	cluster   clusterView
	targets   faultTargets
	inspector inspectorView
	following bool
	history   []string
	console   []consoleView
}

// problemAt is one error of the desired state at a line and column.
type problemAt struct {
	line, col int
	msg       string
}

// savedSlot is one slot with saved work, as "Your work" lists it.
type savedSlot struct {
	slot, title, href string
}

// playgroundScenario is /play's own cluster: three nodes and one
// Deployment, with images to roll to.
const playgroundScenario = `id: playground
title: Playground
summary: Three nodes and one Deployment of three pods. Change the desired state, run kubectl, break things on purpose, and watch the loop bring observed state back to what you asked for.
seed: 1
cluster:
  images:
  - {ref: "shop/web:1.0"}
  - {ref: "shop/web:2.0"}
  - {ref: "shop/web:3.0", ready: false}
manifests: |
  apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: web
  spec:
    replicas: 3
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
`

// storage opens the learner's storage once per page load.
var storage = sync.OnceValues(func() (*workStore, error) {
	if OpenStorage == nil {
		return nil, fmt.Errorf("this build keeps nothing")
	}
	fsys, err := OpenStorage()
	if err != nil {
		return nil, err
	}
	s := newWorkStore(fsys)
	return &s, nil
})

// OnAppUpdate offers to reload when a new version has been installed.
func (p *Playground) OnAppUpdate(ctx app.Context) {
	p.updatable = ctx.AppUpdateAvailable()
}

// OnNav opens the slot the URL names: a share link's work, the work saved
// for it, or a fresh start.
func (p *Playground) OnNav(ctx app.Context) {
	u := ctx.Page().URL()
	p.embed = embedded(u)
	slot, from := slotOf(u)
	if p.sc != nil && slot == p.slot && !strings.HasPrefix(u.Fragment, shareFragment) {
		return
	}
	p.clock.stop()
	if p.dirty && p.ses() != nil && app.IsClient {
		p.save(ctx) // into the slot being left, before it is
	}
	p.alert, p.notice, p.shareLink, p.shareNote, p.undo = "", "", "", "", nil
	p.slot, p.from = slot, from
	if from != "" {
		if _, _, ok := scenarios.File(from); !ok || !slotRE.MatchString(from) || from == scratchSlot || from == sharedSlot {
			p.alert = fmt.Sprintf("There is no lesson called %q; this is the blank playground.", from)
			p.slot, p.from = scratchSlot, ""
		}
	}
	p.fresh()
	title := "Playground · Reconcile"
	if p.sc != nil && p.from != "" {
		title = "Try it yourself: " + p.sc.Title + " · Reconcile"
	}
	ctx.Page().SetTitle(title)
	ctx.Page().SetDescription("Edit desired state, run kubectl, inject faults and fork the future of a simulated Kubernetes cluster, in your browser.")
	if !app.IsClient {
		return
	}
	p.failOn = testHook(u)
	if frag := u.Fragment; strings.HasPrefix(frag, shareFragment) {
		if p.openShared(ctx, frag) {
			return
		}
	}
	p.loadSlot(ctx)
}

// slotOf reads the slot and the lesson a URL names.
func slotOf(u *url.URL) (slot, from string) {
	if u == nil {
		return scratchSlot, ""
	}
	q := u.Query()
	if q.Get("work") == sharedSlot {
		return sharedSlot, ""
	}
	if id := q.Get("from"); id != "" {
		return id, id // OnNav checks that it names a lesson
	}
	return scratchSlot, ""
}

// testHook is the handler a browser test asks to fail (?fail=NAME), only
// when the test has set window.reconcileTestHooks before the page loaded.
func testHook(u *url.URL) string {
	if !app.IsClient || u == nil || !app.Window().Get("reconcileTestHooks").Truthy() {
		return ""
	}
	return u.Query().Get("fail")
}

// OnMount binds the keyboard and pauses play when the page is hidden.
func (p *Playground) OnMount(ctx app.Context) {
	p.ctx, p.mounted = ctx, true
	p.stopKeys = transportKeys(ctx, p)
	p.stopHide = onHidden(ctx, func(ctx app.Context) {
		if p.clock.running() {
			p.clock.stop()
			p.notice = "Paused while the page was hidden."
		}
	})
	p.stopHash = onShareHash(ctx, func(ctx app.Context, fragment string) {
		p.alert = ""
		p.openShared(ctx, fragment)
	})
}

// onShareHash calls f on the UI goroutine when a share link is opened on a
// page already showing /play (only the fragment changes, so the browser
// does not load the page again), and returns a func that stops listening.
func onShareHash(ctx app.Context, f func(ctx app.Context, fragment string)) (stop func()) {
	if !app.IsClient {
		return func() {}
	}
	w := app.Window()
	fn := app.FuncOf(func(this app.Value, args []app.Value) any {
		if h := strings.TrimPrefix(w.Get("location").Get("hash").String(), "#"); strings.HasPrefix(h, shareFragment) {
			ctx.Dispatch(func(ctx app.Context) { f(ctx, h) })
		}
		return nil
	})
	w.Call("addEventListener", "hashchange", fn)
	return func() {
		w.Call("removeEventListener", "hashchange", fn)
		fn.Release()
	}
}

// OnDismount stops playing and unbinds the keyboard.
func (p *Playground) OnDismount() {
	p.clock.stop()
	p.mounted = false
	for _, stop := range []*func(){&p.stopKeys, &p.stopHide, &p.stopHash} {
		if *stop != nil {
			(*stop)()
			*stop = nil
		}
	}
}

// fresh starts the slot's scenario from its beginning: no inputs, the
// editor holding its manifests.
func (p *Playground) fresh() {
	file, text := "playground.yaml", playgroundScenario
	if p.from != "" {
		name, data, _ := scenarios.File(p.from)
		file, text = name, string(data)
	}
	st := &playState{Format: stateFormat, Version: stateVersion, From: p.from, File: file, Scenario: text, Futures: []future{{}}}
	guard(&p.alert, "Starting the playground", func() {
		sc, err := loadScenarioText(file, text)
		if err != nil {
			p.alert = "This scenario cannot be read: " + err.Error()
			return
		}
		st.Desired = manifestsText(sc, text)
		w, err := restoreState(st, sc)
		if err != nil {
			p.alert = "The simulation cannot start: " + err.Error()
			return
		}
		p.use(w)
	})
}

// workbench is a state ready to use: its scenario loaded and each future
// replayed.
type workbench struct {
	st   *playState
	sc   *scenario.Scenario
	runs []*sim.Sim
	// differs is set when the replay's digest is not the one saved.
	differs bool
}

// restore reads a state (stored, imported or shared) and replays it.
func restore(what string, data []byte) (w *workbench, err error) {
	var alert string
	guard(&alert, "Reading "+what, func() {
		st, sc, derr := decodeState(what, data)
		if derr != nil {
			err = derr
			return
		}
		w, err = restoreState(st, sc)
		if err != nil {
			err = fmt.Errorf("%s does not replay: %v", what, err)
		}
	})
	if alert != "" {
		return nil, fmt.Errorf("%s", alert)
	}
	return w, err
}

func restoreState(st *playState, sc *scenario.Scenario) (*workbench, error) {
	w := &workbench{st: st, sc: sc}
	for i, f := range st.Futures {
		run, err := replay(sc, f)
		if err != nil {
			if len(st.Futures) > 1 {
				return nil, fmt.Errorf("%s: %v", futureNames[i], err)
			}
			return nil, err
		}
		w.runs = append(w.runs, run)
	}
	if st.Digest != "" && w.runs[st.Active].Digest() != st.Digest {
		w.differs = true
	}
	return w, nil
}

// use makes w the page's work.
func (p *Playground) use(w *workbench) {
	p.clock.stop()
	st := w.st
	p.sc, p.file, p.text = w.sc, st.File, st.Scenario
	if st.From != "" {
		p.from = st.From
	}
	p.futures = nil
	for _, run := range w.runs {
		s := &session{run: run}
		s.lookAhead()
		p.futures = append(p.futures, s)
	}
	p.active, p.forkedAt = st.Active, st.ForkedAt
	p.setEditor(st.Desired)
	p.history = append([]string(nil), st.History...)
	p.histPos = len(p.history)
	p.transcript = nil
	p.problems, p.applyResult = nil, ""
	p.selected, p.inspected, p.fault = api.Ref{}, nil, faultForm{}
	p.compare = nil
	p.refresh()
	p.compareFutures()
}

// state is the page's work as a playState.
func (p *Playground) state() *playState {
	st := &playState{Format: stateFormat, Version: stateVersion, From: p.from, File: p.file, Scenario: p.text,
		Desired: p.desired, Active: p.active, History: p.history}
	if len(st.Desired) > limits.MaxFileSize {
		st.Desired = p.kept
	}
	for _, s := range p.futures {
		st.Futures = append(st.Futures, future{Pass: s.n(), Inputs: savedInputs(s.run)})
	}
	if len(p.futures) > 1 {
		st.ForkedAt = p.forkedAt
	}
	if s := p.ses(); s != nil {
		st.Digest = s.run.Digest()
	}
	return st
}

// ses is the active future's session.
func (p *Playground) ses() *session {
	if p.active < 0 || p.active >= len(p.futures) {
		return nil
	}
	return p.futures[p.active]
}

// setEditor gives the editor a new text (a load, an import, Start over).
func (p *Playground) setEditor(text string) {
	p.desired, p.editorText, p.kept = text, text, text
	if app.IsClient && p.mounted {
		p.ctx.Defer(func(ctx app.Context) {
			if e := app.Window().GetElementByID("desired"); e.Truthy() {
				e.Set("value", text)
			}
		})
	}
}

// refresh reads what the page shows from the active run.
func (p *Playground) refresh() {
	s := p.ses()
	if s == nil {
		p.view = playView{}
		return
	}
	var v playView
	if guard(&p.alert, "Reading the run", func() {
		run := s.run
		v.n, v.atEnd = s.n(), s.atEnd()
		v.now = run.Now().String()
		v.log = run.PassesFrom(max(0, (v.n-1)/logStep*logStep-logStep))
		if len(v.log) > 0 {
			last := v.log[len(v.log)-1]
			v.current = &last
		}
		v.converged, _ = run.Converged()
		p.world.sync(run)
		ctrls := run.Controllers()
		v.cluster = readCluster(run, &p.world, ctrls, p.nodePage)
		v.targets = readTargets(run, p.sc, &p.world, ctrls)
		ref, following := p.selected, p.selected == api.Ref{}
		if following {
			ref, _ = followed(run, v.current)
		}
		v.following = following
		if ref.Kind != "" {
			v.inspector = inspect(run, ref, &p.inspected)
		}
		v.history = inputHistory(run, historyShown)
		v.console = p.consoleViews()
		v.digest = run.Digest()
		v.ready = true
	}) {
		p.view = v
	}
}

// compareFutures compares the two futures after a fork.
func (p *Playground) compareFutures() {
	if len(p.futures) != 2 {
		p.compare = nil
		return
	}
	guard(&p.alert, "Comparing the futures", func() {
		c := compareFutures(p.sc, [2][]sim.Given{savedInputs(p.futures[0].run), savedInputs(p.futures[1].run)}, p.forkedAt)
		p.compare = &c
	})
}

// changed is called after every change of the work: it updates the view
// and saves the work soon.
func (p *Playground) changed(ctx app.Context, inputs bool) {
	p.refresh()
	if inputs {
		p.compareFutures()
	}
	p.shareLink, p.shareNote = "", ""
	p.scheduleSave(ctx, 400*time.Millisecond)
}

// title is the page's heading.
func (p *Playground) title() string {
	switch {
	case p.sc == nil:
		return "Playground"
	case p.slot == sharedSlot:
		return "Shared with you: " + p.sc.Title
	case p.from != "":
		return "Try it yourself: " + p.sc.Title
	}
	return "Playground"
}

// slotTitle names a slot in "Your work".
func slotTitle(slot string) string {
	switch slot {
	case scratchSlot:
		return "The blank playground"
	case sharedSlot:
		return "The last share link you opened"
	}
	if sc, _, err := openLesson(slot); err == nil && sc != nil {
		return "Try it yourself: " + sc.Title
	}
	return slot
}

// slotHref is the address of a slot.
func slotHref(slot string) string {
	switch slot {
	case scratchSlot:
		return "/play"
	case sharedSlot:
		return "/play?work=shared"
	}
	return "/play?from=" + url.QueryEscape(slot)
}
