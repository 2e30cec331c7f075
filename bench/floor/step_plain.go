//go:build !engine

package main

// engineState is empty in the floor: its button only counts.
type engineState struct{}

// step counts one more pass.
func (f *floor) step() int { return f.n + 1 }
