//go:build engine

package main

import (
	"reconcile/engine/sim"
	"reconcile/scenarios"
)

// engineState is the run of the default lesson, opened at the first click.
type engineState struct {
	run *sim.Sim
}

// step runs the next pass of the default lesson, opening it first (as the
// player does: scenarios.Open, then sim.New), and returns the passes run.
// A lesson that does not open is a broken build: the floor panics, and
// the bench's probe, which never sees Pass 1, says so.
func (f *floor) step() int {
	if f.run == nil {
		sc, err := scenarios.Open(scenarios.Default)
		if err != nil {
			panic("opening the default lesson: " + err.Error())
		}
		if f.run, err = sim.New(sc.Config()); err != nil {
			panic("starting the default lesson: " + err.Error())
		}
	}
	f.run.Next()
	return f.run.PassCount()
}
