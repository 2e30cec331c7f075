package api

import (
	"strings"
	"testing"
)

// TestKindsListedOnce fails when the registry lists a kind twice, or when
// two kinds claim one word kubectl accepts: the index would keep the last
// and hide the first.
func TestKindsListedOnce(t *testing.T) {
	names, words := map[string]bool{}, map[string]string{}
	for _, k := range Kinds() {
		if names[k.Name] {
			t.Errorf("kind %s is listed twice", k.Name)
		}
		names[k.Name] = true
		singular := strings.ToLower(k.Name)
		ws := append([]string{singular}, k.Short...)
		if k.Resource != singular {
			ws = append(ws, k.Resource)
		}
		for _, w := range ws {
			if other, dup := words[w]; dup {
				t.Errorf("%q names both %s and %s", w, other, k.Name)
			}
			words[w] = k.Name
		}
	}
}
