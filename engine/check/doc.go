// Package check decides whether a scenario's expectations hold: it answers
// the lesson's question "did the loop converge to what we asked for?" with a
// yes, or with what was expected and what was found instead.
//
// An expect names a simulated time and one of three things to look at in
// the world at that time (World): the objects (`that:`, see
// assertion.Assertion), the events (`event:`), or what a kubectl command
// printed (`output:`). Expect evaluates one against a world. Run plays a
// scenario with the engine, stops at each expect's time to evaluate it,
// then replays the run and compares trace digests, because a run that does
// not replay identically is a bug in the engine, not in the lesson.
//
// A failure names the expect's place in the file:
//
//	scenarios/x.yaml:40:5: expect at 10m: deployment/web status.availableReplicas == 5: got 3
package check
