// Package controller holds the control loops of the simulated cluster, one
// file per controller, their contract, and the registry that lists them
// (Builtin).
//
// Every level-triggered controller has the shape of controller-runtime's
// Reconciler: a Request is only a key; the pass re-reads the world from the
// controller's own informer cache (which can be stale), compares desired
// with observed, takes one step towards desired through the API (which can
// refuse), and tells its work queue what next in its Result. No pass trusts
// memory of what happened before:
//
//	every pass:
//	  desired  = what the object's spec says
//	  observed = what the cache says is true now
//	  if they differ: act to reduce the difference
//
// Each pass reports on its Context, in the lesson's words, what it desired,
// observed and found different; its actions are recorded as it takes them.
// The simulation records all of it as a pass.
//
// The endpoint controllers (endpointslice.go, endpointslice_pack.go,
// endpoints.go, endpoints_capacity.go) close the
// chain from a Deployment to its users: they list the pods a Service
// selects, ready or not, for kube-proxy (and the simulated traffic) to
// send requests to.
//
// Pod addresses are allocated, not made up: the node IPAM controller
// (nodeipam.go) gives each node a /24 of the cluster's range, and each
// kubelet gives its pods the addresses of its node's /24 as the host-local
// CNI plugin does (kubelet_ipam.go); ipam_ranges.go holds the arithmetic.
//
// The pod garbage collector (podgc.go) deletes the pods no kubelet will
// finish: those bound to a node that is gone, after a quarantine, and
// those being deleted that no kubelet runs. It works from a periodic check
// over every pod, as kube-controller-manager's does, not from events.
//
// The edge-triggered twin of the ReplicaSet controller (replicaset_edge.go)
// is here too: it reacts to events and keeps its own count, and so it is
// wrong forever after one lost, doubled or interrupted event.
package controller
