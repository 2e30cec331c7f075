package app

import (
	"fmt"
	"reconcile/app/el"
	"reconcile/app/session"
	"reconcile/engine/limits"
	"slices"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// How the playground keeps the learner's work: it reads the slot's file
// when the page opens, saves it a moment after each change (an edit, an
// input, a step, a fork), and exports, imports and shares it. Storage is
// reached off the UI goroutine (ctx.Async); what it finds comes back
// through ctx.Dispatch.

// loadSlot reads the work saved in the page's slot, if any, and opens it
// a slice at a time (playopen.go).
func (p *Playground) loadSlot(ctx app.Context) {
	p.loading = true
	slot := p.slot
	ctx.Async(func() {
		var (
			o        *session.Opening
			found    bool
			problem  string
			err      error
			slots    []string
			setAside []string
		)
		st, serr := storage()
		if serr != nil {
			err = serr
		} else {
			if data, ok := takeUnsaved(slot); ok {
				// The last page left before it saved: its work is the
				// latest. A damaged copy is set aside by load.
				_ = st.write(slotFile(slot), data)
			}
			found, problem, err = st.load(slot, func(name string, data []byte) error {
				var rerr error
				o, rerr = session.Open(name, data)
				return rerr
			})
			if err == nil {
				slots, setAside, err = st.slots()
			}
		}
		ctx.Dispatch(func(ctx app.Context) {
			if p.slot != slot {
				return
			}
			p.loading = false
			switch {
			case err != nil:
				p.saveStatus = "Your work cannot be kept in this browser: " + err.Error()
			case found:
				p.saveStatus = "Your work is saved in this browser as you go."
				p.beginOpening(ctx, &playOpening{o: o, what: "your saved work",
					done: func(ctx app.Context, w *session.Work) {
						p.work(w)
						p.saveStatus = "Restored the work saved in this browser."
						if w.Differs {
							p.notice = "This work was saved by another version of Reconcile: it replays, but to a different trace."
						}
						p.slotOpened(ctx, slot)
					},
					kept: func(ctx app.Context, w *session.Work, done, total int) {
						if w != nil {
							p.work(w)
						}
						p.notice = stoppedNotice("your saved work", w, done, total,
							"All of it is still saved in this browser, untouched until you change something here: reload this page to open all of it. Once you change something, what is shown is saved in its place.")
						p.slotOpened(ctx, slot)
					},
					failed: func(ctx app.Context, oerr error) { p.refuseSlot(ctx, slot, oerr) },
				})
			default:
				p.saveStatus = "Your work is saved in this browser as you go."
			}
			if problem != "" {
				p.alert = problem
				p.focus(ctx, "play-alert")
			}
			p.listed(slots, setAside)
		})
	})
}

// openShared opens a share link's work in the shared slot, a slice at a
// time (playopen.go). It reports false, with the reason in the alert,
// when the link cannot be read; one that reads but does not replay says
// so when its replay gets there, and then failed is called.
func (p *Playground) openShared(ctx app.Context, fragment string, failed func(ctx app.Context)) bool {
	if o := p.opened; o.fragment == fragment && p.slot == sharedSlot && p.ses != nil && p.ses.N() == o.pass && p.ses.Digest() == o.digest {
		return true // this link's work, as it opened, is what is shown
	}
	if op := p.opening; op != nil && op.fragment == fragment {
		return true // being opened
	}
	var o *session.Opening
	ok := guard(&p.alert, "Opening the share link", func() {
		data, err := decodeShare(fragment)
		if err == nil {
			o, err = session.Open("the share link", data)
		}
		if err != nil {
			p.alert = "This share link cannot be opened, so nothing of it was run: " + err.Error()
		}
	})
	if !ok || o == nil {
		p.focus(ctx, "play-alert")
		return false
	}
	p.cancelOpening()
	p.beginOpening(ctx, &playOpening{o: o, what: "the share link", fragment: fragment,
		done: func(ctx app.Context, w *session.Work) { p.sharedOpened(ctx, fragment, w, "") },
		kept: func(ctx app.Context, w *session.Work, done, total int) {
			rest := "Open the link again to open all of it."
			if w == nil {
				p.notice = stoppedNotice("the share link", nil, done, total, rest)
				return
			}
			p.sharedOpened(ctx, "", w, stoppedNotice("the share link", w, done, total, rest))
		},
		failed: func(ctx app.Context, err error) {
			p.alert = "This share link cannot be opened, so nothing of it was run: " + err.Error()
			p.focus(ctx, "play-alert")
			if failed != nil {
				failed(ctx)
			}
		},
	})
	return true
}

// scheduleSave saves the work after d, once for any number of changes
// made meanwhile.
func (p *Playground) scheduleSave(ctx app.Context, d time.Duration) {
	ctx = p.pageCtx(ctx)
	if p.chal.c != nil {
		return // a challenge is not work to keep
	}
	p.dirty = true
	if !app.IsClient || p.loading || p.saveQueued {
		return
	}
	p.saveQueued = true
	ctx.After(d, func(ctx app.Context) {
		p.saveQueued = false
		if p.dirty {
			p.save(ctx)
		}
	})
}

// save writes the work into the slot now (after the save in progress, if
// one is).
func (p *Playground) save(ctx app.Context) {
	ctx = p.pageCtx(ctx)
	if !app.IsClient || p.ses == nil || p.loading || p.chal.c != nil {
		return
	}
	if p.saving {
		p.saveAgain = true
		return
	}
	var data []byte
	if !guard(&p.alert, "Saving your work", func() {
		var err error
		data, err = p.state().Encode()
		if err != nil {
			panic(err)
		}
	}) {
		return
	}
	p.saving, p.dirty = true, false
	slot := p.slot
	ctx.Async(func() {
		var slots, setAside []string
		st, err := storage()
		if err == nil {
			err = st.write(slotFile(slot), data)
		}
		if err == nil {
			slots, setAside, err = st.slots()
		}
		ctx.Dispatch(func(ctx app.Context) {
			p.saving = false
			if err != nil {
				p.saveStatus = notSaved(err)
				p.savedNot()
			} else {
				p.saveStatus = "Saved in this browser at " + time.Now().Format("15:04:05") + "."
				announceSave(slot)
				p.savedOver()
				if len(p.editor.desired) > limits.MaxFileSize {
					p.saveStatus += fmt.Sprintf(" The desired state in the editor is %d bytes, over the limit of %d bytes (MaxFileSize), so the last text within it was saved.", len(p.editor.desired), limits.MaxFileSize)
				}
				p.listed(slots, setAside)
			}
			if p.saveAgain {
				p.saveAgain = false
				p.save(ctx)
			}
		})
	})
}

// share makes a share link of the work and copies it.
func (p *Playground) share(ctx app.Context) {
	if p.ses == nil {
		return
	}
	p.shareLink, p.shareNote = "", ""
	guard(&p.alert, "Making the share link", func() {
		frag, err := encodeShare(p.state())
		if err != nil {
			p.alert = err.Error()
			p.focus(ctx, "play-alert")
			return
		}
		p.shareLink = siteOrigin() + "/play#" + frag
		p.shareNote = "Copying…"
		copyText(p.ctx, p.shareLink, func(ctx app.Context, ok bool) {
			if ok {
				p.shareNote = fmt.Sprintf("Copied a link of %d characters. Whoever opens it gets this scenario, these inputs and this pass.", len(p.shareLink))
			} else {
				p.shareNote = "Select the link below and copy it."
			}
		})
	})
}

// startOver discards the slot's work and starts its scenario afresh; Undo
// brings the work back.
func (p *Playground) startOver(ctx app.Context) {
	if p.ses == nil {
		return
	}
	p.undo = p.state()
	p.alert = ""
	p.fresh()
	p.notice = "Started over from the beginning. Undo brings your work back."
	p.changed(ctx, change{inputs: true})
	p.focus(ctx, "play-notice")
}

// undoLast brings back the work the last Start over or import replaced.
func (p *Playground) undoLast(ctx app.Context) {
	if p.undo == nil {
		return
	}
	st := p.undo
	p.undo = nil
	guard(&p.alert, "Undo", func() {
		sc, err := session.LoadScenarioText(st.File, st.Scenario)
		if err == nil {
			var w *session.Work
			if w, err = session.RestoreState(st, sc); err == nil {
				p.work(w)
				p.notice = "Your work is back."
			}
		}
		if err != nil {
			p.alert = "Undo failed: " + err.Error()
		}
	})
	p.changed(ctx, change{moved: true})
}

func shortDigest(d string) string {
	if len(d) > 12 {
		return d[:12]
	}
	return orDash(d)
}

// renderWork draws "Your work": saving, export, import, share link, the
// slots kept in this browser.
func (p *Playground) renderWork() app.UI {
	return el.Section().Class("work").Aria("labelledby", "work-title").Body(
		el.H2().ID("work-title").Text("Your work"),
		el.P().ID("save-status").Class("muted").Aria("live", "polite").Text(p.saveStatus),
		el.Div().Class("buttons").Body(
			el.Button().Attr("type", "button").Text("Export").OnClick(p.onExport).Attr("disabled", !p.view.Ready).Title("Download this work as a file"),
			el.Button().Attr("type", "button").Text("Copy share link").OnClick(p.onShare).Attr("disabled", !p.view.Ready),
			el.Button().Attr("type", "button").Class("quiet").Text("Start over").OnClick(p.onStartOver).Attr("disabled", !p.view.Ready || p.loading),
			app.If(p.undo != nil || p.news.overtaken == overtakenBy, func() app.UI {
				return el.Button().Attr("type", "button").Class("quiet").Text("Undo").OnClick(p.onUndo)
			}),
		),
		el.Div().Class("field import").Body(
			el.Label().Attr("for", "import").Text("Import a file"),
			el.Input().Attr("type", "file").ID("import").Attr("accept", ".json,application/json").OnChange(p.onImport).Attr("disabled", p.loading),
		),
		el.Div().Class("share-link").Body(
			app.If(p.shareLink != "", func() app.UI {
				return el.Div().Body(
					el.P().Aria("live", "polite").Text(p.shareNote),
					el.Label().Attr("for", "share-link").Text("Share link"),
					el.Input().Attr("type", "text").ID("share-link").Attr("readonly", true).Attr("value", p.shareLink),
				)
			}),
		),
		// Each list in a place of its own, the files set aside first: the
		// list of slots appears or grows with a save, and neither moves
		// nor replaces a Download being reached for.
		el.Div().Class("saved").Body(
			el.Div().Class("set-aside-files").Body(app.If(len(p.setAside) > 0, func() app.UI {
				return el.Div().Body(
					el.H3().Text("Set aside: could not be read"),
					el.Ul().Class("set-aside").Body(app.Range(p.setAside).Slice(func(i int) app.UI {
						name := p.setAside[i]
						return el.Li().Body(
							el.Code().Text(name), app.Text(" "),
							el.Button().Attr("type", "button").Class("quiet").Text("Download").Title("Download the file as it was kept, to read it or to report it").
								OnClick(func(ctx app.Context, e app.Event) { p.downloadSetAside(ctx, name) }),
						)
					})),
				)
			})),
			el.Div().Class("saved-slots").Body(app.If(len(p.saved) > 0, func() app.UI {
				return el.Div().Body(
					el.H3().Text("Saved in this browser"),
					el.Ul().Class("slots").Body(app.Range(p.saved).Slice(func(i int) app.UI {
						sl := p.saved[i]
						a := el.A().Attr("href", sl.href).Text(sl.title)
						if sl.slot == p.slot {
							a = a.Aria("current", "page")
						}
						return el.Li().Body(a)
					})),
				)
			})),
		),
		el.P().Class("digest").Body(
			app.Text("Trace digest "),
			el.Code().DataSet("digest", p.view.Digest).DataSet("pass", p.view.N).Text(orDash(p.view.Digest)),
		),
		el.P().Class("muted").Text(fmt.Sprintf("Limits: a scenario or desired state of %d bytes (MaxFileSize), %d objects (MaxObjects), %d replicas per workload (MaxReplicas), %d YAML aliases (MaxAliases); a share link of %d bytes (64 KiB).",
			limits.MaxFileSize, limits.MaxObjects, limits.MaxReplicas, limits.MaxAliases, maxShareBytes)),
	)
}

func (p *Playground) onExport(ctx app.Context, e app.Event)    { p.exportFile(ctx) }
func (p *Playground) onShare(ctx app.Context, e app.Event)     { p.share(ctx) }
func (p *Playground) onStartOver(ctx app.Context, e app.Event) { p.startOver(ctx) }
func (p *Playground) onUndo(ctx app.Context, e app.Event) {
	if p.news.overtaken == overtakenBy {
		p.takeBack(ctx)
		return
	}
	p.undoLast(ctx)
}

func (p *Playground) onImport(ctx app.Context, e app.Event) {
	p.act(ctx, "import", "Import", func() { p.importFile(ctx, ctx.JSSrc()) })
}

// dirtyOrInputs reports whether the work shown holds anything of the
// learner's: an input given or a pass stepped.
func (p *Playground) dirtyOrInputs() bool {
	return p.dirty || p.ses.N() > 0 || len(p.ses.Inputs()) > 0
}

// notSaved says why the work was not saved, and what to do. A browser
// whose storage for the site is full refuses the write of the new copy
// (IndexedDB: QuotaExceededError), or the rename after it finds no file.
// The browser's own word ends the error; the file names and operations
// before it are the storage's, not the learner's.
func notSaved(err error) string {
	why := err.Error()
	for _, part := range slices.Backward(strings.Split(why, ": ")) {
		if part = strings.TrimSpace(part); part != "" {
			why = part
			break
		}
	}
	return "Not saved: this site's storage in your browser is full or unavailable (the browser said: " + why + "). " +
		"Export your work to keep it now; then free space for the site: open the work you no longer need from Your work and Start over, " +
		"or clear this site's data in the browser's settings (which removes all work saved here)."
}
