package app

import (
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/el"
	"reconcile/app/session"
	"reconcile/engine/api"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// Predict before run. At the moments a lesson marks (predict:), Next pass
// first asks what the next pass will do: which controller acts, how many
// pods it creates or deletes, whether anything changes. The choices are
// made from the pass itself, read on a copy of the run; the learner picks
// one (or skips), then the pass runs and the page says what it did. The
// answers are kept in the browser, so a question answered is not asked
// again.

// question is a prediction the page is asking.
type question struct {
	// mark is the lesson's predict: entry (its index).
	mark int
	text string
	// choices are the answers offered; right is the index of the true one.
	choices []string
	right   int
	// n is the pass the question is about.
	n int
	// at is the moment the page stands at while it asks: the clock runs
	// on from the last pass to the question's moment, or to the last
	// moment of the lesson's story before the pass if that is later, so
	// that what the story says motivates the question before it is
	// asked (never to the pass's own time: the pass, and what the story
	// says of it, are the answer). Zero: the page stays where it is.
	at api.Time
}

// guess is what the learner answered to a lesson's predict mark.
type guess struct {
	Choice string `json:"choice,omitempty"`
	Right  bool   `json:"right"`
	// Skipped is set when the learner ran the pass without guessing.
	Skipped bool `json:"skipped,omitempty"`
}

// guessesFile is where a lesson's answers are kept.
func guessesFile(id string) string { return path.Join("guesses", id+".json") }

// nextQuestion returns the question to ask before the next pass, if a
// predict mark of the lesson falls on it and has not been answered, and
// the learner has not changed the lesson's future with an input.
func nextQuestion(sc *scenario.Scenario, ses *session.Session, answered map[int]guess) (question, bool) {
	if len(ses.Inputs()) > 0 {
		// The lesson's questions are about its own future: once the
		// learner has changed it, the pass a question names is another.
		return question{}, false
	}
	pending := -1
	for i := range sc.Predict {
		if _, done := answered[i]; !done {
			pending = i
			break
		}
	}
	if pending < 0 {
		return question{}, false
	}
	// The next pass, read on a copy: the run is deterministic, so the run
	// meets the same pass.
	next, ok := ses.Peek()
	if !ok {
		return question{}, false
	}
	for i := pending; i < len(sc.Predict); i++ {
		pr := sc.Predict[i]
		if _, done := answered[i]; done {
			continue
		}
		// The question belongs to the first pass at or after its moment.
		prev := api.Time(-1)
		if n := ses.N(); n > 0 {
			if p, ok := ses.Pass(n); ok {
				prev = p.At
			}
		}
		if next.At >= pr.At && prev < pr.At {
			q := makeQuestion(i, pr.Ask, next, ses.ControllerNames())
			q.at = askAt(sc, pr.At, next.At, ses.Now())
			return q, true
		}
	}
	return question{}, false
}

// askAt is the moment a question marked at mark, about a pass at pass,
// is asked, the run's clock being at now: the later of mark and the last
// moment of the story before the pass, when it is after now and before the
// pass (zero otherwise).
func askAt(sc *scenario.Scenario, mark, pass, now api.Time) api.Time {
	at := mark
	for _, m := range sc.Story {
		if m.At < pass && m.At > at {
			at = m.At
		}
	}
	if at <= now || at >= pass {
		return 0
	}
	return at
}

// makeQuestion builds the question of kind ask (or the one that fits the
// pass, when ask is empty) about pass next; a "who acts" question offers
// some of the run's controllers as choices.
func makeQuestion(mark int, ask string, next sim.Pass, controllers []string) question {
	created, deleted := podChanges(next)
	if ask == "" {
		ask = scenario.AskWho
		if created+deleted > 0 {
			ask = scenario.AskCount
		}
	}
	q := question{mark: mark, n: next.N}
	switch ask {
	case scenario.AskCount:
		verb, n := "create", created
		if deleted > created {
			verb, n = "delete", deleted
		}
		q.text = fmt.Sprintf("Before pass %d runs: how many pods will it %s?", next.N, verb)
		set := []int{0, 1, n, n + 1}
		if n > 1 {
			set = append(set, n-1)
		}
		slices.Sort(set)
		set = slices.Compact(set)
		for _, v := range set {
			q.choices = append(q.choices, strconv.Itoa(v))
			if v == n {
				q.right = len(q.choices) - 1
			}
		}
	case scenario.AskChange:
		q.text = fmt.Sprintf("Before pass %d runs: will it change anything in the cluster?", next.N)
		q.choices = []string{"Yes: it writes to an object", "No: it finds nothing to change"}
		if !changesObjects(next) {
			q.right = 1
		}
	default:
		q.text = fmt.Sprintf("Before pass %d runs: which controller acts next?", next.N)
		names := []string{next.Controller}
		for _, c := range controllers {
			if !slices.Contains(names, c) {
				names = append(names, c)
			}
		}
		if !slices.Contains(names, "kubelet") {
			names = append(names, "kubelet")
		}
		// The true one and up to three others, in a fixed order.
		others := slices.Clone(names[1:])
		slices.Sort(others)
		choices := append([]string{next.Controller}, others[:min(3, len(others))]...)
		slices.Sort(choices)
		q.choices = choices
		q.right = slices.Index(choices, next.Controller)
	}
	return q
}

// podChanges counts the pods a pass created and deleted.
func podChanges(p sim.Pass) (created, deleted int) {
	for _, c := range p.Changed {
		if c.Kind != "Pod" {
			continue
		}
		switch c.Type {
		case "ADDED":
			created++
		case "DELETED":
			deleted++
		}
	}
	return created, deleted
}

// changesObjects reports whether a pass wrote any object (events aside).
func changesObjects(p sim.Pass) bool {
	for _, c := range p.Changed {
		if c.Kind != "Event" {
			return true
		}
	}
	return false
}

// ask implements asker: before the next pass runs, it asks the question
// of that pass if a predict mark of the lesson falls on it and has not been
// answered. It reports whether the pass must wait (a question is on
// screen).
func (p *Player) ask(ctx app.Context) bool {
	if p.asking != nil {
		return true // answer it or skip it first
	}
	if p.ses == nil || p.sc == nil || len(p.sc.Predict) == 0 {
		return false
	}
	var q question
	var ok bool
	guard(&p.alert, "Preparing the question", func() { q, ok = nextQuestion(p.sc, p.ses, p.guesses) })
	if !ok {
		return false
	}
	if q.at > 0 {
		// The clock runs on to the question's moment, no pass before it
		// (the next is at or after the moment): the inputs of the moment
		// are given, and the story line says what it says there.
		guard(&p.alert, "Going to the question's moment", func() { p.ses.StepTowards(q.at) })
		p.refresh()
		p.readChecks()
	}
	p.asking, p.answer = &q, ""
	p.focus(ctx, "predict-title")
	return true
}

// holds implements asker: a predict mark not yet answered falls between
// the last pass run and the next thing due, and the learner has not
// changed the lesson's future.
func (p *Player) holds(last, next api.Time) bool {
	if p.ses == nil || p.sc == nil || len(p.ses.Inputs()) > 0 {
		return false
	}
	for i, pr := range p.sc.Predict {
		if _, done := p.guesses[i]; !done && last < pr.At && next >= pr.At {
			return true
		}
	}
	return false
}

// answerQuestion records the learner's choice (or a skip) and runs the pass.
func (p *Player) answerQuestion(ctx app.Context, choice int) {
	q := p.asking
	if q == nil {
		return
	}
	g := guess{Skipped: choice < 0}
	p.answer, p.answerN = "", q.n
	if choice >= 0 && choice < len(q.choices) {
		g.Choice, g.Right = q.choices[choice], choice == q.right
		if g.Right {
			p.answer = "Your guess was right: " + q.choices[choice] + "."
		} else {
			p.answer = "Your guess: " + q.choices[choice] + ". The pass shows otherwise: " + q.choices[q.right] + "."
		}
	}
	if p.guesses == nil {
		p.guesses = map[int]guess{}
	}
	p.guesses[q.mark] = g
	p.asking = nil
	p.saveGuesses(ctx)
	p.stage.next(ctx) // tells the page (changed), which notes the progress
}

func (p *Player) onChoice(ctx app.Context, e app.Event) {
	i, err := strconv.Atoi(ctx.JSSrc().Get("dataset").Get("choice").String())
	if err == nil {
		p.answerQuestion(ctx, i)
	}
}

func (p *Player) onSkipQuestion(ctx app.Context, e app.Event) { p.answerQuestion(ctx, -1) }

// renderQuestion draws the question being asked, in place of the pass's
// sentence.
func (p *Player) renderQuestion() app.UI {
	q := p.asking
	return el.Section().Class("now predict").Aria("labelledby", "predict-title").Body(
		el.H2().ID("predict-title").TabIndex(-1).Class("what").Text(q.text),
		el.P().Class("why").Text("Guess, then the pass runs and shows you. The lesson asks because the answer is the loop's logic, not a detail."),
		el.Div().Class("choices").Role("group").Aria("labelledby", "predict-title").Body(
			app.Range(q.choices).Slice(func(i int) app.UI {
				return el.Button().Attr("type", "button").Class("choice").DataSet("choice", i).OnClick(p.onChoice).Text(q.choices[i])
			}),
			el.Button().Attr("type", "button").Class("quiet").Text("Skip the question").OnClick(p.onSkipQuestion),
		),
	)
}

// tally says how the learner did on this lesson's questions.
func (p *Player) tally() string {
	right, asked := countGuesses(p.guesses)
	if asked == 0 {
		return ""
	}
	return fmt.Sprintf("Your guesses in this lesson: %d of %d right.", right, asked)
}

// loadGuesses reads the lesson's answers kept in the browser.
func (p *Player) loadGuesses(ctx app.Context) {
	id := p.id
	ctx.Async(func() {
		st, err := storage()
		if err != nil {
			return // nothing is kept in this browser; the questions are asked again
		}
		data, found, err := st.read(guessesFile(id))
		if err != nil || !found {
			return
		}
		var got map[int]guess
		if json.Unmarshal(data, &got) != nil {
			return
		}
		ctx.Dispatch(func(ctx app.Context) {
			if p.id == id && len(p.guesses) == 0 {
				p.guesses = got
			}
		})
	})
}

// saveGuesses keeps the lesson's answers in the browser.
func (p *Player) saveGuesses(ctx app.Context) {
	if !app.IsClient {
		return
	}
	id, data := p.id, mustMarshal(p.guesses)
	ctx.Async(func() {
		if st, err := storage(); err == nil {
			_ = st.write(guessesFile(id), data) // losing a guess costs one question asked again
		}
	})
}

// mustMarshal encodes answers, which always encode.
func mustMarshal(v map[int]guess) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		return []byte("{}")
	}
	return data
}

// questionWords is the answer of the last question, for the now box.
func (p *Player) questionWords() string { return p.answer }
