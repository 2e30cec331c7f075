// Package scenario reads the lessons as data: a scenario file names a
// cluster, the desired state applied at t=0, the inputs a run replays (faults,
// kubectl commands, applies, git commits), the fix the lesson teaches, and
// what must be true at given simulated times (docs/scenarios.md).
//
// Load is the only way in. It decodes with gopkg.in/yaml.v3 through
// yaml.Node, so that every problem is reported as file:line:column with what
// was expected, and it returns a whole Scenario or nothing:
//
//	web.yaml:12:14: steps[2].at: invalid duration "3x": want a number of seconds or a Go duration such as 30s, 2m, 1h30m
//	web.yaml:21:7: unknown field "replica" in cluster.nodes[0]; expected one of name, cpu, memory, labels, taints, unschedulable, pods
//	web.yaml:30:17: The Deployment "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0
//
// The manifests are real Kubernetes YAML, decoded by package manifest:
// known kinds decode into the engine's api structs and unknown fields are
// warnings, as kubectl prints them; the t=0 manifests are defaulted and
// validated as the API server would (package validation). A file of plain
// manifests is a scenario too. Faults are read by package fault, kubectl
// lines checked by kubectl.Check.
//
// Expectations are checked against a run by package check; their `that:`
// expressions are parsed and type-checked here (package assertion), at load
// time, so a typo in an expect is a load error with its column.
//
// A lesson's text for the page is read here too: the lead shown before the
// run (the summary's first sentence when the file has none), the story told
// moment by moment as the run reaches each one, and the passes at which the
// learner is asked to predict. They are checked against the end of the run
// but never reach Config: a scenario runs the same with or without them.
//
// The loader guards the engine against hostile or runaway input with the
// limits of package limits, and names the one it enforces when it refuses
// a file.
package scenario
