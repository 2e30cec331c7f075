package session

// AddCheckpoint keeps a snapshot of the run's world (sim.Snapshot),
// written under label, as a checkpoint of the run: a seek to its pass or
// past it starts there instead of computing every pass before it. It
// returns the snapshot's pass; a snapshot of another lesson, build or
// shape, or a damaged one, is an error and changes nothing.
func (s *Session) AddCheckpoint(data []byte, label string) (int, error) {
	return s.run.AddCheckpoint(data, label)
}
