package app

// The playground's work: a fresh start, work opened, and the work as a
// session.State to save.

import (
	"reconcile/app/session"
	"reconcile/engine/limits"
	"reconcile/scenarios"
)

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
		if p.slot == challengeSlot(p.from) {
			sc = sc.ForChallenge() // the lesson's own fix is the learner's
		}
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
