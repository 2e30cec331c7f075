package engine

import (
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
	"reconcile/engine/store"
	"reconcile/engine/validation"
)

// Hooks are the API server's defaulting and validation, as Kubernetes does them.
func Hooks() store.Hooks {
	return store.Hooks{Default: validation.Default, ValidateCreate: validation.ValidateCreate, ValidateUpdate: validation.ValidateUpdate}
}

// New starts a run of sc with the real API server rules, kubectl and the
// manifest decoder (what sim.New does by default).
func New(sc *scenario.Scenario, opts sim.Options) (*sim.Sim, error) { return sim.New(sc, opts) }

// Twins starts the level-triggered and edge-triggered runs of sc: the same
// cluster, manifests and inputs, with the ReplicaSet controller in each mode.
func Twins(sc *scenario.Scenario, opts sim.Options) (level, edge *sim.Sim, err error) {
	lo, eo := opts, opts
	lo.Controllers = map[string]string{"replicaset-controller": "level"}
	eo.Controllers = map[string]string{"replicaset-controller": "edge"}
	if level, err = New(sc, lo); err != nil {
		return nil, nil, err
	}
	if edge, err = New(sc, eo); err != nil {
		return nil, nil, err
	}
	return level, edge, nil
}
