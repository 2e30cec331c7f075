// Package challenge plays a lesson's challenge (scenario.Challenge): it
// judges a live run after every pass (Judge.Observe: not yet, holding,
// solved, a shortcut taken, over budget, out of time), replays a list of
// inputs to a verdict (Play), proves a challenge sound (Prove: the
// reference solution solves it, doing nothing does not, each forbidden
// shortcut is caught) and checks a completion record (Record, Verify).
//
// The goal is checked against the world's state, never against the
// commands typed; a shortcut is an input that writes where the lesson
// says not to (a delete, a live edit) or a count that grows (a node
// added). Everything here is deterministic: the same scenario and inputs
// give the same verdict and the same digest anywhere.
package challenge
