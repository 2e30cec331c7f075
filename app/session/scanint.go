package session

import (
	"strconv"
	"strings"
)

// intBetween reads the decimal integer (an optional sign, then digits)
// that s holds after prefix and before suffix, as the engine writes it
// ("spec.replicas = 3", "3 active pods"). It reports false when s is not
// of that form. It reads as fmt.Sscanf(s, prefix+"%d"+suffix) does, but
// for a space, which matches only itself (Sscanf takes a run of them: the
// engine writes one). Sscanf is not used so that app.wasm need not carry
// fmt's scanner.
func intBetween(s, prefix, suffix string) (int, bool) {
	rest, ok := strings.CutPrefix(s, prefix)
	if !ok {
		return 0, false
	}
	end := 0
	if end < len(rest) && (rest[end] == '+' || rest[end] == '-') {
		end++
	}
	digits := end
	for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
		end++
	}
	if end == digits || !strings.HasPrefix(rest[end:], suffix) {
		return 0, false
	}
	n, err := strconv.Atoi(rest[:end])
	return n, err == nil
}
