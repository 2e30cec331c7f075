// Package limits names every bound a learner, a course author or a run can
// meet: the size of a file, how many objects, nodes and replicas it may
// declare, how far a run may go. Each error that enforces one names it and
// its value, so that a refusal reads as a rule of the playground, not as a
// failure.
//
// They guard the engine against hostile or runaway input: a scenario file
// or a share link is input from anywhere.
package limits

import "reconcile/engine/api"

const (
	// MaxFileSize is the largest scenario or manifest file, in bytes.
	MaxFileSize = 1 << 20
	// MaxObjects is the most Kubernetes objects one file may declare, over
	// its manifests block and every apply and git step.
	MaxObjects = 500
	// MaxAliases is the most YAML aliases (*name) one file may use; more is
	// how "billion laughs" files blow up a parser.
	MaxAliases = 100
	// MaxYAMLNodes is the most YAML nodes a file may hold once its aliases
	// are expanded.
	MaxYAMLNodes = 500_000
	// MaxNodes is the most nodes a simulated cluster may have.
	MaxNodes = 2_000
	// MaxReplicas is the most replicas one Deployment or ReplicaSet may ask for.
	MaxReplicas = 10_000
	// MaxSteps is the most steps (and, separately, response steps) a
	// scenario may script, and the most inputs a saved run may hold.
	MaxSteps = 1_000
	// MaxExpects is the most expect blocks a scenario may have.
	MaxExpects = 1_000
	// MaxTime is the latest simulated time a step or an expect may name.
	MaxTime = 24 * api.Hour
	// MaxLine bounds a kubectl command line, in bytes.
	MaxLine = 4096
)
