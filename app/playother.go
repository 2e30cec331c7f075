package app

// What a save tells the page beyond Your work's status: another tab's
// save of the slot this page shows (the copy kept in the browser is then
// that tab's: the page says so, with an Undo that saves this tab's version
// over it again), and whether work just opened is kept: a notice says it
// only once the save went through, and says so when it did not.

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// saveNews is what the next save's outcome is to tell.
type saveNews struct {
	overtaken overtaken
	// kept is the sentence that ends the notice on once the save went
	// through.
	kept, on string
}

// keptOnceSaved ends the notice with kept once the save goes through.
func (p *Playground) keptOnceSaved(kept string) {
	p.news.kept, p.news.on = kept, p.notice
}

// overtaken is where this page stands after another tab saved its slot.
type overtaken int

const (
	notOvertaken overtaken = iota
	// overtakenBy: the copy kept is the other tab's; Undo saves this one.
	overtakenBy
	// takingBack: Undo was pressed; this tab's version is being saved.
	takingBack
)

// otherSaved hears that another tab has saved slot.
func (p *Playground) otherSaved(ctx app.Context, slot string) {
	if slot != p.slot || p.chal.c != nil {
		return
	}
	p.news.overtaken = overtakenBy
	p.notice = "Another tab has just saved this work: the copy kept in this browser is now that tab's. " +
		"Undo saves this tab's version over it again; to go on from that tab's work instead, reload this page. " +
		"What you do here next is saved over it too."
}

// takeBack saves this tab's version over the other tab's save, and says
// so once it is saved.
func (p *Playground) takeBack(ctx app.Context) {
	ctx = p.pageCtx(ctx)
	if p.ses == nil || p.loading {
		return
	}
	data, err := p.state().Encode()
	if err != nil {
		p.alert = "Saving this tab's version failed: " + err.Error()
		return
	}
	p.news.overtaken = takingBack
	p.notice = "Saving this tab's version…"
	slot := p.slot
	ctx.Async(func() {
		st, err := storage()
		if err == nil {
			err = st.write(slotFile(slot), data)
		}
		ctx.Dispatch(func(ctx app.Context) {
			if err != nil {
				p.saveStatus = notSaved(err)
				p.news.overtaken = overtakenBy
				p.notice = "This tab's version could not be saved (see Your work): the copy kept in this browser is still the other tab's."
				return
			}
			p.saveStatus = "Saved in this browser at " + time.Now().Format("15:04:05") + "."
			announceSave(slot)
			p.news.overtaken = notOvertaken
			p.notice = "This tab's version is saved again: the copy kept in this browser is this tab's, as it was before the other tab saved."
		})
	})
}

// savedOver is told that this tab's save went through: the copy kept is
// this tab's again.
func (p *Playground) savedOver() {
	if p.news.kept != "" && p.notice == p.news.on {
		p.notice += p.news.kept
	}
	p.news = saveNews{}
}

// savedNot is told that this tab's save failed (Your work says why).
func (p *Playground) savedNot() {
	if p.news.kept != "" && p.notice == p.news.on {
		p.notice += " It is not kept in this browser: it could not be saved (see Your work)."
	}
	p.news.kept, p.news.on = "", ""
}

// pageCtx is the page's own context, once it is mounted: work that
// outlives the control that began it (a save after Undo, whose button
// goes once it is pressed) is dispatched through it, since go-app drops
// what is dispatched through the context of a control no longer there.
func (p *Playground) pageCtx(ctx app.Context) app.Context {
	if p.mounted {
		return p.ctx
	}
	return ctx
}
