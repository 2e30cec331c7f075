package engine

import (
	"reconcile/engine/api"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// start runs sc, a lesson built by hand, with the horizon until (0: the
// lesson's own).
func start(sc *scenario.Scenario, until api.Time) (*sim.Sim, error) {
	cfg := sc.Config()
	if until > 0 {
		cfg.Until = until
	}
	return sim.New(cfg)
}

// fault parses a fault line the test writes itself.
func fault(line string) sim.Input {
	f, err := sim.ParseFault(line)
	if err != nil {
		panic(err)
	}
	return f
}
