package session

import (
	"fmt"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/kubectl"
)

// Hints that look at the learner's state: three levels that follow the
// three questions, each pointing at the evidence the learner has not
// opened yet. What the learner opened (an object selected for the
// inspector, a console command that shows an object's generation, its
// conditions or its events) is kept as typed facts (Opened), and the
// answers graded right; the hint offered is chosen from them.

// Clue is what a learner can open of an object to answer the three
// questions, one for each (in their order, as the hint levels).
type Clue int

const (
	// ClueGeneration is metadata.generation beside
	// status.observedGeneration: has the controller seen the change.
	ClueGeneration Clue = iota
	// ClueConditions are the object's status conditions.
	ClueConditions
	// ClueEvents are the events about the object.
	ClueEvents
)

// Via is where the learner opened evidence.
type Via int

const (
	// ViaInspector is the inspector, the object selected in the cluster
	// or picked for the questions: its three questions show all three.
	ViaInspector Via = iota
	// ViaYAML is kubectl get -o yaml (or json): the generations and the
	// conditions.
	ViaYAML
	// ViaJSONPath is kubectl get -o jsonpath naming the fields.
	ViaJSONPath
	// ViaDescribe is kubectl describe: the conditions and the events.
	ViaDescribe
	// ViaEvents is kubectl get events, or kubectl events.
	ViaEvents
	// ViaRolloutStatus is kubectl rollout status, which reads
	// observedGeneration against generation, then the Progressing
	// condition.
	ViaRolloutStatus
)

// Opened is one piece of evidence the learner opened: of which object (a
// Ref with no name: every object of its kind; no kind: of any kind, as
// kubectl get events shows them), what, where (the console line for a
// command) and after which pass.
type Opened struct {
	Ref  api.Ref
	What Clue
	Via  Via
	Line string
	Pass int
}

// covers reports whether o is about ref.
func (o Opened) covers(ref api.Ref) bool {
	return (o.Ref.Kind == "" || o.Ref.Kind == ref.Kind) && (o.Ref.Name == "" || o.Ref.Name == ref.Name)
}

// Inspected notes that the learner selected ref for the inspector, whose
// three questions show its generations, its conditions and its events.
func (s *Session) Inspected(c *Challenge, ref api.Ref) {
	if ref.Kind == "" || s.run.Store().Get(ref.Kind, ref.Namespace, ref.Name) == nil {
		return
	}
	for _, w := range []Clue{ClueGeneration, ClueConditions, ClueEvents} {
		c.open(Opened{Ref: ref, What: w, Via: ViaInspector, Pass: s.run.PassCount()})
	}
}

// Ran notes a console line the learner ran (as typed, kubectl's words
// after ConsoleLine) and its exit code: what it showed of which objects.
// A command that failed showed nothing.
func (s *Session) Ran(c *Challenge, line string, code int) {
	if code != 0 {
		return
	}
	inv, err := kubectl.Parse(line)
	if err != nil || inv.Help != nil {
		return
	}
	if inv.Command == "events" {
		// kubectl events: of the object --for names, or of every one.
		ref := api.Ref{}
		if f := inv.String("for", ""); f != "" {
			if refs := argRefs([]string{f}); len(refs) == 1 {
				ref = refs[0]
			}
		}
		c.open(Opened{Ref: ref, What: ClueEvents, Via: ViaEvents, Line: line, Pass: s.run.PassCount()})
		return
	}
	if len(inv.Args) == 0 {
		return
	}
	refs := argRefs(inv.Args)
	var what []Clue
	via := ViaYAML
	switch inv.Command {
	case "get":
		out := inv.String("output", "")
		events := false
		for _, r := range refs {
			events = events || r.Kind == "Event"
		}
		switch {
		case events:
			// The events, of the object the field selector names, or all.
			via, what = ViaEvents, []Clue{ClueEvents}
			refs = []api.Ref{{}}
			for _, term := range strings.Split(inv.String("field-selector", ""), ",") {
				if k, v, ok := strings.Cut(term, "="); ok && k == "involvedObject.name" {
					refs = []api.Ref{{Name: strings.TrimPrefix(v, "=")}}
				}
			}
		case out == "yaml" || out == "json":
			what = []Clue{ClueGeneration, ClueConditions}
		case strings.HasPrefix(out, "jsonpath") || strings.HasPrefix(out, "custom-columns"):
			via = ViaJSONPath
			low := strings.ToLower(out)
			if strings.Contains(low, "generation") {
				what = append(what, ClueGeneration)
			}
			if strings.Contains(low, "conditions") {
				what = append(what, ClueConditions)
			}
		}
	case "describe":
		via, what = ViaDescribe, []Clue{ClueConditions, ClueEvents}
	case "rollout status":
		via, what = ViaRolloutStatus, []Clue{ClueGeneration, ClueConditions}
	}
	for _, r := range refs {
		for _, w := range what {
			c.open(Opened{Ref: r, What: w, Via: via, Line: line, Pass: s.run.PassCount()})
		}
	}
}

