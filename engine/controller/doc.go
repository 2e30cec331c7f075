// Package controller holds the control loops of the simulated cluster, one
// file per controller, and the contract they share.
//
// Every level-triggered controller has the shape of controller-runtime's
// Reconciler: a request is only a key; the pass re-reads the world from the
// controller's own informer cache (which can be stale), compares desired
// with observed, and takes one step towards desired through the API (which
// can refuse). No pass trusts memory of what happened before:
//
//	every pass:
//	  desired  = what the object's spec says
//	  observed = what the cache says is true now
//	  if they differ: act to reduce the difference
//
// Each pass fills in a Context with the lesson's words: desired, observed,
// difference, actions, outcome. The sim records them.
//
// The edge-triggered twin of the ReplicaSet controller (replicaset_edge.go)
// is here too: it reacts to events and keeps its own count, and so it is
// wrong forever after one lost, doubled or interrupted event.
package controller
