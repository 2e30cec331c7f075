package app

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/session"
	"reconcile/engine/api"
)

// Event handlers.

func (s *stage) onNext(ctx app.Context, e app.Event)        { s.next(ctx) }
func (s *stage) onPrevious(ctx app.Context, e app.Event)    { s.previous(ctx) }
func (s *stage) onReset(ctx app.Context, e app.Event)       { s.reset(ctx) }
func (s *stage) onPlay(ctx app.Context, e app.Event)        { s.togglePlay(ctx) }
func (s *stage) onInject(ctx app.Context, e app.Event)      { s.inject(ctx) }
func (s *stage) onDismiss(ctx app.Context, e app.Event)     { s.alert = "" }
func (s *stage) onDials(ctx app.Context, e app.Event)       { s.dialsOpen = !s.dialsOpen }
func (s *stage) onNowOpen(ctx app.Context, e app.Event)     { s.nowOpen = !s.nowOpen }
func (s *stage) onNextEvent(ctx app.Context, e app.Event)   { s.nextEvent(ctx) }
func (s *stage) onSkipStartup(ctx app.Context, e app.Event) { s.skipStartup(ctx) }
func (s *stage) onExplainFields(ctx app.Context, e app.Event) {
	s.explainFields = !s.explainFields
}

// onMark goes to the pass a timeline mark names.
func (s *stage) onMark(ctx app.Context, e app.Event) {
	n, err := strconv.Atoi(ctx.JSSrc().Get("dataset").Get("pass").String())
	if err == nil && n >= 0 {
		s.seek(ctx, n)
	}
}

func (s *stage) onTimeline(ctx app.Context, e app.Event) {
	n, err := strconv.Atoi(ctx.JSSrc().Get("value").String())
	if err != nil || !s.idle() || n == s.view.N {
		return
	}
	s.pause()
	s.seek(ctx, n)
}

func (s *stage) onVerb(ctx app.Context, e app.Event) {
	s.fault = session.FaultForm{Verb: ctx.JSSrc().Get("value").String()}
}

func (s *stage) onTarget(ctx app.Context, e app.Event) {
	s.fault.Target = ctx.JSSrc().Get("value").String()
}

func (s *stage) onExtra(ctx app.Context, e app.Event) {
	s.fault.Extra = ctx.JSSrc().Get("value").String()
}

func (s *stage) onFollow(ctx app.Context, e app.Event) {
	s.reader.Selected = api.Ref{}
	s.refresh()
	s.tell(ctx, change{})
}

// onPick selects for the inspector the object the pressed button names
// (data-ref). The button, not a closure, carries the object: go-app keeps
// the first handler of an element whose handler is the same function.
func (s *stage) onPick(ctx app.Context, e app.Event) {
	if ref, ok := parseRef(ctx.JSSrc().Get("dataset").Get("ref").String()); ok {
		s.pick(ctx, ref)
	}
}

// onNodePage shows another page of the cluster's nodes.
func (s *stage) onNodePage(ctx app.Context, e app.Event) {
	if n, ok := nodePageOf(ctx); ok {
		s.reader.NodePage = n
		s.refresh()
	}
}
