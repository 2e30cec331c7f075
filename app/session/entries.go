package session

import (
	"cmp"
	"slices"
	"sort"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/sim"
)

// The pass log as a page draws it: the passes of the log's window, with
// the inputs given between them (what each printed, in full) and the
// stretches of simulated time in which nothing ran.

// QuietGap is the shortest stretch of simulated time between two passes
// that the pass log shows as quiet.
const QuietGap = 5 * api.Second

// Entry is one line of the pass log: a pass, an input (with what it
// printed, in full), or a quiet stretch of simulated time. Exactly one of
// its fields is set.
type Entry struct {
	Pass  *sim.Pass
	Input *InputEntry
	Quiet *QuietEntry
}

// InputEntry is an input as the pass log shows it.
type InputEntry struct {
	// After is the pass the input came after (0: before the first).
	After int
	// At is when it was given.
	At string
	// Text is the input as typed: "kubectl get pods", "fault: delete-pod
	// app=web", "kubectl apply -f -".
	Text string
	// Output is what it printed, never cut; ExitCode its exit code (-1
	// while a watching command still runs; 1 for a refused fault).
	Output   string
	ExitCode int
	// Learner says the learner gave it, not the lesson.
	Learner bool
	// Diff says it is kubectl diff, whose exit code 1 says that
	// differences were found, not that it failed.
	Diff bool
	// Since, when set, says the entry is not an input but what a command
	// given at Since and still running wrote on its own clock (sim.Act: a
	// drain's eviction tried again): Output is what it printed then.
	Since string
}

// QuietEntry is a stretch of at least QuietGap of simulated time between
// two passes in which no pass ran (inputs may have been given in it).
type QuietEntry struct {
	For        api.Duration
	Prev, Next sim.Pass
	// Words say what the stretch means (QuietWords), the controller that
	// ends it named from the run's registry.
	Words string
}

// placedInput is one of a run's inputs placed between its passes.
type placedInput struct {
	after   int
	at      api.Time
	in      sim.Input
	learner bool
	// rank orders the inputs that come after one pass: the steps given
	// right after it, then those given at a moment, then the learner's.
	rank int
}

// placeInputs places the inputs of run (its config's steps, then the
// learner's) between the passes it has run, in the order they are given;
// round is the run's start round (startRound). A timed step comes after
// the last pass before its time; one after the last pass is placed there
// whether or not the clock has reached it.
func placeInputs(run *sim.Sim, round int) []placedInput {
	n := run.PassCount()
	at := func(i int) api.Time { p, _ := run.Pass(i + 1); return p.At } // of pass i+1
	var out []placedInput
	for _, st := range run.Config().Steps {
		if st.Input == nil {
			continue
		}
		pi := placedInput{in: st.Input, rank: 1}
		switch {
		case st.AfterPass > 0:
			pi.after, pi.rank = st.AfterPass, 0
			if st.AfterPass <= n {
				pi.at = at(st.AfterPass - 1)
			}
		case st.At <= 0:
			pi.after = round
		default:
			pi.at = st.At
			pi.after = sort.Search(n, func(i int) bool { return at(i) >= st.At })
		}
		out = append(out, pi)
	}
	for _, g := range run.Inputs() {
		out = append(out, placedInput{after: g.After, at: g.At, in: g.Input, learner: true, rank: 2})
	}
	slices.SortStableFunc(out, func(a, b placedInput) int {
		return cmp.Or(cmp.Compare(a.after, b.after), cmp.Compare(a.at, b.at), cmp.Compare(a.rank, b.rank))
	})
	return out
}

// inputWords is an input as the log and the timeline name it.
func inputWords(in sim.Input) string {
	if f, ok := in.(sim.Fault); ok {
		return "fault: " + f.Text()
	}
	return in.Text()
}

// inputRecords finds in a run's record what each input it was given printed.
// An input with nothing recorded has not been given yet.
type inputRecords struct {
	outputs []sim.Output
	notes   []sim.Note
	used    map[int]bool // outputs, then notes (len(outputs)+i), matched already
}

func newInputRecords(run *sim.Sim) *inputRecords {
	return &inputRecords{outputs: run.Outputs(), notes: run.Notes(), used: map[int]bool{}}
}

