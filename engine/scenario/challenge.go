package scenario

import (
	"fmt"
	"reflect"
	"strings"

	"gopkg.in/yaml.v3"

	"reconcile/engine/api"
	"reconcile/engine/assertion"
	"reconcile/engine/fault"
	"reconcile/engine/yamlpos"
)

// Challenge is the lesson turned into an exercise: from a moment of the
// run (its start or its symptom) the learner must bring the world to a
// goal that holds for a stated simulated time, within limits, with hints
// and a reference solution. A challenge adds nothing to the lesson's own
// run (Config leaves it out): it is played by package challenge.
type Challenge struct {
	Pos yamlpos.Pos
	// Start is the simulated time the challenge starts at: the learner's
	// inputs come at or after it. StartText says how the file gave it
	// ("start", "symptom" or a time).
	Start     api.Duration
	StartText string
	// Goal are assertions (the that: language of expects) that must all
	// hold on the live world, and keep holding for Hold.
	Goal []Expect
	Hold api.Duration
	// Within is the time limit from Start (0: none).
	Within api.Duration
	// FailedRequests is the budget of failed requests of the lesson's
	// traffic from Start (nil: no budget).
	FailedRequests *int
	// Budget says why the budget is the lesson's (BudgetMessage) and
	// gives inputs that go over it (BudgetTry): reconcile check proves
	// they do. Both come with the mapping form of failedRequests.
	BudgetMessage string
	BudgetTry     []Step
	// Forbid are the shortcuts that are not the lesson's answer.
	Forbid []Forbid
	// Hints follow the three questions.
	Hints Hints
	// Solution is the reference solution: inputs at simulated times or
	// after passes, in the form of the scenario's steps.
	Solution []Step
	// Why is the lesson's sentence for why the solution works.
	Why string
	// Questions is the answer key of the three questions (nil: none).
	Questions *Questions
	// Withhold are lesson steps at or after Start that the challenge's
	// run goes without: the lesson's own fix, left to the learner
	// (ForChallenge leaves them out; the lesson's run keeps them).
	Withhold []Step
}

// Questions is the answer key of the three questions about the loop, as
// a learner answers them from what the world shows:
//
//	questions:
//	  controller: deployment-controller
//	  object: deployment/web
//	  says: {condition: Progressing, reason: ProgressDeadlineExceeded}   # or {event: FailedScheduling}
type Questions struct {
	Pos yamlpos.Pos
	// Controller is the controller responsible for closing the gap (a
	// controller of this world).
	Controller    string
	ControllerPos yamlpos.Pos
	// Object is the object whose metadata.generation against
	// status.observedGeneration tells whether it has seen the change, as
	// written (deployment/web); Kind and Name are the API's.
	Object, Kind, Name string
	ObjectPos          yamlpos.Pos
	// Says is the evidence line: a condition of the object (with its
	// reason, "" for any) or an event's reason.
	Says Says
}

// Says is the evidence line of the third question.
type Says struct {
	Pos                      yamlpos.Pos
	Condition, Reason, Event string
}

// The actions a Forbid names.
const (
	// ForbidDelete: a kubectl delete of the object (or of any object of
	// the kind), or, for pods, the delete-pod fault.
	ForbidDelete = "delete"
	// ForbidEdit: a write to the live object (kubectl scale, set, patch,
	// label, annotate, rollout undo|restart|pause|resume, apply, create,
	// or an apply of manifests naming it) instead of at its source.
	ForbidEdit = "edit"
	// ForbidAdd: more objects of the kind than when the challenge started
	// (add: node).
	ForbidAdd = "add"
	// ForbidFault: a fault of the verb given from the fault palette
	// (fault: node-up): a power switch the learner would not have.
	ForbidFault = "fault"
)

// ForbidActions are the actions a Forbid may name, in the order errors
// list them.
var ForbidActions = []string{ForbidDelete, ForbidEdit, ForbidAdd, ForbidFault}

