package scenario

import (
	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/manifest"
	"reconcile/engine/registry"
	"reconcile/engine/sim"
	"strings"
)

// Config returns the run the lesson describes: its cluster, its manifests
// as the objects stored at t=0, its steps as inputs scheduled ahead, and a
// horizon ten minutes past its last step or expect (at least ten minutes).
// The response is not in it: a learner applies it (Sim.Inject).
func (sc *Scenario) Config() sim.Config {
	cfg := sim.Config{Seed: sc.Seed, Until: sc.Horizon(), WarnUnknownFields: sc.Validate == manifest.Warn}
	for _, n := range sc.Cluster.Nodes {
		cfg.Nodes = append(cfg.Nodes, sim.Node{Name: n.Name, CPU: n.CPU, Memory: n.Memory, Pods: n.Pods,
			Labels: n.Labels, Taints: n.Taints, Unschedulable: n.Unschedulable, Source: n.Pos.String()})
	}
	for _, im := range sc.Cluster.Images {
		cfg.Images = append(cfg.Images, registry.Image{Ref: im.Ref, Digest: im.Digest, Pull: im.Pull, Start: im.Start,
			Ready: im.Ready, Crash: im.Crash, Healthy: im.Healthy, PullError: im.PullError,
			ExitCode: im.ExitCode, Runs: im.Runs, Warmup: im.Warmup, Stops: im.Stops, StartupFails: im.StartupFails,
			PostStartFails: im.PostStartFails, PreStopFails: im.PreStopFails, Memory: im.Memory.Value(), Commands: im.Commands})
	}
	if len(sc.Cluster.Controllers) > 0 {
		cfg.Modes = map[string]controller.Mode{}
		for _, c := range sc.Cluster.Controllers {
			cfg.Modes[c.Name] = c.Mode
		}
	}
	if g := sc.Cluster.GitOps; g != nil {
		cfg.GitOps = &sim.GitOps{Interval: g.Interval}
	}
	cfg.ClusterCIDR = sc.Cluster.ClusterCIDR
	cfg.Traffic = simTraffic(sc.Traffic)
	for _, m := range sc.Manifests {
		cfg.Objects = append(cfg.Objects, sim.Object{Object: m.Object, Source: m.Pos.String(), Config: m.Config})
	}
	for _, st := range sc.Steps {
		cfg.Steps = append(cfg.Steps, sim.Step{At: st.At, AfterPass: st.AfterPass, Input: st.Input})
	}
	for _, n := range sc.Notes {
		if _, text, ok := strings.Cut(n, ": Note: "); ok {
			cfg.Notes = append(cfg.Notes, text)
		}
	}
	return cfg
}

// Horizon is how far a run of the lesson goes: ten minutes past its last
// step or expect, at least ten minutes.
func (sc *Scenario) Horizon() api.Time {
	var last api.Duration
	for _, st := range sc.Steps {
		last = max(last, st.At)
	}
	for _, e := range sc.Expect {
		last = max(last, e.At)
	}
	return max(last+sim.DefaultHorizon, sim.DefaultHorizon)
}
