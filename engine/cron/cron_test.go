package cron

import (
	"testing"
	"time"
)

func TestNext(t *testing.T) {
	from := time.Date(2026, 1, 1, 9, 0, 30, 0, time.UTC) // a Thursday
	for _, c := range []struct{ spec, want string }{
		{"* * * * *", "2026-01-01T09:01:00Z"},
		{"*/5 * * * *", "2026-01-01T09:05:00Z"},
		{"@hourly", "2026-01-01T10:00:00Z"},
		{"@daily", "2026-01-02T00:00:00Z"},
		{"@weekly", "2026-01-04T00:00:00Z"},
		{"@monthly", "2026-02-01T00:00:00Z"},
		{"@yearly", "2027-01-01T00:00:00Z"},
		{"30 8 * * mon-fri", "2026-01-02T08:30:00Z"},
		{"0 0 13 * 5", "2026-01-02T00:00:00Z"}, // day 13 or a Friday
		{"15,45 9-10 * * *", "2026-01-01T09:15:00Z"},
		{"0 12 * feb sun", "2026-02-01T12:00:00Z"},
		{"0 0 * * 7", "2026-01-04T00:00:00Z"},
		{"5/20 * * * *", "2026-01-01T09:05:00Z"},
	} {
		s, err := Parse(c.spec)
		if err != nil {
			t.Fatalf("%q: %v", c.spec, err)
		}
		got, ok := s.Next(from)
		if !ok || got.Format(time.RFC3339) != c.want {
			t.Errorf("%q: next after %s = %s %v, want %s", c.spec, from.Format(time.RFC3339), got.Format(time.RFC3339), ok, c.want)
		}
	}
	never, _ := Parse("0 0 30 2 *")
	if _, ok := never.Next(from); ok {
		t.Errorf("30 February fired")
	}
}

func TestParseErrors(t *testing.T) {
	for spec, want := range map[string]string{
		"* * *":            "expected exactly 5 fields, found 3: * * *",
		"60 * * * *":       "end of range (60) above maximum (59): 60",
		"* * 0 * *":        "beginning of range (0) below minimum (1): 0",
		"x * * * *":        `failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax`,
		"@fortnightly":     "unrecognized descriptor: @fortnightly",
		"TZ=UTC * * * * *": "cannot use TZ or CRON_TZ in schedule, use timeZone field instead",
		"5-1 * * * *":      "beginning of range (5) beyond end of range (1): 5-1",
		"*/0 * * * *":      "step of range should be a positive number: */0",
	} {
		_, err := Parse(spec)
		if err == nil || err.Error() != want {
			t.Errorf("Parse(%q) = %v, want %s", spec, err, want)
		}
	}
}