// Forbid is a shortcut the challenge does not accept.
type Forbid struct {
	Pos yamlpos.Pos
	// Action is ForbidDelete, ForbidEdit or ForbidAdd.
	Action string
	// Kind is the object's kind as the API names it ("Deployment");
	// Name its name, "" or "*" for any, with * as a wildcard.
	Kind, Name string
	// Target is the object as written: "deployment/web", "node".
	Target string
	// Message says why it is not the lesson's answer.
	Message string
	// Try is an input that takes the shortcut: reconcile check proves it
	// is caught.
	Try Step
}

// Hints are three levels of help, each keyed to one of the three
// questions about the loop.
type Hints struct {
	// Desired: what is desired, and has the controller seen it
	// (generation against observedGeneration)?
	Desired string
	// Conditions: what does the controller say (status conditions)?
	Conditions string
	// Events: what happened (events)?
	Events string
}

var (
	challengeFields = []string{"start", "goal", "hold", "within", "failedRequests", "forbid", "hints", "solution", "why", "questions", "withhold"}
	questionFields  = []string{"controller", "object", "says"}
	saysFields      = []string{"condition", "reason", "event"}
	forbidFields    = []string{"delete", "edit", "add", "fault", "message", "try"}
	budgetFields    = []string{"max", "message", "try"}
	hintFields      = []string{"desired", "conditions", "events"}
)

// SymptomAt is when a lesson shows its symptom: the time of its last
// expect (expects describe the world the lesson breaks), or a minute after
// its last step when it has none.
func (sc *Scenario) SymptomAt() api.Duration {
	var t api.Duration
	for _, e := range sc.Expect {
		t = max(t, e.At)
	}
	if t > 0 {
		return t
	}
	for _, st := range sc.Steps {
		t = max(t, st.At)
	}
	return t + api.Minute
}

func (l *loader) challenge(n *yaml.Node) *Challenge {
	f := l.fields(n, "challenge", challengeFields)
	if f == nil {
		return nil
	}
	c := &Challenge{Pos: l.pm.Of(f.node), StartText: "start"}
	if v := f.get("start"); v != nil {
		s, _ := l.str(v, "challenge.start")
		switch s = strings.TrimSpace(s); s {
		case "start", "":
		case "symptom":
			c.Start, c.StartText = l.sc.SymptomAt(), s
		default:
			if d, ok := l.duration(v, "challenge.start"); ok {
				c.Start, c.StartText = d, s
			}
		}
	}
	if v := f.get("goal"); v == nil {
		l.fail(f.node, "challenge.goal: Required value: what must hold, e.g. goal: [\"deployment/web spec.replicas == 5\"]")
	} else {
		for i, item := range l.list(v, "challenge.goal", `["pods{app=web,ready} == 5"]`) {
			gp := fmt.Sprintf("challenge.goal[%d]", i)
			that, a := l.that(item, gp)
			if a != nil && a.Traffic != nil && a.Traffic.Window == 0 {
				l.fail(item, "%s: a goal holds now: count the traffic over a window that ends now, e.g. traffic(10s).failed == 0 (limit the failures since the start with failedRequests)", gp)
				continue
			}
			c.Goal = append(c.Goal, Expect{Pos: l.pm.Of(yamlpos.Resolve(item)), That: that, Assertion: a})
		}
		if len(c.Goal) == 0 && len(l.errs) == 0 {
			l.fail(v, "challenge.goal: Required value: at least one assertion")
		}
	}
	if v := f.get("hold"); v == nil {
		l.fail(f.node, "challenge.hold: Required value: how long the goal must keep holding, e.g. hold: 30s")
	} else {
		c.Hold, _ = l.duration(v, "challenge.hold")
	}
	if v := f.get("within"); v != nil {
		if d, ok := l.duration(v, "challenge.within"); ok {
			if d <= c.Hold {
				l.fail(v, "challenge.within: %s leaves no time: it must be longer than hold (%s)", api.FormatDuration(d), api.FormatDuration(c.Hold))
			}
			c.Within = d
		}
	}
	if v := f.get("failedRequests"); v != nil {
		l.budget(v, c)
	}
	if v := f.get("forbid"); v != nil {
		for i, item := range l.list(v, "challenge.forbid", `[{delete: deployment/web, message: "...", try: {kubectl: "delete deployment web"}}]`) {
			if fb, ok := l.forbid(item, fmt.Sprintf("challenge.forbid[%d]", i), c.Start); ok {
				c.Forbid = append(c.Forbid, fb)
			}
		}
	}
	if v := f.get("hints"); v == nil {
		l.fail(f.node, "challenge.hints: Required value: desired, conditions and events, one hint for each of the three questions")
	} else if hf := l.fields(v, "challenge.hints", hintFields); hf != nil {
		dst := []*string{&c.Hints.Desired, &c.Hints.Conditions, &c.Hints.Events}
		for i, name := range hintFields {
			hv := hf.get(name)
			if hv == nil {
				l.fail(hf.node, "challenge.hints.%s: Required value: a hint for each of the three questions (desired, conditions, events)", name)
				continue
			}
			if s, ok := l.str(hv, "challenge.hints."+name); ok {
				*dst[i] = strings.TrimSpace(s)
				l.text(hv, "challenge.hints."+name, *dst[i], 0)
			}
		}
	}
	if v := f.get("why"); v != nil {
		if s, ok := l.str(v, "challenge.why"); ok {
			c.Why = strings.TrimSpace(s)
			l.text(v, "challenge.why", c.Why, 0)
		}
	}
	if v := f.get("questions"); v != nil {
		c.Questions = l.questions(v)
	}
	if v := f.get("withhold"); v != nil {
		l.withhold(v, c)
	}
	if v := f.get("solution"); v == nil {
		l.fail(f.node, "challenge.solution: Required value: the reference solution, inputs in the form of steps")
	} else {
		c.Solution = l.steps(v, "challenge.solution", false)
		l.notBefore(c.Solution, v, "challenge.solution", c.Start)
		if len(c.Solution) == 0 && len(l.errs) == 0 {
			l.fail(v, "challenge.solution: Required value: at least one input")
		}
	}
	return c
}

