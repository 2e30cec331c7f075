package app

import (
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/session"
	"reconcile/engine/limits"
	"reconcile/engine/scenario"
	"reconcile/scenarios"
)

// Playground is /play: the learner's own cluster. The stage, a
// desired-state editor (Apply is kubectl apply -f -), a kubectl console,
// every fault at any pass, "Fork here" to try another future from any pass
// and compare the two side by side, and the work kept in the browser
// (autosaved, exported and imported as a file, shared as a link).
//
// /play starts from a small cluster of its own; /play?from=ID from the
// bundled lesson ID ("Try it yourself"); /play#z=... from a share link
// (then /play?work=shared). Each of these is a slot: its work is saved on
// its own, so trying one lesson never overwrites another.
type Playground struct {
	app.Compo
	stage

	// opened is the share link last opened here and where its work stood
	// then: the same link heard twice (the hash listener and the router)
	// opens once.
	opened struct {
		fragment, digest string
		pass             int
	}

	slot      string
	from      string
	embed     bool
	updatable bool

	// The scenario the work runs, and its text.
	sc   *scenario.Scenario
	file string
	text string

	editor  editorState
	console consoleState
	futures futuresState

	// undo is the work before the last Start over or import.
	undo *session.State

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

	stopHash func()
}

// savedSlot is one slot with saved work, as "Your work" lists it.
type savedSlot struct {
	slot, title, href string
}

