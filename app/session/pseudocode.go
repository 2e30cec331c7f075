package session

import (
	"reconcile/engine/controller"
	"reconcile/engine/sim"
)

// Pseudocode is the lesson's pseudocode block a pass ran, as the stage
// shows it: which block (Edge says the edge-triggered one), its lines, and
// the lines the pass lit (1-based, in the order it ran them).
type Pseudocode struct {
	Controller string
	Edge       bool
	Lines      []string
	Ran        []int
}

// pseudocodeOf is the block p ran, from its controller's entry in reg
// (Spec.Pseudocode for the pass's mode); zero when it has none.
func pseudocodeOf(reg []controller.Spec, p sim.Pass) Pseudocode {
	if len(p.Lines) == 0 {
		return Pseudocode{}
	}
	spec, _ := controller.Lookup(reg, p.Controller)
	block := spec.Pseudocode[controller.Mode(p.Variant)]
	if len(block) == 0 {
		return Pseudocode{}
	}
	return Pseudocode{Controller: p.Controller, Edge: p.Variant == string(controller.Edge), Lines: block, Ran: p.Lines}
}
