// Package assertion is the language of a scenario's `that:` expects: what
// must be true of the world at a moment, written the way a learner reads a
// cluster.
//
//	deployment/web status.availableReplicas == 5
//	deployment/web status.observedGeneration == metadata.generation
//	pods{app=web,phase=Running,ready} == 5
//
// Parse reads and type-checks an expression against the kinds and fields
// of the api types, so that a typo is an error at its column when the
// scenario loads; Eval evaluates it over the objects of a world. See
// Assertion for the grammar.
package assertion
