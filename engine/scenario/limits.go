package scenario

import "reconcile/engine/api"

// Limits on what one scenario file may ask of the loader and the engine.
// Each error that enforces one names it and its value.
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
	// MaxSteps is the most steps (and, separately, response steps) a scenario may script.
	MaxSteps = 1_000
	// MaxExpects is the most expect blocks a scenario may have.
	MaxExpects = 1_000
	// MaxTime is the latest simulated time a step or an expect may name.
	MaxTime = 24 * api.Hour
)
