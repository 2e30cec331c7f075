package session

import (
	"fmt"
	"testing"
)

// TestIntBetweenReadsAsSscanf holds intBetween to the fmt.Sscanf it
// replaces on what the engine writes and on what it does not.
func TestIntBetweenReadsAsSscanf(t *testing.T) {
	for _, s := range []string{"spec.replicas = 3", "spec.replicas = 0", "spec.replicas = -2", "spec.replicas = +7",
		"spec.replicas = 12 and more", "spec.replicas = ", "spec.replicas = x", "spec.replicas 3", "", "spec.replicas = 99999999999999999999"} {
		var want int
		_, err := fmt.Sscanf(s, "spec.replicas = %d", &want)
		got, ok := intBetween(s, "spec.replicas = ", "")
		if ok != (err == nil) || ok && got != want {
			t.Errorf("%q: intBetween = %d, %v; Sscanf = %d, %v", s, got, ok, want, err)
		}
	}
	for _, s := range []string{"3 active pods", "0 active pods", "-1 active pods", "12 active pods, 2 more", "3 active", "active pods", "x active pods"} {
		var want int
		_, err := fmt.Sscanf(s, "%d active pods", &want)
		got, ok := intBetween(s, "", " active pods")
		if ok != (err == nil) || ok && got != want {
			t.Errorf("%q: intBetween = %d, %v; Sscanf = %d, %v", s, got, ok, want, err)
		}
	}
}