// budget reads failedRequests: a number, or a mapping of max, message and
// try (inputs that go over the budget, for reconcile check to prove it).
func (l *loader) budget(v *yaml.Node, c *Challenge) {
	const path = "challenge.failedRequests"
	max := v
	var bf *fieldSet
	if v.Kind == yaml.MappingNode {
		if bf = l.fields(v, path, budgetFields); bf == nil {
			return
		}
		if max = bf.get("max"); max == nil {
			l.fail(v, "%s.max: Required value: how many requests may fail, e.g. max: 0", path)
			return
		}
	}
	name := path
	if bf != nil {
		name += ".max"
	}
	b, ok := l.integer(max, name, 32)
	if !ok {
		return
	}
	if b < 0 {
		l.fail(max, "%s: must be 0 or more", name)
	}
	if len(l.sc.Traffic) == 0 {
		l.fail(v, "%s: the scenario sends no traffic (add traffic: {service: web, perSecond: 10})", path)
	}
	budget := int(b)
	c.FailedRequests = &budget
	if bf == nil {
		return
	}
	if m := bf.get("message"); m != nil {
		if s, ok := l.str(m, path+".message"); ok {
			c.BudgetMessage = strings.TrimSpace(s)
			l.text(m, path+".message", c.BudgetMessage, 0)
		}
	}
	t := bf.get("try")
	if t == nil {
		l.fail(v, "%s.try: Required value: inputs that go over the budget, so that reconcile check proves it", path)
		return
	}
	c.BudgetTry = l.steps(t, path+".try", true)
	for i := range c.BudgetTry {
		if c.BudgetTry[i].AfterPass == 0 && c.BudgetTry[i].At == 0 {
			c.BudgetTry[i].At = c.Start
		}
	}
	l.notBefore(c.BudgetTry, t, path+".try", c.Start)
	if len(c.BudgetTry) == 0 && len(l.errs) == 0 {
		l.fail(t, "%s.try: Required value: at least one input", path)
	}
}

