package api

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// parseIPv4BySplit is the plain definition parseIPv4 must agree with.
func parseIPv4BySplit(s string) (uint32, bool) {
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return 0, false
	}
	var out uint32
	for _, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 255 || p != strconv.Itoa(n) {
			return 0, false
		}
		out = out<<8 | uint32(n)
	}
	return out, true
}

// TestIPv4TextAgrees: ParseIPv4 reads what the plain definition reads and
// refuses what it refuses, on addresses and on near misses; FormatIPv4
// writes what fmt writes, and ParseIPv4 reads it back.
func TestIPv4TextAgrees(t *testing.T) {
	cases := []string{"", ".", "...", "1.2.3", "1.2.3.4.5", "1.2.3.", ".1.2.3", "01.2.3.4", "1.2.3.04", "+1.2.3.4",
		"-0.1.2.3", "256.0.0.0", "255.255.255.255", "0.0.0.0", "1..2.3", "1.2.3.4 ", "a.b.c.d", "1.2.3.1000", "10.0.0.5", "1_0.0.0.1"}
	for _, a := range []uint32{0, 1, 255, 256, 0x0a000005, 0xc0a80101, 0xffffffff, 0x7f000001} {
		want := fmt.Sprintf("%d.%d.%d.%d", a>>24, a>>16&0xff, a>>8&0xff, a&0xff)
		if got := FormatIPv4(a); got != want {
			t.Errorf("FormatIPv4(%#x) = %q, want %q", a, got, want)
		}
		cases = append(cases, want)
		if back, ok := ParseIPv4(FormatIPv4(a)); !ok || back != a {
			t.Errorf("ParseIPv4(FormatIPv4(%#x)) = %#x, %v", a, back, ok)
		}
	}
	for _, s := range cases {
		gotN, gotOK := ParseIPv4(s)
		wantN, wantOK := parseIPv4BySplit(s)
		if gotN != wantN || gotOK != wantOK {
			t.Errorf("ParseIPv4(%q) = %#x, %v; want %#x, %v", s, gotN, gotOK, wantN, wantOK)
		}
	}
}
