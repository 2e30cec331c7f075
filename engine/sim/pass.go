package sim

import (
	"errors"
	"fmt"
	"slices"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/queue"
	"reconcile/engine/store"
)

// Pass is one controller reconciling one key once: the unit a learner
// steps. It says what the lesson asks of every pass: which controller, on
// what, why it ran (Trigger), what it wanted (Desired), what it saw
// (Observed), the gap (Difference), what it did (Actions), how it ended
// (Outcome), and which objects changed because of it (Changed).
type Pass struct {
	// N counts passes from 1.
	N          int      `json:"n"`
	At         api.Time `json:"-"`
	AtText     string   `json:"at"`
	Controller string   `json:"controller"`
	// Host is the node of a kubelet pass.
	Host string `json:"host,omitempty"`
	Key  string `json:"key"`
	// Trigger is why the pass ran, as a fact; in words (String) "watch:
	// pod/web-x DELETED", "initial list", "requeue: ...", "timer: ...".
	Trigger queue.Trigger `json:"trigger"`
	// Desired, Observed and Difference are what the pass reported: its
	// words (String) and the facts they state.
	Desired    controller.Statement `json:"desired"`
	Observed   controller.Statement `json:"observed"`
	Difference controller.Statement `json:"difference"`
	// Actions are the steps the pass took, as facts; in words
	// (Action.String) "create pod web-x", "update status (...)".
	Actions []controller.Action `json:"actions"`
	// Outcome is how the pass ended, in words: "in sync" (this key
	// needed nothing; the world around it may still be moving), "acted",
	// "unschedulable", "error: ...", "crashed mid-pass after ...". Result
	// says the same as a value.
	Outcome string `json:"outcome"`
	// Lines are the pseudocode lines (1-based, of the lesson's block for the
	// controller's mode) the pass executed; empty for controllers with no
	// pseudocode block.
	Lines []int `json:"lines,omitempty"`
	// Variant is "level" or "edge" for a controller with pseudocode.
	Variant string `json:"variant,omitempty"`

	// Object is the object the pass reconciled (Key, with its kind).
	Object api.Ref `json:"object"`
	// Result is how the pass ended.
	Result controller.Outcome `json:"result"`
	// Error is the error a Failed pass returned (Outcome says it after
	// "error: ").
	Error string `json:"-"`
	// Changed are the objects the pass wrote, in the order first written:
	// what the pass changed in the cluster.
	Changed []Change `json:"changed,omitempty"`
}

// Change is one object a pass wrote, as the watch saw it: ADDED,
// MODIFIED or DELETED (the last write of the pass to the object; an object
// the pass created stays ADDED).
type Change struct {
	api.Ref
	Type string `json:"type"`
}

func noteChange(list *[]Change, ev store.WatchEvent) {
	ref := api.RefOf(ev.Object)
	for i := range *list {
		if c := &(*list)[i]; c.Ref == ref {
			if c.Type != store.Added || ev.Type == store.Deleted {
				c.Type = ev.Type
			}
			return
		}
	}
	*list = append(*list, Change{Ref: ref, Type: ev.Type})
}

// passRecord is what the trace hashes of a pass: what it said in words.
// (What a pass carries as values, Object, Result and Changed, follows from
// the same run.)
type passRecord struct {
	N          int      `json:"n"`
	AtText     string   `json:"at"`
	Controller string   `json:"controller"`
	Host       string   `json:"host,omitempty"`
	Key        string   `json:"key"`
	Trigger    string   `json:"trigger"`
	Desired    string   `json:"desired"`
	Observed   string   `json:"observed"`
	Difference string   `json:"difference"`
	Actions    []string `json:"actions"`
	Outcome    string   `json:"outcome"`
	Lines      []int    `json:"lines,omitempty"`
	Variant    string   `json:"variant,omitempty"`
}

func (p *Pass) record() passRecord {
	return passRecord{N: p.N, AtText: p.AtText, Controller: p.Controller, Host: p.Host, Key: p.Key, Trigger: p.Trigger.String(),
		Desired: p.Desired.Words, Observed: p.Observed.Words, Difference: p.Difference.Words, Actions: controller.ActionWords(p.Actions), Outcome: p.Outcome,
		Lines: p.Lines, Variant: p.Variant}
}