// withhold reads the lesson steps the challenge's run goes without: each
// written as the lesson writes it, at or after the challenge's start.
func (l *loader) withhold(v *yaml.Node, c *Challenge) {
	const path = "challenge.withhold"
	steps := l.steps(v, path, false)
	l.notBefore(steps, v, path, c.Start)
	for i, st := range steps {
		found := false
		for _, ls := range l.sc.Steps {
			found = found || sameStep(ls, st)
		}
		if !found {
			l.errs = append(l.errs, &yamlpos.Error{Pos: st.Pos, Msg: fmt.Sprintf("%s[%d]: the lesson has no step %s %s: write a step of its steps, as it is written there", path, i, stepWhen(st), st.Input.Text())})
			continue
		}
		c.Withhold = append(c.Withhold, st)
	}
}

// sameStep reports whether two steps give the same input at the same moment.
func sameStep(a, b Step) bool {
	return a.At == b.At && a.AfterPass == b.AfterPass && a.Input != nil && reflect.DeepEqual(a.Input, b.Input)
}

func stepWhen(st Step) string {
	if st.AfterPass > 0 {
		return fmt.Sprintf("after pass %d:", st.AfterPass)
	}
	return "at " + api.FormatDuration(st.At) + ":"
}

// ForChallenge is the lesson as its challenge runs it: without the steps
// the challenge withholds. Without a challenge, or with nothing withheld,
// it is sc itself; the copy's own ForChallenge is the copy.
func (sc *Scenario) ForChallenge() *Scenario {
	if sc.Challenge == nil || len(sc.Challenge.Withhold) == 0 {
		return sc
	}
	var steps []Step
	for _, st := range sc.Steps {
		kept := true
		for _, w := range sc.Challenge.Withhold {
			kept = kept && !sameStep(st, w)
		}
		if kept {
			steps = append(steps, st)
		}
	}
	if len(steps) == len(sc.Steps) {
		return sc
	}
	c := *sc
	c.Steps = steps
	return &c
}

// notBefore refuses steps at a time before the challenge's start.
func (l *loader) notBefore(steps []Step, n *yaml.Node, path string, start api.Duration) {
	for i, st := range steps {
		if st.AfterPass == 0 && st.At < start {
			l.errs = append(l.errs, &yamlpos.Error{Pos: st.Pos, Msg: fmt.Sprintf("%s[%d].at: %s is before the challenge starts (%s)", path, i, api.FormatDuration(st.At), api.FormatDuration(start))})
		}
	}
}

func (l *loader) forbid(n *yaml.Node, path string, start api.Duration) (Forbid, bool) {
	f := l.fields(n, path, forbidFields)
	if f == nil {
		return Forbid{}, false
	}
	fb := Forbid{Pos: l.pm.Of(f.node)}
	action, ok := l.oneOf(f, path, ForbidActions...)
	if !ok {
		return fb, false
	}
	fb.Action = action
	v := f.get(action)
	s, ok := l.str(v, path+"."+action)
	if !ok {
		return fb, false
	}
	fb.Target = strings.TrimSpace(s)
	if action == ForbidFault {
		if !contains(fault.Verbs, fb.Target) {
			l.fail(v, "%s.fault: %q: want a fault verb: %s", path, fb.Target, strings.Join(fault.Verbs, ", "))
			return fb, false
		}
		return l.forbidRest(f, fb, path, start)
	}
	word, name, _ := strings.Cut(fb.Target, "/")
	k, known := api.KindNamed(word)
	if !known {
		l.fail(v, "%s.%s: %q: want a kind, or kind/name, e.g. deployment/web or node", path, action, fb.Target)
		return fb, false
	}
	fb.Kind = k.Name
	if name != "" && name != "*" {
		if _, _, err := assertion.ParseObjectRef(fb.Target); err != nil {
			l.fail(v, "%s.%s: %v", path, action, err)
		}
		fb.Name = name
	}
	if action == ForbidAdd && fb.Name != "" {
		l.fail(v, "%s.add: names a kind only (add: node): it counts objects of the kind", path)
	}
	return l.forbidRest(f, fb, path, start)
}

