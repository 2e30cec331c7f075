package kubectl

import (
	"strconv"
	"testing"
	"time"
)

// TestYAMLStringQuotesWhatParses holds yamlString's shortcut (the parsers
// are skipped for a string whose first byte cannot start a number or a
// timestamp) to what asking both parsers of every string decides: a string
// is double-quoted when strconv.ParseFloat or RFC 3339 reads it.
func TestYAMLStringQuotesWhatParses(t *testing.T) {
	var cases []string
	for b := 0x20; b < 0x7f; b++ { // every printable first byte, alone and leading
		for _, rest := range []string{"", "1", "nf", "aN", "x1F", "006-01-02T15:04:05Z", "e5", ".5", "Infinity", "_1"} {
			cases = append(cases, string(rune(b))+rest)
		}
	}
	cases = append(cases, "Inf", "-Inf", "+inf", "infinity", "NaN", "nan", "0x1p-2", "1_000", "0b101",
		"2026-12-06T10:00:00Z", "2026-12-06T10:00:00+01:00", "2026-12-06", "1.5e10", "-.5", "+.5e-3", "web-1")
	for _, s := range cases {
		_, ferr := strconv.ParseFloat(s, 64)
		_, terr := time.Parse(time.RFC3339, s)
		got := yamlString(s)
		quoted := got == `"`+s+`"`
		if want := ferr == nil || terr == nil; want && !quoted {
			t.Errorf("yamlString(%q) = %s, want it double-quoted (it reads as a number or a timestamp)", s, got)
		}
	}
}
