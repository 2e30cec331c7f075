package session

// The names a state holds, checked by hand: as regexps, with their counted
// repetitions ({0,63}, {1,64}), the two took 1,594 allocations and 111 KB
// to compile at every start. names_test.go holds each to its regexp.

// IsSlot reports whether s looks like a lesson id, and so a storage slot:
// ^[a-z0-9-]{1,64}$.
func IsSlot(s string) bool {
	if len(s) < 1 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// isFileName reports whether s may be a scenario's file name in a state:
// ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$.
func isFileName(s string) bool {
	if len(s) < 1 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || c != '.' && c != '_' && c != '-') {
			return false
		}
	}
	return true
}
