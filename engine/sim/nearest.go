package sim

// NearestCheckpoint is the pass of the checkpoint a seek to pass n starts
// from: the last one kept at or before n (0, the start, when none is), or
// a later world kept for stepping back (stepback.go). A caller that moves
// forward a slice at a time (a page that must not freeze while it goes
// far) seeks there first when it lies ahead of the current pass, then runs
// the passes after it.
func (s *Sim) NearestCheckpoint(n int) int { return s.startOf(n).pass }