// find returns the entry of an input, and false when the run has no record
// of it.
func (r *inputRecords) find(pi placedInput) (InputEntry, bool) {
	e := InputEntry{After: pi.after, At: pi.at.String(), Text: inputWords(pi.in), Learner: pi.learner}
	_, e.Diff = pi.in.(sim.Diff)
	if f, ok := pi.in.(sim.Fault); ok {
		// ofIt: a note of this fault, given at its time.
		ofIt := func(n sim.Note) bool { return n.At == pi.at && n.Fault == f }
		for i, n := range r.notes {
			if r.used[len(r.outputs)+i] || !ofIt(n) || (!n.Refused && !n.Applied()) {
				continue
			}
			r.used[len(r.outputs)+i] = true
			var out []string
			if n.Refused {
				out, e.ExitCode = append(out, "fault refused: "+n.Words), 1
			}
			// What the fault noted of its own, right after it.
			for j := i + 1; j < len(r.notes) && ofIt(r.notes[j]) && !r.notes[j].Refused && !r.notes[j].Applied(); j++ {
				r.used[len(r.outputs)+j] = true
				out = append(out, f.Verb+": "+r.notes[j].Words)
			}
			if len(out) > 0 {
				e.Output = strings.Join(out, "\n") + "\n"
			}
			return e, true
		}
		return e, false
	}
	commands := []string{oneSpaced(pi.in.Text())}
	if _, ok := pi.in.(sim.Commit); ok {
		commands = append(commands, "git commit && git push")
	}
	for i, o := range r.outputs {
		if r.used[i] || o.At != pi.at || !slices.Contains(commands, oneSpaced(o.Command)) {
			continue
		}
		r.used[i] = true
		e.Output, e.ExitCode = o.Output, o.ExitCode
		return e, true
	}
	return e, false
}

// oneSpaced is s with one space between its words.
func oneSpaced(s string) string { return strings.Join(strings.Fields(s), " ") }

// readEntries reads the pass log's lines: the passes of log (those after
// pass from, up to the current one), the inputs given after pass from, and
// the quiet stretches between the passes.
func readEntries(run *sim.Sim, round int, log []sim.Pass, from int) []Entry {
	var inputs []InputEntry
	var ats []api.Time
	recs := newInputRecords(run)
	for _, pi := range placeInputs(run, round) {
		if pi.after < from || pi.after > run.PassCount() {
			continue
		}
		if e, ok := recs.find(pi); ok {
			inputs, ats = append(inputs, e), append(ats, pi.at)
		}
	}
	inputs, ats = withActs(run, inputs, ats, from)
	out := make([]Entry, 0, len(log)+len(inputs))
	next := 0
	// given adds the inputs given after pass n, up to (not including) the
	// first one at or after until.
	given := func(n int, until api.Time) {
		for next < len(inputs) && inputs[next].After == n && (until < 0 || ats[next] < until) {
			out = append(out, Entry{Input: &inputs[next]})
			next++
		}
	}
	given(from, -1)
	for i := range log {
		p := &log[i]
		out = append(out, Entry{Pass: p})
		if i+1 == len(log) || log[i+1].At-p.At < QuietGap {
			given(p.N, -1)
			continue
		}
		// A quiet stretch: the inputs given soon after the pass come
		// before it, those given later in it after it.
		q := log[i+1]
		given(p.N, p.At+QuietGap)
		out = append(out, Entry{Quiet: &QuietEntry{For: q.At - p.At, Prev: *p, Next: q, Words: quietWords(run.Config().Registry(), *p, q)}})
		given(p.N, -1)
	}
	return out
}

// withActs places among the inputs (in the order they are given, ats
// their times) what commands still running wrote on their own clock
// after pass from (sim.Act), each after the inputs given before it.
func withActs(run *sim.Sim, inputs []InputEntry, ats []api.Time, from int) ([]InputEntry, []api.Time) {
	var acts []sim.Act
	for _, a := range run.Acts() {
		if a.After >= from && a.After <= run.PassCount() {
			acts = append(acts, a)
		}
	}
	if len(acts) == 0 {
		return inputs, ats
	}
	outIn := make([]InputEntry, 0, len(inputs)+len(acts))
	outAt := make([]api.Time, 0, len(inputs)+len(acts))
	i := 0
	for _, a := range acts {
		for i < len(inputs) && (inputs[i].After < a.After || (inputs[i].After == a.After && ats[i] <= a.At)) {
			outIn, outAt = append(outIn, inputs[i]), append(outAt, ats[i])
			i++
		}
		outIn = append(outIn, InputEntry{After: a.After, At: a.AtText, Text: a.Command, Output: a.Output, ExitCode: -1, Since: a.Started})
		outAt = append(outAt, a.At)
	}
	return append(outIn, inputs[i:]...), append(outAt, ats[i:]...)
}
