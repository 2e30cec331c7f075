package kubectl

import (
	"fmt"
	"testing"
)

var scanInputs = []string{"", "0", "5", "10", "+5", "-5", "--5", "+-5", "5x", "x5", "12 34", " 7", "\n7", "\t-3 ",
	"2.5", "1e+06", "3e2", "007", "08", "0x1f", "0X1F", "0xg", "0x", "0b101", "0b2", "0o17", "0O8", "0_1", "1_000", "1__0",
	"_1", "1_", "-0x10", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "99999999999999999999",
	"true", "<nil>", "[1 2]", "map[a:1]", "٣"}

// TestLeadingIntReadsAsSscanf holds leadingInt to fmt.Sscanf(s, "%d").
func TestLeadingIntReadsAsSscanf(t *testing.T) {
	for _, s := range scanInputs {
		want := -1
		_, err := fmt.Sscanf(s, "%d", &want)
		got, ok := leadingInt(s)
		if s != "" && (s[0] == ' ' || s[0] == '\t' || s[0] == '\n') {
			continue // a command line's fields have no space
		}
		if ok != (err == nil) || ok && got != want {
			t.Errorf("%q: leadingInt = %d, %v; Sscanf = %d, %v", s, got, ok, want, err)
		}
	}
}

// TestScannedIntReadsAsSscan holds scannedInt to fmt.Sscan, on strings and
// on what fmt.Sprint makes of the values a decoded object holds.
func TestScannedIntReadsAsSscan(t *testing.T) {
	inputs := append([]string{}, scanInputs...)
	for _, v := range []any{3, int64(-4), 2.0, 2.5, 1e6, 1e21, "6", true, nil, []any{1}, map[string]any{"a": 1}} {
		inputs = append(inputs, fmt.Sprint(v))
	}
	for _, s := range inputs {
		var want int
		fmt.Sscan(s, &want)
		if got := scannedInt(s); got != want {
			t.Errorf("%q: scannedInt = %d; Sscan = %d", s, got, want)
		}
	}
}
