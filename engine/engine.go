package engine

import (
	"reconcile/engine/api"
	"reconcile/engine/kubectl"
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
// manifest decoder wired in.
func New(sc *scenario.Scenario, opts sim.Options) (*sim.Sim, error) {
	if opts.Hooks.Default == nil && opts.Hooks.ValidateCreate == nil {
		h := Hooks()
		h.Admit = opts.Hooks.Admit
		opts.Hooks = h
	}
	s, err := sim.New(sc, opts)
	if err != nil {
		return nil, err
	}
	s.Kubectl = func(st *store.Store, now api.Time, line, stdin string) (string, int) {
		return kubectl.Run(st, now, line)
	}
	s.Decode = func(text string) ([]api.Object, error) { return decode(text) }
	return s, nil
}

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
