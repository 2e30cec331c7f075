package challenge

import (
	"fmt"
	"slices"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/check"
	"reconcile/engine/kubectl"
	"reconcile/engine/manifest"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
	"reconcile/engine/yamlpos"
)

// State is where a challenge stands.
type State int

const (
	// Waiting: the run has not reached the challenge's start.
	Waiting State = iota
	// NotYet: the goal does not hold.
	NotYet
	// Holding: the goal holds, not yet for the whole hold time.
	Holding
	// Solved: the goal held for the hold time, within the limits.
	Solved
	// Shortcut: a forbidden shortcut was taken.
	Shortcut
	// OverBudget: more requests failed than the budget allows.
	OverBudget
	// OutOfTime: the time limit passed before the goal was reached.
	OutOfTime
)

var stateNames = [...]string{"waiting", "not yet", "holding", "solved", "shortcut", "over budget", "out of time"}

func (s State) String() string { return stateNames[s] }

// Final reports whether nothing the learner does can change the state.
func (s State) Final() bool { return s >= Solved }

// Status is what Judge.Observe finds.
type Status struct {
	State State
	// At is the simulated time observed.
	At api.Time
	// Since is when the goal began to hold (Holding, Solved); Held is how
	// long it has held, Hold how long it must.
	Since      api.Time
	Held, Hold api.Duration
	// Failing are the goal's assertions that do not hold now, each with
	// what was found (NotYet).
	Failing []*check.Failure
	// Forbid is the shortcut taken and Input the input that took it
	// (Shortcut; Input is nil for a count that grew).
	Forbid *scenario.Forbid
	Input  *sim.Given
	// Failed is how many requests failed since the start (counted when
	// the lesson sends traffic), Budget how many may (-1: no budget).
	Failed, Budget int
	// PodsReplaced is how many pods that were running at the start, or
	// started since, have been deleted (terminating or gone): what the
	// fix cost in pods, beside Failed.
	PodsReplaced int
	// Message says why the budget is the lesson's (OverBudget; "" when
	// the challenge gives no message).
	Message string
	// Deadline is when the time limit passes (0: no limit).
	Deadline api.Time
}

// Why says the status in one line: "solved: the goal held for 30s from
// t=1m40s", "not yet: deployment/web spec.replicas == 5: got 3", ...
func (st Status) Why() string {
	switch st.State {
	case Waiting:
		return "waiting: the challenge has not started"
	case NotYet:
		return "not yet: " + st.failing()
	case Holding:
		return fmt.Sprintf("holding: the goal has held for %s of %s", check.Duration(st.Held), check.Duration(st.Hold))
	case Solved:
		return fmt.Sprintf("solved: the goal held for %s from t=%s", check.Duration(st.Hold), check.Duration(st.Since))
	case Shortcut:
		what := st.Forbid.Action + " " + st.Forbid.Target
		if st.Input != nil {
			what = fmt.Sprintf("%q at t=%s", st.Input.Input.Text(), check.Duration(st.Input.At))
		}
		return fmt.Sprintf("shortcut: %s: %s", what, st.Forbid.Message)
	case OverBudget:
		failed := fmt.Sprintf("%d requests", st.Failed)
		if st.Failed == 1 {
			failed = "1 request"
		}
		why := fmt.Sprintf("over budget: %s failed since the start; the budget is %d", failed, st.Budget)
		if st.Message != "" {
			why += ": " + st.Message
		}
		return why
	case OutOfTime:
		why := fmt.Sprintf("out of time: the goal was not reached by t=%s", check.Duration(st.Deadline))
		if len(st.Failing) > 0 {
			why += " (" + st.failing() + ")"
		}
		return why
	}
	return st.State.String()
}

func (st Status) failing() string {
	var parts []string
	for _, f := range st.Failing {
		parts = append(parts, f.What+": "+f.Got)
	}
	return strings.Join(parts, "; ")
}

// Judge follows one run of a challenge. Call Observe after every pass,
// after every input and when the clock moves on without a pass (the world
// is still then, so what held at the last pass holds): the goal must be
// seen to hold at each of them, so a fix that flaps back does not count.
type Judge struct {
	sc    *scenario.Scenario
	ch    *scenario.Challenge
	start api.Time
	// counts are the number of objects of each kind an add: forbids,
	// when the learner gave the first input.
	counts map[string]int
	// pods are the UIDs of the pods seen not terminating since the start
	// (or the learner's first input, when it came earlier).
	pods    map[string]bool
	started bool
	holding bool
	since   api.Time
	final   *Status
}

