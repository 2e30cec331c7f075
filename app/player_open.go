package app

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/session"
	"reconcile/engine/api"
	"reconcile/engine/sim"
)

// replay plays a failure lesson to its symptom when u asks for it
// (?play=symptom, the failure table's Replay), once per address, once the
// page is mounted (it plays on the page's clock).
func (p *Player) replay(ctx app.Context, u *url.URL) {
	if u == nil || u.Query().Get("play") != "symptom" || !p.mounted || p.ses == nil || p.sc.Failure == nil || p.replayed == u.String() {
		return
	}
	p.replayed = u.String()
	p.playToSymptom(ctx, true)
}

// open loads the lesson of u (once per id) and seeks to u's ?pass=N.
func (p *Player) open(u *url.URL) {
	if u == nil {
		return
	}
	p.embed = embedded(u)
	id := strings.Trim(strings.TrimPrefix(u.Path, "/s/"), "/")
	defer releaseGC() // unless a catch-up took the pause over (catchup.go)
	if id != p.id || (p.ses == nil && !p.missing && p.alert == "") {
		// In the browser, a lesson opened at its start shows before the
		// player looks ahead to learn where the run ends (settle does, a
		// slice at a time): the learner need not wait for it.
		q := u.Query()
		if app.IsClient && q.Get("pass") != "" {
			holdGC() // a deep link: no collection while its world is built
		}
		p.load(id, app.IsClient && q.Get("pass") == "" && q.Get("t") == "" && q.Get("at") == "")
	}
	if p.ses == nil {
		return
	}
	want := 0
	if s := u.Query().Get("pass"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			p.alert = fmt.Sprintf("?pass=%s is not a pass number; showing the start of the run.", s)
		} else {
			want = n
		}
	}
	var at api.Time
	if s := u.Query().Get("t"); s != "" {
		d, err := api.ParseDuration(s)
		if err != nil {
			p.alert = fmt.Sprintf("?t=%s is not a simulated time; showing pass %d.", s, want)
		} else {
			at = d
		}
	}
	var inputs []sim.Given
	if s := u.Query().Get("in"); s != "" && len(p.ses.Inputs()) == 0 {
		var err error
		if inputs, err = parseInputsParam(s); err != nil {
			p.alert = err.Error() + "; showing the lesson without them."
		}
	}
	if len(inputs) == 0 && want == p.view.N && (at == 0 || at == p.ses.Now()) {
		return
	}
	if c := p.catching; c != nil {
		if len(inputs) == 0 && c.to == want && c.at == at {
			return // on its way there
		}
		p.dropCatchUp()
	}
	if len(inputs) > 0 {
		guard(&p.alert, "Giving the inputs of the address", func() {
			if err := giveInputs(p.ses, inputs); err != nil {
				p.alert = err.Error()
				p.ses.Seek(0)
			}
		})
	}
	// In the browser, a pass far ahead is computed a slice at a time, the
	// page showing the progress meanwhile (catchup.go); the rest of the
	// way there is then as below.
	first := catchUpAtOnce
	if p.ses.Big() {
		first = 0 // one pass: the catch-up looks for a snapshot first
	}
	if app.IsClient && !p.beginCatchUp(want, at, first) {
		return
	}
	guard(&p.alert, fmt.Sprintf("Going to pass %d", want), func() {
		switch {
		case at == 0:
			if err := p.ses.Seek(want); err != nil {
				p.alert = err.Error()
			}
		case !p.ses.AtTime(want, at):
			p.alert = fmt.Sprintf("Pass %d is not followed by t=%s without another pass; showing pass %d.", want, at, want)
		}
	})
	p.refresh()
	p.readChecks()
}

// load reads the bundled scenario id and prepares a run of it. With later
// set, the look-ahead is only begun: settle runs it.
func (p *Player) load(id string, later bool) {
	// Field by field: the embedded app.Compo belongs to go-app.
	p.id, p.sc = id, nil
	p.missing, p.alert, p.notice = false, "", ""
	p.atSymptom, p.responded, p.embedCode, p.copied, p.converged = false, false, "", "", false
	p.asking, p.answer, p.guesses = nil, "", nil
	p.dropCatchUp()
	p.use(nil)
	sc, found, err := openLesson(id)
	switch {
	case !found:
		p.missing = true
		return
	case err != nil:
		p.alert = "This lesson cannot be read: " + err.Error()
		return
	}
	p.sc = sc
	var ses *session.Session
	guard(&p.alert, "Starting the simulation", func() {
		s, err := session.Start(sc.Config())
		if err != nil {
			p.alert = "The simulation cannot start: " + err.Error()
			return
		}
		switch known, final, ok := prerenderedEnd(id); {
		case !later && !(app.IsClient && s.Big()):
			// In the browser, a big world's deep link looks ahead a
			// slice at a time too: its catch-up (and the snapshot it
			// may fetch) must not wait for a look-ahead from the start.
			// The prerender looks ahead here: the page it writes says
			// how far the run is known to go.
			s.LookAhead()
		case ok:
			// What the server's look-ahead learned, until the browser's own
			// confirms it: the page shows what the prerendered page showed.
			s.Assume(known, final)
			s.BeginLookAhead()
		default:
			s.BeginLookAhead()
		}
		ses = s
	})
	p.use(ses)
	p.reader.Moments = nil
	if sc.Failure != nil {
		p.reader.Moments = []session.Moment{{At: session.SymptomAt(sc), Kind: session.MarkSymptom, Label: "the symptom: " + sc.Failure.Symptom}}
	}
	p.refresh()
	p.readChecks()
}
