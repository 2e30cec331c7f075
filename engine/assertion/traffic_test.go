package assertion

import (
	"strings"
	"testing"

	"reconcile/engine/api"
)

func TestTrafficForm(t *testing.T) {
	counts := TrafficCounts{OK: 580, Failed: 20, Digest: func(p string) int {
		if strings.HasPrefix("sha256:aaaa1111", p) {
			return 580
		}
		return 0
	}}
	tests := []struct {
		text    string
		service string
		window  api.Duration
		holds   bool
		got     string
	}{
		{"traffic.failed == 20", "", 0, true, ""},
		{"traffic.failed == 0", "", 0, false, "got 20 (580 ok, 20 failed)"},
		{"traffic(1m).total >= 600", "", api.Minute, true, ""},
		{"traffic/careful(30s).ok < 500", "careful", 30 * api.Second, false, "got 580 (580 ok, 20 failed)"},
		{"traffic/web.digest[sha256:aaaa] == 580", "web", 0, true, ""},
		{"traffic.digest[sha256:bbbb] > 0", "", 0, false, "got 0 (580 ok, 20 failed)"},
	}
	for _, tt := range tests {
		a, err := Parse(tt.text, nil)
		if err != nil {
			t.Errorf("%q: %v", tt.text, err)
			continue
		}
		if a.Traffic == nil || a.Traffic.Service != tt.service || a.Traffic.Window != tt.window {
			t.Errorf("%q: parsed %+v", tt.text, a.Traffic)
			continue
		}
		got, ok := a.EvalTraffic(counts)
		if ok != tt.holds || got != tt.got {
			t.Errorf("%q: got (%q, %v), want (%q, %v)", tt.text, got, ok, tt.got, tt.holds)
		}
	}
	for text, want := range map[string]string{
		"traffic.failed":              "incomplete expect",
		"traffic.failed contains 3":   "a traffic count compares with ==, !=, <, <=, > or >=",
		"traffic.failed == many":      `a traffic count compares with a whole number, got "many"`,
		"traffic/.failed == 0":        "traffic/: want a Service's name",
		"traffic(30s.failed == 0":     "traffic(: the window is not closed",
		"traffic.digest[] == 0":       `unknown traffic field "digest[]"`,
		"traffic.failed == 0 at once": `unexpected "at" after the number`,
	} {
		if _, err := Parse(text, nil); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want an error containing %q", text, err, want)
		}
	}
}
