package sim

import "reconcile/engine/api"

// LiveKinds and LiveList let a controller read the API server directly
// (controller.LiveReader), as the namespace controller lists what a
// namespace holds.
func (w *world) LiveKinds() []string { return w.store.Kinds() }

// LiveList returns the stored objects of kind.
func (w *world) LiveList(kind string) []api.Object { return w.store.List(kind) }
