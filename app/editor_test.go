package app

import (
	"testing"

	"reconcile/engine/limits"
)

// TestPastedLength: a paste that replaces a selection counts what stays; a
// drop replaces nothing; over MaxFileSize is refused.
func TestPastedLength(t *testing.T) {
	for _, c := range []struct {
		value, start, end, in int
		drop                  bool
		want                  int
		over                  bool
	}{
		{100, 0, 0, 50, false, 150, false},
		{100, 10, 60, 50, false, 100, false},
		{100, 10, 60, 50, true, 150, false},
		{0, 0, 0, limits.MaxFileSize, false, limits.MaxFileSize, false},
		{0, 0, 0, 2 << 20, false, 2 << 20, true},
		{limits.MaxFileSize, 0, limits.MaxFileSize, 10, false, 10, false},
		{limits.MaxFileSize, 0, limits.MaxFileSize, 10, true, limits.MaxFileSize + 10, true},
	} {
		if n, over := pastedLength(c.value, c.start, c.end, c.in, c.drop); n != c.want || over != c.over {
			t.Errorf("pastedLength(%d, %d, %d, %d, %v) = %d, %v; want %d, %v", c.value, c.start, c.end, c.in, c.drop, n, over, c.want, c.over)
		}
	}
}
