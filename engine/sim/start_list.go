package sim

import (
	"iter"

	"reconcile/engine/api"
)

// startList is what a process starting lists of kind: the store's
// objects of it, but for a kubelet's Node only its own node, read by its
// name (visible lets it through and no other). A cluster of 1,000 nodes
// starts 1,000 kubelets: walking every node for each was a million steps
// of sim.New, most of its time in a tab.
func (w *world) startList(c *process, kind string) iter.Seq[api.Object] {
	if c.host == "" || kind != "Node" {
		return w.store.Each(kind)
	}
	return func(yield func(api.Object) bool) {
		if o := w.store.Get("Node", "", c.host); o != nil {
			yield(o)
		}
	}
}