// runPass runs process i on the item q took off its queue and records the
// pass. It returns nil when an edge-triggered handler was not interested.
func (w *world) runPass(i int, q queue.Item) *Pass {
	c := w.proc(i)
	crashAfter := -1
	if c.crashNext {
		crashAfter = 1
	}
	ctx := &w.ctx
	ctx.Reset(c.name, w.now, w.cacheOf(c), c.host, w.store, w, crashAfter)
	// The pass's actions and changes are gathered in the world's scratch
	// slices and copied out once, at their size: grown by appends in
	// slices of their own, the 2-action passes at scale left a 1-action
	// array each, and a ReplicaSet's 500 creates ten smaller ones.
	ctx.Actions, w.passScratch.changed = w.passScratch.actions[:0], w.passScratch.changed[:0]
	defer func() {
		w.passScratch.actions = ctx.Actions[:0]
		*ctx = controller.Context{} // empty between passes, in a clone or a snapshot
	}()
	trigger := q.Trigger
	trigger.More = q.Events - 1
	w.changed = &w.passScratch.changed
	key := q.Key
	var res controller.Result
	var err error
	if c.rec != nil {
		res, err = c.rec.Reconcile(ctx, controller.Request{Key: key})
	} else {
		var req controller.Request
		req, res, err = c.edge.Handle(ctx, *q.Event)
		key = req.Key
	}
	w.drain()
	w.changed = nil
	if key == "" {
		return nil // an event the edge-triggered handler ignores
	}
	var changed []Change
	if len(w.passScratch.changed) > 0 {
		changed = slices.Clone(w.passScratch.changed)
	}
	variant := ""
	if _, ok := c.spec.Pseudocode[c.mode]; ok {
		variant = string(c.mode)
	}
	p := Pass{N: w.npass + 1, At: w.now, AtText: w.now.String(), Controller: c.name, Host: c.host, Key: key, Trigger: trigger,
		Desired:    controller.Statement{Fact: ctx.DesiredFact, Words: ctx.Desired},
		Observed:   controller.Statement{Fact: ctx.ObservedFact, Words: ctx.Observed},
		Difference: controller.Statement{Fact: ctx.DifferenceFact, Words: ctx.Difference}, Actions: slices.Clone(ctx.Actions),
		Lines: ctx.Lines, Variant: variant, Object: controller.ObjectOf(c.spec, c.impl(), key), Changed: changed}
	if p.Actions == nil {
		p.Actions = []controller.Action{}
	}
	var requeue api.Duration
	var why string
	switch {
	case errors.Is(err, controller.ErrCrashed) || ctx.Crashed():
		p.Outcome = fmt.Sprintf("crashed mid-pass after %d action(s); restarts in %s", len(ctx.Actions), api.FormatDuration(RestartDelay))
		p.Result = controller.Crashed
		c.crashNext = false
		w.crash(i)
	case err != nil:
		p.Outcome, p.Result, p.Error = "error: "+err.Error(), controller.Failed, err.Error()
		// Errors come back with the work queue's per-key back-off; an
		// edge-triggered handler's event is spent whatever happened.
		if c.rec != nil && !controller.IsTerminal(err) {
			requeue, why = c.queue.Failed(key), controller.RequeueRetry
		}
	default:
		c.queue.Forget(key)
		p.Result = res.Outcome
		if p.Result == 0 {
			p.Result = controller.InSync
			if len(p.Actions) > 0 {
				p.Result = controller.Acted
			}
		}
		p.Outcome = outcomeText(p.Result, res.Why)
		requeue, why = res.RequeueAfter, res.RequeueReason
	}
	if c.crashNext && crashAfter >= 0 && err == nil {
		// the pass finished before reaching a second action: crash now
		p.Outcome = fmt.Sprintf("crashed at the end of the pass after %d action(s); restarts in %s", len(ctx.Actions), api.FormatDuration(RestartDelay))
		p.Result = controller.Crashed
		c.crashNext = false
		w.crash(i)
	}
	w.requeued = requeueAsked{}
	if requeue > 0 && c.running {
		w.requeued = requeueAsked{why, requeue}
		w.schedule(item{at: w.now + requeue, kind: itemRequeue, ctrl: i, epoch: c.epoch, key: key, why: why, after: requeue})
	}
	w.hashPass(&p)
	return w.appendPass(p)
}

// requeueAsked is a requeue a pass asked for: its reason and delay.
type requeueAsked struct {
	why   string
	after api.Duration
}

// outcomeText is an outcome in the trace's words.
func outcomeText(o controller.Outcome, why string) string {
	switch o {
	case controller.InSync:
		// Not "converged": that is the whole world's word (Sim.Converged).
		// One key can be in sync while pods are still starting.
		return "in sync"
	case controller.Blocked:
		return why
	}
	return o.String()
}