// New returns a judge for sc's challenge, or an error when it has none.
func New(sc *scenario.Scenario) (*Judge, error) {
	if sc.Challenge == nil {
		return nil, fmt.Errorf("%s: the scenario has no challenge", sc.ID)
	}
	return &Judge{sc: sc, ch: sc.Challenge, start: sc.Challenge.Start}, nil
}

// Start is when the challenge starts.
func (j *Judge) Start() api.Time { return j.start }

// Observe judges the run as it is now. Once the state is final it stays.
func (j *Judge) Observe(s *sim.Sim) Status {
	if j.final != nil {
		return *j.final
	}
	now := s.Now()
	st := Status{At: now, Hold: j.ch.Hold, Budget: -1}
	if j.ch.Within > 0 {
		st.Deadline = j.start + j.ch.Within
	}
	if j.ch.FailedRequests != nil {
		st.Budget = *j.ch.FailedRequests
	}
	if len(s.Inputs()) == 0 {
		// Until the learner's first input the world is the lesson's own:
		// what an add: counts grows from there.
		j.counts = map[string]int{}
		for _, f := range j.ch.Forbid {
			if f.Action == scenario.ForbidAdd {
				j.counts[f.Kind] = s.Store().Count(f.Kind)
			}
		}
	}
	if !j.started {
		if now < j.start {
			st.State = Waiting
			return st
		}
		j.started = true
	}
	end := func(state State) Status {
		st.State = state
		j.final = &st
		return st
	}
	st.PodsReplaced = j.replaced(s)
	// Shortcuts first: a goal reached by one is not solved.
	for i := range j.ch.Forbid {
		f := &j.ch.Forbid[i]
		if f.Action == scenario.ForbidAdd {
			if s.Store().Count(f.Kind) > j.counts[f.Kind] {
				st.Forbid = f
				return end(Shortcut)
			}
			continue
		}
		for k, g := range s.Inputs() {
			if takes(s, g, f) {
				in := s.Inputs()[k]
				st.Forbid, st.Input = f, &in
				return end(Shortcut)
			}
		}
	}
	if st.Budget >= 0 || len(j.sc.Traffic) > 0 {
		// From the start, or from the learner's first input when it came
		// earlier (after the last pass before the start).
		from := j.start
		if in := s.Inputs(); len(in) > 0 {
			from = min(from, in[0].At)
		}
		st.Failed = s.TrafficWindow("", from, now+api.Second).Failed
		if st.Budget >= 0 && st.Failed > st.Budget {
			st.Message = j.ch.BudgetMessage
			return end(OverBudget)
		}
	}
	for _, e := range j.ch.Goal {
		if f := check.Expect(s, e); f != nil {
			f.At = now
			st.Failing = append(st.Failing, f)
		}
	}
	if len(st.Failing) > 0 {
		j.holding = false
		if st.Deadline > 0 && now >= st.Deadline {
			return end(OutOfTime)
		}
		st.State = NotYet
		return st
	}
	if !j.holding {
		j.holding, j.since = true, now
	}
	st.Since, st.Held = j.since, now-j.since
	if st.Held >= j.ch.Hold {
		st.Held = j.ch.Hold
		return end(Solved)
	}
	if st.Deadline > 0 && now >= st.Deadline {
		return end(OutOfTime)
	}
	st.State = Holding
	return st
}

// replaced counts the pods seen not terminating since the start that are
// terminating or gone now. The judge sees the world after every pass, so
// a pod that lived through a pass is seen.
func (j *Judge) replaced(s *sim.Sim) int {
	if j.pods == nil {
		j.pods = map[string]bool{}
	}
	live := 0
	for o := range s.Store().Each("Pod") {
		m := o.Meta()
		if m.DeletionTimestamp == nil {
			j.pods[m.UID] = true
			live++
		}
	}
	return len(j.pods) - live
}

// HoldsUntil is when the goal, holding now, will have held for the hold
// time; false when it does not hold or the state is final.
func (j *Judge) HoldsUntil() (api.Time, bool) {
	if j.final != nil || !j.holding {
		return 0, false
	}
	return j.since + j.ch.Hold, true
}

