// Package store is the simulated API server: a store with a watch interface,
// not an executor. It defaults, validates, admits and persists objects,
// stamps resourceVersion, uid and metadata.generation, and tells watchers
// what changed. Everything that changes the world is a controller reacting
// to what it stored.
//
// Stored objects are immutable: the store keeps its own copy of what it is
// given and hands the same pointer to every watcher. Readers copy before
// they change anything. That makes a checkpoint of the store a copy of its
// maps, not of its objects.
package store
