// Package api is the object model of the simulated control plane: the
// Kubernetes kinds the playground reconciles (Deployment, ReplicaSet, Pod,
// Node, Event, Lease), shaped like their apps/v1 and core/v1 counterparts so
// that what a learner reads or copies out is real Kubernetes.
//
// Objects are plain data. Every kind has DeepCopy: controllers copy what they
// read from a cache before they change it, and the store copies what it keeps.
// Times are simulated: a Time is a duration since the start of the run and is
// rendered from a fixed epoch, so a run never depends on the wall clock.
package api