// playgroundScenario is /play's own cluster: three nodes and one
// Deployment, with images to roll to.
const playgroundScenario = `id: playground
title: Playground
summary: Three nodes and one Deployment of three pods. Whatever you change, the loop brings observed state back to what you asked for.
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

// OnInit prepares the stage.
func (p *Playground) OnInit() {
	p.speed, p.host, p.alertID, p.digestNow = defaultSpeed, p, "play-alert", true
}

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
	if p.sc != nil && slot == p.slot {
		if !strings.HasPrefix(u.Fragment, shareFragment) || !app.IsClient {
			return
		}
		// A share link opened over the work shown: the work stays, saved
		// first, and is replaced only if the link opens; a refused link
		// changes nothing but the alert.
		if p.dirty && p.ses != nil {
			p.save(ctx)
		}
		p.alert = ""
		p.openShared(ctx, u.Fragment)
		return
	}
	p.clock.stop()
	if p.dirty && p.ses != nil && app.IsClient {
		p.save(ctx) // into the slot being left, before it is
	}
	p.alert, p.notice, p.shareLink, p.shareNote, p.undo = "", "", "", "", nil
	p.slot, p.from = slot, from
	if from != "" {
		if _, _, ok := scenarios.File(from); !ok || !session.IsSlot(from) || from == scratchSlot || from == sharedSlot {
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
	p.hearAddress(ctx, &p.alert)
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

// OnMount binds the keyboard, pauses play when the page is hidden, and
// opens a share link pasted while the page shows.
func (p *Playground) OnMount(ctx app.Context) {
	p.mount(ctx, p)
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
	p.dismount()
	if p.stopHash != nil {
		p.stopHash()
		p.stopHash = nil
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
	st := &session.State{Format: session.StateFormat, Version: session.StateVersion, From: p.from, File: file, Scenario: text, Futures: []session.Future{{}}}
	guard(&p.alert, "Starting the playground", func() {
		sc, err := session.LoadScenarioText(file, text)
		if err != nil {
			p.alert = "This scenario cannot be read: " + err.Error()
			return
		}
		st.Desired = session.ManifestsText(sc, text)
		w, err := session.RestoreState(st, sc)
		if err != nil {
			p.alert = "The simulation cannot start: " + err.Error()
			return
		}
		p.work(w)
	})
}

// work makes w the page's work.
func (p *Playground) work(w *session.Work) {
	st := w.State
	p.sc, p.file, p.text = w.Scenario, st.File, st.Scenario
	if st.From != "" {
		p.from = st.From
	}
	var futures []*session.Session
	for _, run := range w.Runs {
		futures = append(futures, session.Of(run))
	}
	p.futures = futuresState{all: futures, active: st.Active, forkedAt: st.ForkedAt}
	p.setEditor(st.Desired)
	p.console = consoleState{history: append([]string(nil), st.History...)}
	p.console.pos = len(p.console.history)
	p.editor.alert, p.editor.problems, p.editor.result = "", nil, ""
	p.editor.stash, p.editor.stashWhat = "", ""
	p.use(p.futures.session())
	p.compareFutures()
	p.editorOpened(st.Desired)
}

// editorOpened says what the editor's text is when work opens: the
// scenario's own manifests, the live desired state (the editor followed
// it), or text the page cannot place (then it never follows on its own).
func (p *Playground) editorOpened(text string) {
	switch {
	case text == session.ManifestsText(p.sc, p.text):
		p.editorFrom(text, "the desired state the scenario starts with", true)
	case p.ses != nil && text == p.ses.LiveManifests(text):
		p.editorFrom(text, "the live desired state, as you left it", true)
	default:
		p.editorFrom(text, "the text you saved", false)
	}
}

// state is the page's work as a session.State.
func (p *Playground) state() *session.State {
	st := &session.State{Format: session.StateFormat, Version: session.StateVersion, From: p.from, File: p.file, Scenario: p.text,
		Desired: p.editor.desired, Active: p.futures.active, History: p.console.history}
	if len(st.Desired) > limits.MaxFileSize {
		st.Desired = p.editor.kept
	}
	for _, s := range p.futures.all {
		st.Futures = append(st.Futures, session.Future{Pass: s.N(), Inputs: session.SavedInputs(s)})
	}
	if len(p.futures.all) > 1 {
		st.ForkedAt = p.futures.forkedAt
	}
	if p.ses != nil {
		st.Digest = p.ses.Digest()
	}
	return st
}

// busy implements stageHost: nothing runs while saved work opens.
func (p *Playground) busy() bool { return p.loading }

// changed implements stageHost: a step or an input is work to save; an
// input changes a future, so the comparison of two is read again.
func (p *Playground) changed(ctx app.Context, c change) {
	if c == (change{}) {
		return
	}
	if c.inputs {
		p.compareFutures()
	}
	if c.inputs || c.moved {
		p.followLive(c.inputs)
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

// Render draws the page.
func (p *Playground) Render() app.UI {
	s := shell{embed: p.embed, updatable: p.updatable, wide: true}
	busy := ""
	if p.loading {
		busy = "opening your saved work…"
	}
	suffix := ""
	if len(p.futures.all) == 2 {
		suffix = strings.ToLower(session.FutureNames[p.futures.active])
	}
	note := "No pass has run yet. Press Next pass."
	if log := p.view.Log; len(log) > 0 {
		note = fmt.Sprintf("Passes %d to %d.", log[0].N, log[len(log)-1].N)
	}
	return s.render(
		app.Div().Class("play").Body(
			app.Section().Class("intro").Body(
				app.H1().Text(p.title()),
				app.If(p.sc != nil && p.sc.Summary != "", func() app.UI {
					return app.Div().Class("summary").Body(paragraphs(p.sc.Summary)...)
				}),
				app.P().Class("muted").Body(
					app.Text("Your own cluster: edit its desired state, run kubectl, break it on purpose, step back, fork the future. "),
					app.If(p.from != "", func() app.UI {
						return app.Span().Body(app.A().Href("/s/"+p.from).Text("Back to the lesson"), app.Text("."))
					}),
				),
			),
			p.renderAlert(),
			p.renderTransport(transport{busy: busy, suffix: suffix, extra: []app.UI{
				app.Button().Type("button").ID("fork").Class("fork").Text("Fork here").Disabled(!p.view.Ready || p.loading).OnClick(p.onFork).
					Title("Keep the past up to this pass and try another future beside this one"),
			}}),
			p.renderNotice(),
			renderStageOf(&p.stage, p.renderNow("")),
			app.Div().Class("workspace play-tools").Body(p.renderEditor(), p.renderFaults()),
			p.renderConsole(),
			p.renderFutures(),
			app.Div().Class("workspace").Body(p.renderLog(app.P().Class("empty").Text(note)), p.renderPass()),
			p.renderInspector(),
			p.renderWork(),
		),
	)
}

// renderAlert draws the page's alert: what went wrong with an action
// other than Apply (whose errors are the editor's). It floats over the
// page, so the page does not move when it comes or goes; its element is
// always there (empty when all is well), so that the focus can land on it.
func (p *Playground) renderAlert() app.UI {
	class := "alert play-alert"
	if p.alert == "" {
		class = "alert-none"
	}
	return app.Div().ID("play-alert").Class(class).Role("alert").TabIndex(-1).Body(
		app.If(p.alert != "", func() app.UI {
			return app.P().Class("alert-text").Text(p.alert)
		}),
		app.If(p.alert != "", func() app.UI {
			return app.Button().Type("button").Class("quiet").Text("Dismiss").OnClick(p.onDismiss)
		}),
	)
}

// renderNotice draws the calm message about the last action, under the
// transport, in a space of its own: when there is no message it says what
// Fork here does, so that the controls above never move.
func (p *Playground) renderNotice() app.UI {
	return app.Div().Class("play-note").Body(
		app.P().ID("play-notice").Class("notice").TabIndex(-1).Aria("live", "polite").Text(p.notice),
		app.If(p.notice == "", func() app.UI {
			return app.P().Class("muted fork-hint").Text("Fork here keeps the past up to this pass and starts a second future beside this one, to compare.")
		}),
		app.If(len(p.futures.all) == 2, func() app.UI {
			return app.A().Class("to-futures").Href("#futures-title").Text("Compare the two futures")
		}),
	)
}
