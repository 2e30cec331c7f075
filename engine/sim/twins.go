package sim

import (
	"maps"

	"reconcile/engine/controller"
)

// Twins starts two runs of cfg that differ only in how one controller
// (name, which has an edge-triggered twin) runs: level-triggered in level,
// edge-triggered in edge. Given the same inputs at the same moments, any
// difference between them is that controller's doing.
func Twins(cfg Config, name string) (level, edge *Sim, err error) {
	for _, m := range []controller.Mode{controller.Level, controller.Edge} {
		c := cfg
		c.Modes = maps.Clone(cfg.Modes)
		if c.Modes == nil {
			c.Modes = map[string]controller.Mode{}
		}
		c.Modes[name] = m
		s, err := New(c)
		if err != nil {
			return nil, nil, err
		}
		if m == controller.Level {
			level = s
		} else {
			edge = s
		}
	}
	return level, edge, nil
}
