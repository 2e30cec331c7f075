package sim

// ConvergedMoving is Converged and Moving(max) read together, in one walk
// of the checks (Converged then Moving walk them twice on a world that
// has not converged: the first reason, then the lines): whether the world
// has converged, and when it has not, the first max lines of what is
// still moving (max < 1: all of them), the first of which is the reason
// Converged gives. It fills Converged's memo, so a Converged after it at
// the same moment walks nothing.
func (s *Sim) ConvergedMoving(max int) (bool, []string) {
	lines := s.w.moving(max)
	s.w.remember(s.w.movingKey(), lines)
	return len(lines) == 0, lines
}
