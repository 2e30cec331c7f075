package sim

import (
	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/registry"
)

// The machines of the cluster, and what else the world knows outside the
// store: the world is the controllers' controller.World.

// A kubelet renews its node's lease every HeartbeatPeriod while it runs.
// The renewals are not stored as writes: only the node lifecycle
// controller reads them, so the last one is computed when it asks.
type beat struct {
	since   api.Time // when the kubelet began renewing
	stopped api.Time // when it stopped, if it has
	running bool
}

func (w *world) beatStart(node string) {
	if b, _ := w.beats.Get(node); !b.running {
		w.beats.Set(node, beat{since: w.now, running: true})
	}
}

func (w *world) beatStop(node string) {
	if b, _ := w.beats.Get(node); b.running {
		b.running, b.stopped = false, w.now
		w.beats.Set(node, b)
	}
}

// LastHeartbeat implements controller.World.
func (w *world) LastHeartbeat(node string) api.Time {
	b, ok := w.beats.Get(node)
	if !ok {
		return 0
	}
	if !b.running {
		// the renewals strictly before it stopped
		if b.stopped <= b.since {
			return b.since
		}
		return b.since + (b.stopped-b.since-1)/HeartbeatPeriod*HeartbeatPeriod
	}
	return b.since + (w.now-b.since)/HeartbeatPeriod*HeartbeatPeriod
}

// Heartbeating implements controller.World.
func (w *world) Heartbeating(node string) bool {
	b, _ := w.beats.Get(node)
	return b.running
}

// Image implements controller.World: the simulated registry.
func (w *world) Image(ref string) registry.Image { return w.registry.Image(ref) }

// Runtime implements controller.World.
func (w *world) Runtime(node string) *controller.Runtime {
	rt, _ := w.runtimes.Get(node)
	switch {
	case rt == nil:
		rt = controller.NewRuntime()
	case !w.rtOwned[node]:
		rt = rt.Clone()
	default:
		return rt
	}
	w.runtimes.Set(node, rt)
	if w.rtOwned == nil {
		w.rtOwned = map[string]bool{}
	}
	w.rtOwned[node] = true
	return rt
}

// SideEffect implements controller.World.
func (w *world) SideEffect(p *api.Pod, what string) {
	w.drain() // what the pass wrote before, first
	e := SideEffect{At: w.now, AtText: w.now.String(), Pod: p.Namespace + "/" + p.Name, What: what}
	w.outside = append(w.outside, e)
	w.hash(e)
}

// Git implements controller.World.
func (w *world) Git() controller.Git { return w.git }

// NodeUp implements controller.World.
func (w *world) NodeUp(node string) bool {
	up, _ := w.nodeUp.Get(node)
	return up
}
