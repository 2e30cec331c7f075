package app

import (
	"fmt"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
	"reconcile/app/session"
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
	// chal is the lesson's challenge, when the page plays it (challenge.go).
	chal challengeState

	// undo is the work before the last Start over or import; news what
	// the next save is to tell (another tab's save, playother.go).
	undo *session.State
	news saveNews

	// Persistence: opening is work being opened (playopen.go).
	opening    *playOpening
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
	// stopPaste stops refusing pastes over MaxFileSize (listenPaste).
	stopPaste func()
	// stopFlush stops saving at once when the page is hidden or left.
	stopFlush func()
	// stopOthers stops listening for other tabs' saves.
	stopOthers func()
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
	if challengeMode(u) && from != "" {
		slot = challengeSlot(from)
	}
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
		p.openShared(ctx, u.Fragment, nil)
		return
	}
	p.clock.stop()
	p.cancelOpening()
	if p.dirty && p.ses != nil && app.IsClient {
		p.save(ctx) // into the slot being left, before it is
	}
	p.alert, p.notice, p.shareLink, p.shareNote, p.undo, p.news = "", "", "", "", nil, saveNews{}
	p.slot, p.from = slot, from
	if from != "" {
		if _, _, ok := scenarios.File(from); !ok || !session.IsSlot(from) || from == scratchSlot || from == sharedSlot {
			p.alert = fmt.Sprintf("There is no lesson called %q; this is the blank playground.", from)
			p.slot, p.from = scratchSlot, ""
		}
	}
	p.fresh()
	p.chal = challengeState{}
	if slot == challengeSlot(p.from) {
		p.beginChallenge()
	}
	title := p.title() + " · Reconcile"
	if p.sc == nil || p.from == "" {
		title = "Playground · Reconcile"
	}
	ctx.Page().SetTitle(title)
	ctx.Page().SetDescription("Edit desired state, run kubectl, inject faults and fork the future of a simulated Kubernetes cluster, in your browser.")
	if !app.IsClient {
		return
	}
	p.failOn = testHook(u)
	p.hearAddress(ctx, &p.alert)
	if frag := u.Fragment; strings.HasPrefix(frag, shareFragment) {
		if p.openShared(ctx, frag, func(ctx app.Context) {
			if p.chal.c == nil {
				p.loadSlot(ctx) // the link does not replay: the slot's own work
			}
		}) {
			return
		}
	}
	if p.chal.c != nil {
		return // a challenge starts afresh, and is not saved
	}
	p.loadSlot(ctx)
}

// OnMount binds the keyboard, pauses play when the page is hidden, and
// opens a share link pasted while the page shows, and refuses a paste into
// the editor over MaxFileSize before the browser takes it in. Work not yet
// saved (a save waits a moment after each change) is saved at once when
// the page is hidden or left: a reload just after an edit keeps it.
func (p *Playground) OnMount(ctx app.Context) {
	p.mount(ctx, p)
	p.stopHash = onShareHash(ctx, func(ctx app.Context, fragment string) {
		p.alert = ""
		p.openShared(ctx, fragment, nil)
	})
	p.stopPaste = listenPaste(ctx, "desired", func(ctx app.Context, n int) {
		p.editor.alert, p.editor.problems, p.editor.result = pasteRefusal(n), nil, ""
	})
	p.stopOthers = onOtherSave(ctx, p.otherSaved)
	p.stopFlush = onLeave(ctx, func(ctx app.Context) {
		if p.dirty {
			p.save(ctx)
		}
	}, func() {
		if (p.dirty || p.saving) && p.ses != nil && !p.loading {
			if data, err := p.state().Encode(); err == nil {
				keepUnsaved(p.slot, data)
			}
		}
	})
}

// OnDismount stops playing and unbinds the keyboard.
func (p *Playground) OnDismount() {
	p.dismount()
	if p.stopHash != nil {
		p.stopHash()
		p.stopHash = nil
	}
	if p.stopPaste != nil {
		p.stopPaste()
		p.stopPaste = nil
	}
	if p.stopFlush != nil {
		p.stopFlush()
		p.stopFlush = nil
	}
	if p.stopOthers != nil {
		p.stopOthers()
		p.stopOthers = nil
	}
}

