// Package informer is a controller's view of the API server: a cache of the
// objects of the kinds it watches, as the watch events delivered to it last
// showed them, with the indexes its passes read by (dependents by owner,
// pods by node).
//
// A controller never reads the store. It reads its cache, which can be
// stale: a lost watch event leaves it wrong until the next relist repairs
// it. That is why a level-triggered controller re-reads the world on every
// pass instead of trusting what it did before, and why it still converges
// after a lost event (the next pass, after the relist, sees the real gap).
//
// A Cache shares its structure with its clones (checkpoints of a run): a
// clone costs one small slice of its kinds, and each copy then pays for
// what it changes. Its indexes are built on their first use and kept
// after: a cache never asked by owner or by node (a kubelet's, the
// scheduler's) keeps neither.
//
// The controllers of one binary share one cache, as kube-controller-manager's
// share one informer factory: each reads it through a View that sees only
// the kinds it watches, and a controller that leaves the shared watch starts
// from CloneKinds.
package informer
