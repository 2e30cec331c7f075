package session

import (
	"fmt"
	"time"
)

// SeekSome moves towards just after pass n for about d, and reports
// whether it got there. It is Seek a slice at a time, for a page that must
// not freeze while it goes far (a deep link to pass 30,000 of a big
// world, or a step back from there when the checkpoint before is a
// snapshot thousands of passes back): backwards, or to a checkpoint
// ahead, it goes to the nearest checkpoint at or before n; then it runs
// the passes after it, checking the clock after each, and leaves the run
// where it stopped. A slice runs at least one pass.
// The times of the passes met are learnt once per slice, not per pass.
func (s *Session) SeekSome(n int, d time.Duration) (bool, error) {
	if n < 0 {
		return false, fmt.Errorf("pass %d: passes count from 0", n)
	}
	if s.final && n > s.known {
		n = s.known
	}
	s.jumps++
	run := s.run
	// Back, or to a checkpoint ahead: from the checkpoint, then the
	// passes after it a slice at a time like any others (a checkpoint
	// can be thousands of passes before n).
	// (Not ahead while a challenge's judge watches the run: it must see
	// every pass on the way.)
	watched := s.following() != nil
	if cp := run.NearestCheckpoint(n); n < run.PassCount() || cp > run.PassCount() && !watched {
		if err := run.Seek(cp); err != nil {
			return false, s.ended(err)
		}
	}
	start := time.Now()
	for run.PassCount() < n {
		if _, ok := s.next(); !ok {
			// The run ends before n: the engine's Seek says so in its words.
			return false, s.ended(run.Seek(n))
		}
		if time.Since(start) > d {
			break
		}
	}
	s.learn(run)
	s.known = max(s.known, run.PassCount())
	return run.PassCount() == n, nil
}

// ended learns the passes met on the way to a seek that failed, and that
// the run ends at the current pass when it failed for that.
func (s *Session) ended(err error) error {
	s.learn(s.run)
	s.known = max(s.known, s.run.PassCount())
	if err != nil {
		s.final, s.known = true, s.run.PassCount()
	}
	return err
}