// argRefs reads kubectl's arguments as the objects they name: KIND/NAME
// words, or KINDS then NAMES (no name: every object of the kinds).
func argRefs(args []string) []api.Ref {
	var out []api.Ref
	if strings.Contains(args[0], "/") {
		for _, a := range args {
			word, name, _ := strings.Cut(a, "/")
			if k, ok := api.KindNamed(word); ok {
				out = append(out, api.Ref{Kind: k.Name, Name: name})
			}
		}
		return out
	}
	for _, w := range strings.Split(args[0], ",") {
		k, ok := api.KindNamed(w)
		if !ok {
			continue
		}
		if len(args) == 1 {
			out = append(out, api.Ref{Kind: k.Name})
		}
		for _, name := range args[1:] {
			out = append(out, api.Ref{Kind: k.Name, Name: name})
		}
	}
	return out
}

func (c *Challenge) open(o Opened) {
	for _, had := range c.opened {
		if had.Ref == o.Ref && had.What == o.What {
			return
		}
	}
	c.opened = append(c.opened, o)
}

// Opened are the pieces of evidence the learner opened, in order.
func (c *Challenge) Opened() []Opened { return c.opened }

// target is the object the three questions are about: the answer key's,
// else the first object the goal names, else none (any object counts).
func (c *Challenge) target() api.Ref {
	ch := c.sc.Challenge
	if q := ch.Questions; q != nil {
		return api.Ref{Kind: q.Kind, Namespace: "default", Name: q.Name}
	}
	for _, e := range ch.Goal {
		if a := e.Assertion; a != nil && a.Kind != "" && a.Name != "" && !a.Count && a.Traffic == nil {
			return api.Ref{Kind: a.Kind, Namespace: "default", Name: a.Name}
		}
	}
	return api.Ref{}
}

// openedOf is the first evidence of kind w the learner opened of the
// target, and whether there is one.
func (c *Challenge) openedOf(w Clue) (Opened, bool) {
	t := c.target()
	for _, o := range c.opened {
		if o.What == w && (t.Kind == "" || o.covers(t)) {
			return o, true
		}
	}
	return Opened{}, false
}

// HintQuestions are the three questions the hints follow, as the
// inspector asks them.
var HintQuestions = [...]string{"Has the controller seen the change?", "What do its conditions say?", "What do its events say?"}

// answered reports whether the question a hint level follows was answered
// right: the desired hint's are the first two (which controller, has it
// seen the change); the third is the conditions' or the events', as the
// line the key names is a condition or an event.
func (c *Challenge) answered(l HintLevel) bool {
	key := c.sc.Challenge.Questions
	if key == nil {
		return false
	}
	switch l {
	case HintDesired:
		return c.right[0] && c.right[1]
	case HintConditions:
		return c.right[2] && key.Says.Event == ""
	}
	return c.right[2] && key.Says.Event != ""
}

// NextHint is the hint to offer, false when all three are taken: of the
// levels not taken, in the order of the questions, the first whose
// question is not answered right and whose evidence the learner has not
// opened; else the first not answered (the evidence is open: the hint
// reads it); else the first.
func (c *Challenge) NextHint() (HintLevel, bool) {
	first, unanswered := HintLevel(-1), HintLevel(-1)
	for l := HintDesired; l <= HintEvents; l++ {
		if c.Taken(l) {
			continue
		}
		if first < 0 {
			first = l
		}
		if c.answered(l) {
			continue
		}
		if unanswered < 0 {
			unanswered = l
		}
		if _, open := c.openedOf(Clue(l)); !open {
			return l, true
		}
	}
	if unanswered >= 0 {
		return unanswered, true
	}
	return first, first >= 0
}

// Pointer says where the evidence of hint level l is: where to open it
// when the learner has not yet, where they saw it when they have.
func (c *Challenge) Pointer(l HintLevel) string {
	t := c.target()
	name, kind, obj := "the object", "", "the object"
	if t.Kind != "" {
		kind = strings.ToLower(t.Kind)
		name, obj = kind+"/"+t.Name, kind+" "+t.Name
	}
	o, open := c.openedOf(Clue(l))
	if open {
		where := "in the inspector"
		if o.Via != ViaInspector {
			where = "with kubectl " + o.Line
		}
		switch Clue(l) {
		case ClueGeneration:
			return fmt.Sprintf("You have seen %s's generations %s: compare metadata.generation with status.observedGeneration.", name, where)
		case ClueConditions:
			return fmt.Sprintf("You have opened %s's conditions %s: read the one whose status is not what you expect, and its reason.", name, where)
		}
		return fmt.Sprintf("You have read the events about %s %s: look for the reason that repeats.", name, where)
	}
	switch Clue(l) {
	case ClueGeneration:
		return fmt.Sprintf("You have not looked at %s's metadata.generation beside its status.observedGeneration yet: select it in the cluster and read the inspector's first question, or run kubectl get %s -o yaml.", name, obj)
	case ClueConditions:
		return fmt.Sprintf("You have not opened %s's conditions yet: the inspector's second question, or kubectl describe %s.", name, obj)
	}
	if t.Kind == "" {
		return fmt.Sprintf("You have not read the events about %s yet: the inspector's third question, or kubectl describe %s, or kubectl get events.", name, obj)
	}
	return fmt.Sprintf("You have not read the events about %s yet: the inspector's third question, or kubectl describe %s, or kubectl events --for %s.", name, obj, name)
}
