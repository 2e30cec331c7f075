package kinds

import (
	"net"
	"testing"
)

// TestJoinHostPortIsNets: describe's probe line joins host and port as
// net.JoinHostPort does (the net package is left out of the binary).
func TestJoinHostPortIsNets(t *testing.T) {
	for _, c := range [][2]string{{"", "8080"}, {"localhost", "http"}, {"10.0.0.1", "80"}, {"::1", "443"}, {"fe80::1%eth0", "9"}, {"[::1]", "1"}} {
		if got, want := joinHostPort(c[0], c[1]), net.JoinHostPort(c[0], c[1]); got != want {
			t.Errorf("joinHostPort(%q, %q) = %q, net.JoinHostPort says %q", c[0], c[1], got, want)
		}
	}
}
