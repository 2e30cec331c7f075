// Package store is the simulated API server: a store with a watch interface,
// not an executor. It defaults and validates (package validation), admits
// (validating webhooks, ResourceQuota), persists objects, stamps
// resourceVersion, uid and metadata.generation, records events (with their
// counts, as the legacy recorder; the scheduler's as series, as the
// events.k8s.io recorder, whose periodic writes SetNow makes: series.go),
// and logs what changed for its owner to fan out to the watches
// (TakeChanges). Everything that changes the world is a controller reacting
// to what it stored.
//
// A Store calls out to nothing: its clock is set by its owner, its names are
// generated from its own seeded source, and its changes wait in its log. So
// it is a value a checkpoint copies (Clone), with nothing to re-wire.
//
// Stored objects are immutable: the store keeps its own copy of what it is
// given and hands the same pointer to every watcher. Readers copy before
// they change anything. That makes a checkpoint of the store a copy of its
// maps, not of its objects. The events the recorder stores are kept in a
// map of their own in the order first recorded (recorded.go), so that the
// events after a checkpoint copy one path of it, not one each.
package store