// forbidRest reads a forbid's message and try.
func (l *loader) forbidRest(f *fieldSet, fb Forbid, path string, start api.Duration) (Forbid, bool) {
	if m := f.get("message"); m == nil {
		l.fail(f.node, "%s.message: Required value: why this is not the lesson's answer", path)
	} else if s, ok := l.str(m, path+".message"); ok {
		fb.Message = strings.TrimSpace(s)
		l.text(m, path+".message", fb.Message, 0)
	}
	if t := f.get("try"); t == nil {
		l.fail(f.node, "%s.try: Required value: an input that takes the shortcut, so that reconcile check proves it is caught", path)
	} else {
		wrap := &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{t}, Line: t.Line, Column: t.Column}
		steps := l.steps(wrap, path+".try", true)
		if len(steps) == 1 {
			if steps[0].AfterPass == 0 && steps[0].At == 0 {
				steps[0].At = start
			}
			l.notBefore(steps, t, path+".try", start)
			fb.Try = steps[0]
		}
	}
	return fb, true
}

func (l *loader) questions(n *yaml.Node) *Questions {
	f := l.fields(n, "challenge.questions", questionFields)
	if f == nil {
		return nil
	}
	q := &Questions{Pos: l.pm.Of(f.node)}
	for _, name := range questionFields {
		if f.get(name) == nil {
			l.fail(f.node, "challenge.questions.%s: Required value: %s", name, map[string]string{
				"controller": "the controller responsible for closing the gap, e.g. deployment-controller",
				"object":     "the object whose generation against status.observedGeneration tells whether it has seen the change, e.g. deployment/web",
				"says":       "the evidence line, e.g. {condition: Progressing, reason: ProgressDeadlineExceeded} or {event: FailedScheduling}",
			}[name])
		}
	}
	if v := f.get("controller"); v != nil {
		if s, ok := l.str(v, "challenge.questions.controller"); ok {
			q.Controller, q.ControllerPos = strings.TrimSpace(s), l.pm.Of(v)
			if q.Controller == "" {
				l.fail(v, "challenge.questions.controller: Required value: a controller of this world, e.g. deployment-controller")
			}
		}
	}
	if v := f.get("object"); v != nil {
		if s, ok := l.str(v, "challenge.questions.object"); ok {
			q.Object, q.ObjectPos = strings.TrimSpace(s), l.pm.Of(v)
			if k, name, err := assertion.ParseObjectRef(q.Object); err != nil {
				l.fail(v, "challenge.questions.object: %v", err)
			} else if strings.Contains(name, "*") {
				l.fail(v, "challenge.questions.object: %q: name one object, not a pattern", q.Object)
			} else {
				q.Kind, q.Name = k, name
			}
		}
	}
	if v := f.get("says"); v != nil {
		if sf := l.fields(v, "challenge.questions.says", saysFields); sf != nil {
			q.Says.Pos = l.pm.Of(sf.node)
			if which, ok := l.oneOf(sf, "challenge.questions.says", "condition", "event"); ok {
				s, _ := l.str(sf.get(which), "challenge.questions.says."+which)
				s = strings.TrimSpace(s)
				if s == "" {
					l.fail(sf.get(which), "challenge.questions.says.%s: Required value: a condition type or an event reason", which)
				}
				if which == "condition" {
					q.Says.Condition = s
				} else {
					q.Says.Event = s
				}
			}
			if r := sf.get("reason"); r != nil {
				if q.Says.Event != "" {
					l.fail(r, "challenge.questions.says.reason: an event is named by its reason: {event: FailedScheduling}")
				} else if s, ok := l.str(r, "challenge.questions.says.reason"); ok {
					q.Says.Reason = strings.TrimSpace(s)
				}
			}
		}
	}
	return q
}
