// Package cron reads the schedule of a CronJob — five fields (minute, hour,
// day of month, month, day of week) or a descriptor such as @hourly — and
// says when it next fires. Times are UTC wall-clock instants: the engine
// turns its simulated clock into them from its fixed epoch, so a schedule
// fires at the same simulated moments in every run.
package cron

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Schedule is a parsed schedule: the set of minutes, hours, days, months
// and weekdays it fires on.
type Schedule struct {
	minute, hour, dom, month, dow uint64
	// domStar and dowStar: the field was "*" (or "?"), so only the other
	// day field restricts the day. When both are restricted, a day
	// matching either fires (as cron has always done).
	domStar, dowStar bool
}

type bounds struct {
	min, max uint
	names    map[string]uint
}

var (
	minutes = bounds{0, 59, nil}
	hours   = bounds{0, 23, nil}
	doms    = bounds{1, 31, nil}
	months  = bounds{1, 12, map[string]uint{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12}}
	dows    = bounds{0, 6, map[string]uint{"sun": 0, "mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6}}
)

var descriptors = map[string]string{
	"@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *",
	"@weekly": "0 0 * * 0", "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@hourly": "0 * * * *",
}

// Parse reads a standard schedule. Its errors read as Kubernetes reports an
// unparseable schedule (the wording of the parser the API server uses).
func Parse(spec string) (*Schedule, error) {
	if spec == "" {
		return nil, fmt.Errorf("empty spec string")
	}
	if strings.HasPrefix(spec, "TZ=") || strings.HasPrefix(spec, "CRON_TZ=") {
		return nil, fmt.Errorf("cannot use TZ or CRON_TZ in schedule, use timeZone field instead")
	}
	if strings.HasPrefix(spec, "@") {
		std, ok := descriptors[spec]
		if !ok {
			return nil, fmt.Errorf("unrecognized descriptor: %s", spec)
		}
		spec = std
	}
	fields := strings.Fields(spec)
	if len(fields) != 5 {
		return nil, fmt.Errorf("expected exactly 5 fields, found %d: %s", len(fields), spec)
	}
	s := &Schedule{}
	var err error
	parts := []struct {
		dst *uint64
		b   bounds
	}{{&s.minute, minutes}, {&s.hour, hours}, {&s.dom, doms}, {&s.month, months}, {&s.dow, dows}}
	for i, p := range parts {
		if *p.dst, err = parseField(fields[i], p.b); err != nil {
			return nil, err
		}
	}
	s.domStar = fields[2] == "*" || fields[2] == "?"
	s.dowStar = fields[4] == "*" || fields[4] == "?"
	// Sunday may be written 7.
	if s.dow&(1<<7) != 0 {
		s.dow = s.dow&^(1<<7) | 1
	}
	return s, nil
}

func parseField(field string, b bounds) (uint64, error) {
	var bits uint64
	for _, expr := range strings.Split(field, ",") {
		v, err := parseRange(expr, b)
		if err != nil {
			return 0, err
		}
		bits |= v
	}
	return bits, nil
}

func parseRange(expr string, b bounds) (uint64, error) {
	rangeAndStep := strings.Split(expr, "/")
	lowAndHigh := strings.Split(rangeAndStep[0], "-")
	single := len(lowAndHigh) == 1
	var start, end uint
	var err error
	max := b.max
	if b.max == 6 {
		max = 7 // Sunday as 7
	}
	if lowAndHigh[0] == "*" || lowAndHigh[0] == "?" {
		start, end = b.min, b.max
	} else {
		if start, err = parseValue(lowAndHigh[0], b); err != nil {
			return 0, err
		}
		switch len(lowAndHigh) {
		case 1:
			end = start
		case 2:
			if end, err = parseValue(lowAndHigh[1], b); err != nil {
				return 0, err
			}
		default:
			return 0, fmt.Errorf("too many hyphens: %s", expr)
		}
	}
	step := uint(1)
	switch len(rangeAndStep) {
	case 1:
	case 2:
		n, err := mustParseInt(rangeAndStep[1])
		if err != nil {
			return 0, err
		}
		step = n
		if single && lowAndHigh[0] != "*" && lowAndHigh[0] != "?" {
			end = b.max // "N/step" means N through the end
		}
	default:
		return 0, fmt.Errorf("too many slashes: %s", expr)
	}
	switch {
	case start < b.min:
		return 0, fmt.Errorf("beginning of range (%d) below minimum (%d): %s", start, b.min, expr)
	case end > max:
		return 0, fmt.Errorf("end of range (%d) above maximum (%d): %s", end, b.max, expr)
	case start > end:
		return 0, fmt.Errorf("beginning of range (%d) beyond end of range (%d): %s", start, end, expr)
	case step == 0:
		return 0, fmt.Errorf("step of range should be a positive number: %s", expr)
	}
	var bits uint64
	for i := start; i <= end; i += step {
		bits |= 1 << i
	}
	return bits, nil
}

func parseValue(s string, b bounds) (uint, error) {
	if v, ok := b.names[strings.ToLower(s)]; ok {
		return v, nil
	}
	return mustParseInt(s)
}

func mustParseInt(s string) (uint, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("failed to parse int from %s: %w", s, err)
	}
	if n < 0 {
		return 0, fmt.Errorf("negative number (%d) not allowed: %s", n, s)
	}
	return uint(n), nil
}

func (s *Schedule) dayMatches(t time.Time) bool {
	dom := s.dom&(1<<uint(t.Day())) != 0
	dow := s.dow&(1<<uint(t.Weekday())) != 0
	if s.domStar || s.dowStar {
		return dom && dow
	}
	return dom || dow
}

// Next returns the first instant strictly after t (UTC, whole minutes) the
// schedule fires at, and false when it does not fire within five years
// (a schedule such as "0 0 30 2 *" never does).
func (s *Schedule) Next(t time.Time) (time.Time, bool) {
	t = t.UTC().Truncate(time.Minute).Add(time.Minute)
	limit := t.AddDate(5, 0, 0)
	for t.Before(limit) {
		switch {
		case s.month&(1<<uint(t.Month())) == 0:
			t = time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC).AddDate(0, 1, 0)
		case !s.dayMatches(t):
			t = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC).AddDate(0, 0, 1)
		case s.hour&(1<<uint(t.Hour())) == 0:
			t = t.Truncate(time.Hour).Add(time.Hour)
		case s.minute&(1<<uint(t.Minute())) == 0:
			t = t.Add(time.Minute)
		default:
			return t, true
		}
	}
	return time.Time{}, false
}