// busy implements stageHost: nothing runs while saved work opens.
func (p *Playground) busy() bool { return p.loading }

// changed implements stageHost: a step or an input is work to save; an
// input changes a future, so the comparison of two is read again.
func (p *Playground) changed(ctx app.Context, c change) {
	p.noteInspected()
	if c == (change{}) {
		return
	}
	if p.judge() {
		p.keepSolved(ctx)
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
	case p.chal.c != nil:
		return "Your turn: " + p.sc.Title
	case p.from != "":
		return "Try it yourself: " + p.sc.Title
	}
	return "Playground"
}

// Render draws the page.
func (p *Playground) Render() app.UI {
	s := shell{embed: p.embed, updatable: p.updatable, wide: true}
	busy := ""
	if p.loading {
		busy = p.openingStatus()
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
		el.Div().Class("play").Body(
			el.Section().Class("intro").Body(
				p.renderTitle(),
				app.If(p.sc != nil && p.sc.Summary != "" && p.chal.c == nil, func() app.UI {
					return el.Div().Class("summary").Body(paragraphs(p.sc.Summary)...)
				}),
				app.If(p.chal.c != nil, func() app.UI {
					return el.P().Class("muted").Body(
						app.Text("Find the stuck loop and fix it yourself, with the console, the desired-state editor, the inspector and the clock. "),
						el.A().Attr("href", "/s/"+p.from).Text("Back to the lesson"), app.Text("."),
					)
				}).Else(func() app.UI {
					return el.P().Class("muted").Body(
						app.Text("Your own cluster: edit its desired state, run kubectl, break it on purpose, step back, fork the future. "),
						app.If(p.from != "", func() app.UI {
							return el.Span().Body(el.A().Attr("href", "/s/"+p.from).Text("Back to the lesson"), app.Text("."))
						}),
					)
				}),
			),
			p.renderAlert(),
			p.renderTransport(transport{busy: busy, suffix: suffix, extra: p.transportExtra()}),
			p.renderNotice(),
			p.renderChallenge(),
			renderStageOf(&p.stage, p.renderNow("")),
			el.Div().Class("workspace play-tools").Body(memoize(p.editorKey(), p.renderEditor), memoize(p.faultsKey(), p.renderFaults)),
			p.renderConsole(),
			app.If(p.chal.c == nil, p.renderFutures),
			el.Div().Class("workspace").Body(p.renderLog(el.P().Class("empty").Text(note)), p.renderPass()),
			p.inspectorPart(),
			app.If(p.chal.c == nil, p.renderWork),
		),
	)
}

// transportExtra is Fork here, but in a challenge (one future is judged).
func (p *Playground) transportExtra() []app.UI {
	if p.chal.c != nil {
		return nil
	}
	return []app.UI{el.Button().Attr("type", "button").ID("fork").Class("fork").Text("Fork here").Attr("disabled", !p.view.Ready || p.loading).OnClick(p.onFork).
		Title("Keep the past up to this pass and try another future beside this one")}
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
	return el.Div().ID("play-alert").Class(class).Role("alert").TabIndex(-1).Body(
		app.If(p.alert != "", func() app.UI {
			return el.P().Class("alert-text").Text(p.alert)
		}),
		app.If(p.alert != "", func() app.UI {
			return el.Button().Attr("type", "button").Class("quiet").Text("Dismiss").OnClick(p.onDismiss)
		}),
	)
}

// renderNotice draws the calm message about the last action, under the
// transport, in a space of its own: when there is no message it says what
// Fork here does, so that the controls above never move.
func (p *Playground) renderNotice() app.UI {
	if p.opening != nil {
		return p.renderOpening()
	}
	return el.Div().Class("play-note").Body(
		el.P().ID("play-notice").Class("notice").TabIndex(-1).Aria("live", "polite").Text(p.notice),
		app.If(p.notice == "" && p.chal.c == nil, func() app.UI {
			return el.P().Class("muted fork-hint").Text("Fork here keeps the past up to this pass and starts a second future beside this one, to compare.")
		}),
		app.If(len(p.futures.all) == 2, func() app.UI {
			return el.A().Class("to-futures").Attr("href", "#futures-title").Text("Compare the two futures")
		}),
	)
}
