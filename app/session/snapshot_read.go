package session

import "reconcile/engine/sim"

// ReadSnapshot reads a snapshot of the run's world (sim.ReadSnapshot)
// without keeping it: yield, when not nil, is called as the read goes, so
// a page can read it a slice at a time. KeepSnapshot keeps what it read.
func (s *Session) ReadSnapshot(data []byte, label string, yield func()) (*sim.SnapshotRead, error) {
	return s.run.ReadSnapshot(data, label, yield)
}

// KeepSnapshot keeps a world ReadSnapshot read as a checkpoint of the run
// (AddCheckpoint's second half); it returns its pass.
func (s *Session) KeepSnapshot(r *sim.SnapshotRead) (int, error) {
	return s.run.KeepSnapshot(r)
}
