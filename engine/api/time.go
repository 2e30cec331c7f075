package api

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Time is a simulated instant: milliseconds since the run started. It renders
// as an RFC 3339 timestamp counted from Epoch, never from the wall clock.
type Time int64

// Duration is a simulated duration in milliseconds.
type Duration = Time

// Common durations.
const (
	Millisecond Duration = 1
	Second               = 1000 * Millisecond
	Minute               = 60 * Second
	Hour                 = 60 * Minute
)

// Epoch is the wall-clock instant that simulated time 0 renders as.
var Epoch = time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)

// Wall returns the rendered wall-clock instant of t.
func (t Time) Wall() time.Time { return Epoch.Add(time.Duration(t) * time.Millisecond) }

// String renders t as an offset from the start of the run, e.g. "1m30s".
func (t Time) String() string { return FormatDuration(Duration(t)) }

// MarshalJSON renders t as an RFC 3339 timestamp: a JSON string whose
// characters (digits, '-', ':', 'T', 'Z') need no escaping, so it is
// quoted as it is, without encoding/json (every stored object's times are
// marshalled for the digest).
func (t Time) MarshalJSON() ([]byte, error) {
	if t == NoTime {
		return []byte("null"), nil
	}
	b := make([]byte, 0, len(time.RFC3339)+8)
	b = append(b, '"')
	b = t.Wall().AppendFormat(b, time.RFC3339)
	return append(b, '"'), nil
}

// NoTime is a Time the object leaves unset, which renders as null (the
// timestamps of an Event of the events.k8s.io recorder).
const NoTime Time = math.MinInt64

// MicroTime is a metav1.MicroTime: a Time rendered to the microsecond
// (RFC 3339 with six digits of fraction), as an Event's eventTime and its
// series' lastObservedTime are.
type MicroTime Time

// MarshalJSON renders t as metav1.MicroTime does (RFC3339Micro).
func (t MicroTime) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 32)
	b = append(b, '"')
	b = Time(t).Wall().UTC().AppendFormat(b, "2006-01-02T15:04:05.000000Z07:00")
	return append(b, '"'), nil
}

// FormatDuration renders d compactly: "0s", "850ms", "34s", "1m30s", "2h0m5s".
func FormatDuration(d Duration) string {
	if d < 0 {
		return "-" + FormatDuration(-d)
	}
	if d < Second && d != 0 {
		return strconv.FormatInt(int64(d), 10) + "ms"
	}
	return (time.Duration(d) * time.Millisecond).String()
}

// ParseDuration reads "30s", "2m", "1h30m", "500ms" or a bare number of seconds.
func ParseDuration(s string) (Duration, error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n < 0 {
			return 0, fmt.Errorf("invalid duration %q: must not be negative", s)
		}
		if n > int64(math.MaxInt64/Second) {
			return 0, fmt.Errorf("invalid duration %q: too large", s)
		}
		return Duration(n) * Second, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("invalid duration %q: want a number of seconds or a Go duration such as 30s, 2m, 1h30m", s)
	}
	if d < 0 {
		return 0, fmt.Errorf("invalid duration %q: must not be negative", s)
	}
	return Duration(d / time.Millisecond), nil
}

// HumanDuration renders d the way kubectl renders ages: "34s", "3m2s", "12m",
// "4h10m", "30h", "5d".
func HumanDuration(d Duration) string {
	sec := int64(d / Second)
	switch {
	case sec < -1: // a moment ahead of now, as apimachinery's HumanDuration says
		return "<invalid>"
	case sec < 0:
		return "0s"
	case sec < 120:
		return fmt.Sprintf("%ds", sec)
	}
	min := sec / 60
	switch {
	case min < 10:
		if s := sec % 60; s != 0 {
			return fmt.Sprintf("%dm%ds", min, s)
		}
		return fmt.Sprintf("%dm", min)
	case min < 180:
		return fmt.Sprintf("%dm", min)
	}
	hours := min / 60
	switch {
	case hours < 8:
		if m := min % 60; m != 0 {
			return fmt.Sprintf("%dh%dm", hours, m)
		}
		return fmt.Sprintf("%dh", hours)
	case hours < 48:
		return fmt.Sprintf("%dh", hours)
	}
	return fmt.Sprintf("%dd", hours/24)
}

// UnmarshalJSON reads an RFC 3339 timestamp back into simulated time.
func (t *Time) UnmarshalJSON(b []byte) error {
	var s *string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if s == nil {
		*t = 0
		return nil
	}
	w, err := time.Parse(time.RFC3339, *s)
	if err != nil {
		return err
	}
	*t = Time(w.Sub(Epoch) / time.Millisecond)
	return nil
}
