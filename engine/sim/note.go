package sim

import "reconcile/engine/api"

// Note is one thing a run noted: a fault applied or refused, what a fault
// did of its own ("no active pod matches app=web"), or what a watch fault
// did to an event on its way to a controller. String gives it in words.
type Note struct {
	// At is when it was noted.
	At api.Time
	// Fault is the fault input the note is of, as given; the zero Fault
	// for a note of no one input (an event dropped or duplicated on its
	// way).
	Fault Fault
	// Refused says the run refused the fault and it changed nothing;
	// Words say why.
	Refused bool
	// Words are what the note says beyond the fault: why it was refused,
	// what it did of its own, or what befell an event. Empty in the note
	// that a fault was applied.
	Words string
}

// Applied reports whether n is the note that its fault was applied.
func (n Note) Applied() bool { return n.Fault != (Fault{}) && !n.Refused && n.Words == "" }

// String returns the note as the run's record prints it: "t=30s
// node-down worker-2", "t=30s fault refused: node-down: no node named
// \"worker-9\"", "t=30s delete-pod: no active pod matches app=web", "t=31s
// dropped ADDED pod/web-x on its way to replicaset-controller".
func (n Note) String() string {
	s := "t=" + n.At.String() + " "
	switch {
	case n.Refused:
		return s + "fault refused: " + n.Words
	case n.Fault == (Fault{}):
		return s + n.Words
	case n.Words == "":
		return s + n.Fault.Text()
	}
	return s + n.Fault.Verb + ": " + n.Words
}