// editCommands are the kubectl commands that write to the objects they name.
var editCommands = map[string]bool{"scale": true, "set image": true, "patch": true, "label": true, "annotate": true,
	"rollout undo": true, "rollout pause": true, "rollout resume": true, "rollout restart": true, "create deployment": true, "apply": true}

// takes reports whether input g takes the shortcut f.
func takes(s *sim.Sim, g sim.Given, f *scenario.Forbid) bool {
	switch in := g.Input.(type) {
	case sim.Fault:
		return f.Action == scenario.ForbidDelete && in.Verb == "delete-pod" && f.Kind == "Pod" ||
			f.Action == scenario.ForbidFault && in.Verb == f.Target
	case sim.Apply:
		if f.Action != scenario.ForbidEdit {
			return false
		}
		ds, err := manifest.DecodeTextAs(in.Manifests, yamlpos.Source{File: "input", Line: 1, Col: 1}, yamlpos.NewBudget(), manifest.Warn)
		if err != nil {
			return false
		}
		for _, d := range ds {
			if d.Object.GetTypeMeta().Kind == f.Kind && nameMatches(f.Name, d.Object.Meta().Name) {
				return true
			}
		}
	case sim.Kubectl:
		inv, err := kubectl.Parse(in.Line)
		if err != nil || inv.Command == "" || failed(s, g) {
			return false
		}
		switch {
		case f.Action == scenario.ForbidDelete && inv.Command == "drain":
			return f.Kind == "Pod" && inv.Bool("disable-eviction", false) && drainDeletes(s, inv.Args, f.Name)
		case f.Action == scenario.ForbidDelete && inv.Command == "delete":
		case f.Action == scenario.ForbidEdit && editCommands[inv.Command]:
			if inv.Command == "create deployment" {
				return f.Kind == "Deployment" && len(inv.Args) > 0 && nameMatches(f.Name, inv.Args[0])
			}
		default:
			return false
		}
		return names(inv.Args, f)
	}
	return false
}

// drainDeletes reports whether a drain of nodes with --disable-eviction,
// which deletes their pods without asking the Eviction API (and so without
// asking any PodDisruptionBudget), deleted a pod whose name matches
// pattern: a pod bound to one of the nodes (to any node for a drain that
// picks its nodes with a selector), now being deleted.
func drainDeletes(s *sim.Sim, nodes []string, pattern string) bool {
	for _, o := range s.Objects() {
		p, ok := o.(*api.Pod)
		if !ok || p.DeletionTimestamp == nil || !nameMatches(pattern, p.Name) {
			continue
		}
		if len(nodes) == 0 || slices.Contains(nodes, p.Spec.NodeName) {
			return true
		}
	}
	return false
}

// names reports whether kubectl arguments ("deployment/web", "deploy web",
// "pods" with a selector) name f's kind and name.
func names(args []string, f *scenario.Forbid) bool {
	if len(args) == 0 {
		return false
	}
	if strings.Contains(args[0], "/") {
		for _, a := range args {
			word, name, _ := strings.Cut(a, "/")
			if k, ok := api.KindNamed(word); ok && k.Name == f.Kind && nameMatches(f.Name, name) {
				return true
			}
		}
		return false
	}
	var kinds []string
	for _, w := range strings.Split(args[0], ",") {
		if k, ok := api.KindNamed(w); ok {
			kinds = append(kinds, k.Name)
		}
	}
	match := false
	for _, k := range kinds {
		match = match || k == f.Kind
	}
	if !match {
		return false
	}
	if len(args) == 1 {
		return true // every object of the kind, or those a selector picks
	}
	for _, name := range args[1:] {
		if nameMatches(f.Name, name) {
			return true
		}
	}
	return false
}

func nameMatches(pattern, name string) bool {
	if pattern == "" || pattern == "*" {
		return true
	}
	if pre, post, ok := strings.Cut(pattern, "*"); ok {
		return len(name) >= len(pre)+len(post) && strings.HasPrefix(name, pre) && strings.HasSuffix(name, post)
	}
	return pattern == name
}

// failed reports whether a kubectl input ended with a non-zero exit code:
// a command the API server refused changed nothing.
func failed(s *sim.Sim, g sim.Given) bool {
	text := g.Input.Text()
	for _, o := range s.Outputs() {
		if o.At == g.At && o.Command == text {
			return o.ExitCode > 0
		}
	}
	return false
}
