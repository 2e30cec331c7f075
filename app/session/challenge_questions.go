package session

import (
	"fmt"
	"sort"

	"reconcile/engine/api"
	"reconcile/engine/challenge"
	"reconcile/engine/scenario"
)

// The three questions, graded from the world's facts against the
// challenge's answer key (scenario.Questions), in the lesson's words.

// QuestionChoices are what the three questions offer now: the controllers
// of this world that have run a pass, and the objects that report a
// generation (whose status.observedGeneration says whether their
// controller has seen a change).
type QuestionChoices struct {
	// Asks says the challenge has an answer key.
	Asks        bool
	Controllers []string
	Objects     []api.Ref
}

// Choices reads what the three questions offer now.
func (s *Session) Choices(c *Challenge) QuestionChoices {
	if c.sc.Challenge.Questions == nil {
		return QuestionChoices{}
	}
	q := QuestionChoices{Asks: true}
	seen := map[string]bool{}
	for i := 1; i <= s.run.PassCount(); i++ {
		if p, ok := s.run.Pass(i); ok && !seen[p.Controller] {
			seen[p.Controller] = true
			q.Controllers = append(q.Controllers, p.Controller)
		}
	}
	sort.Strings(q.Controllers)
	for _, kind := range []string{"Deployment", "ReplicaSet", "StatefulSet", "DaemonSet"} {
		for o := range s.run.Store().Each(kind) {
			q.Objects = append(q.Objects, api.RefOf(o))
		}
	}
	return q
}

// Grade is an answer marked right or wrong, and why.
type Grade struct {
	Right bool
	Why   string
}

// AnswerController grades the first question: which controller is
// responsible for closing the gap.
func (s *Session) AnswerController(c *Challenge, name string) Grade {
	key := c.sc.Challenge.Questions
	if key == nil {
		return Grade{}
	}
	doc := func(n string) string {
		for _, spec := range s.run.Config().Registry() {
			if spec.Name == n && spec.Doc != "" {
				return " (" + spec.Doc + ")"
			}
		}
		return ""
	}
	c.right[0] = name == key.Controller
	if name == key.Controller {
		return Grade{Right: true, Why: fmt.Sprintf("Right: %s%s is the controller responsible for closing this gap. Read every symptom as a question about the loop: what is desired, what is observed, and which controller is responsible for closing the gap.", name, doc(name))}
	}
	return Grade{Why: fmt.Sprintf("Not this one: %s%s runs in this world, but the gap here is not its to close. Ask what is desired, what is observed, and which controller compares the two.", name, doc(name))}
}

// AnswerSeen grades the second question: the object picked and whether its
// controller has seen the change, from metadata.generation against
// status.observedGeneration as the world has them now.
func (s *Session) AnswerSeen(c *Challenge, ref api.Ref, seen bool) Grade {
	key := c.sc.Challenge.Questions
	if key == nil {
		return Grade{}
	}
	c.right[1] = false
	if ref.Kind != key.Kind || ref.Name != key.Name {
		return Grade{Why: fmt.Sprintf("Look at another object: the change this lesson is about is desired state held by %s.", key.Object)}
	}
	var cache *objectText
	v := inspect(s.run, ref, &cache)
	if v.Gone || !v.HasObserved {
		return Grade{Why: fmt.Sprintf("%s does not report status.observedGeneration now.", key.Object)}
	}
	actual := v.Observed >= v.Generation
	facts := fmt.Sprintf("metadata.generation is %d and status.observedGeneration is %d", v.Generation, v.Observed)
	meaning := "the controller has seen the change"
	if !actual {
		meaning = "the controller has not yet acted on your change and you are looking at the old spec running"
	}
	c.right[1] = seen == actual
	if seen == actual {
		return Grade{Right: true, Why: fmt.Sprintf("Right: %s: %s.", facts, meaning)}
	}
	return Grade{Why: fmt.Sprintf("Look again: %s: %s.", facts, meaning)}
}

// AnswerSays grades the third question: the condition or event line the
// learner picked of the object, against the key's, as the world has it now.
func (s *Session) AnswerSays(c *Challenge, ref api.Ref, line scenario.Says) Grade {
	key := c.sc.Challenge.Questions
	if key == nil {
		return Grade{}
	}
	c.right[2] = false
	if ref.Kind != key.Kind || ref.Name != key.Name {
		return Grade{Why: fmt.Sprintf("Read %s: the controller says what it found in its conditions and its events.", key.Object)}
	}
	obj := s.run.Store().Get(ref.Kind, ref.Namespace, ref.Name)
	if obj == nil {
		return Grade{Why: key.Object + " is gone."}
	}
	if !challenge.Says(s.run, obj, line) {
		return Grade{Why: fmt.Sprintf("%s does not say %s now.", key.Object, challenge.SaysText(line))}
	}
	want := key.Says
	if line.Event == want.Event && line.Condition == want.Condition && (want.Reason == "" || line.Reason == want.Reason) {
		c.right[2] = true
		if line.Event != "" {
			return Grade{Right: true, Why: fmt.Sprintf("Right: the %s event is the evidence. Events on the object show the controller taking actions; a stream of repeated identical events means the loop is running and failing.", line.Event)}
		}
		return Grade{Right: true, Why: fmt.Sprintf("Right: %s is the evidence. Ask the controller's own status conditions rather than inferring it from the apply exit code.", challenge.SaysText(line))}
	}
	return Grade{Why: fmt.Sprintf("%s is true of %s, but it is not what tells this story: the three questions, in order, are has the controller seen my change, what does it say in its conditions, and what does it say in its events.", challenge.SaysText(line), key.Object)}
}

// Lines are the condition and event lines of ref now, as the third
// question offers them.
func (s *Session) Lines(ref api.Ref) []scenario.Says {
	var cache *objectText
	v := inspect(s.run, ref, &cache)
	var out []scenario.Says
	for _, c := range v.Conditions {
		out = append(out, scenario.Says{Condition: c.Type, Reason: c.Reason})
	}
	seen := map[string]bool{}
	for _, e := range v.Events {
		if !seen[e.Reason] {
			seen[e.Reason] = true
			out = append(out, scenario.Says{Event: e.Reason})
		}
	}
	return out
}
