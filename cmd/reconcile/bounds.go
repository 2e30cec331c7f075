package main

import (
	"flag"
	"fmt"
	"runtime"
	"strconv"
	"strings"

	"reconcile/engine/check"
	"reconcile/engine/limits"
	"reconcile/engine/sim"
)

// DefaultMaxMemory is the memory bound of a run or a check: the heap the
// process may hold before the run stops.
const DefaultMaxMemory = limits.MaxMemory

// boundFlags are the flags every command that plays a run takes.
type boundFlags struct {
	maxPasses *int
	maxMemory *string
}

func addBounds(flags *flag.FlagSet) boundFlags {
	return boundFlags{
		maxPasses: flags.Int("max-passes", check.DefaultMaxPasses, "stop a run after this many passes"),
		maxMemory: flags.String("max-memory", "2GiB", "stop a run when the process holds this much heap, e.g. 512MiB, 4GiB"),
	}
}

// parse returns the pass bound and the memory bound as a sim.Bounds.Over.
// The memory bound reads the Go heap every sim.CheckEvery passes: where a
// run stops for it depends on the machine, not on the scenario, and the
// message says so.
func (b boundFlags) parse() (int, func() string, error) {
	if *b.maxPasses < 1 {
		return 0, nil, fmt.Errorf("--max-passes %d: want a number of passes, 1 or more", *b.maxPasses)
	}
	limit, err := parseBytes(*b.maxMemory)
	if err != nil {
		return 0, nil, fmt.Errorf("--max-memory %s: %v", *b.maxMemory, err)
	}
	over := func() string {
		heap := heapInUse()
		if heap <= limit {
			return ""
		}
		return fmt.Sprintf("the memory bound is reached (%s of heap in use, --max-memory %s; where a run stops for it depends on the machine)",
			formatBytes(heap), *b.maxMemory)
	}
	return *b.maxPasses, over, nil
}

// heapInUse is the Go heap the process holds (a variable for tests).
var heapInUse = func() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// parseBytes reads "512MiB", "2GiB", "1.5GB", "800MB" or a number of bytes.
func parseBytes(s string) (uint64, error) {
	units := []struct {
		suffix string
		n      float64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1}, {"", 1}}
	for _, u := range units {
		num, ok := strings.CutSuffix(s, u.suffix)
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(num, 64)
		if err != nil || v <= 0 {
			break
		}
		if v*u.n < 64<<20 {
			return 0, fmt.Errorf("want at least 64MiB")
		}
		return uint64(v * u.n), nil
	}
	return 0, fmt.Errorf("want a size such as 512MiB or 4GiB")
}

func formatBytes(n uint64) string {
	if n >= 1<<30 {
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	}
	return fmt.Sprintf("%d MiB", n>>20)
}

// passShow is which passes -o text and -o json print: all (the default),
// none, or the last N.
type passShow struct {
	none bool
	last int // > 0: only the last N
}

// parsePasses reads --passes: a number of passes to run (count), or which
// passes to print: "none", "all", "last N" (also "last=N", "last:N").
func parsePasses(v string) (count int, show passShow, err error) {
	switch v {
	case "", "all":
		return 0, show, nil
	case "none":
		return 0, passShow{none: true}, nil
	}
	if rest, ok := strings.CutPrefix(v, "last"); ok {
		rest = strings.TrimLeft(rest, " =:")
		if n, err := strconv.Atoi(rest); err == nil && n >= 1 {
			return 0, passShow{last: n}, nil
		}
		return 0, show, fmt.Errorf("--passes %s: want last N with N 1 or more, e.g. \"last 20\"", v)
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, show, fmt.Errorf("--passes %s: want a number of passes, 1 or more, or none, all or \"last N\"", v)
	}
	return n, show, nil
}

// of returns the passes to print of ps.
func (s passShow) of(ps []sim.Pass) []sim.Pass {
	switch {
	case s.none:
		return nil
	case s.last > 0 && s.last < len(ps):
		return ps[len(ps)-s.last:]
	}
	return ps
}

// passes counts passes in words: "1 pass", "3 passes".
func passes(n int) string {
	if n == 1 {
		return "1 pass"
	}
	return fmt.Sprintf("%d passes", n)
}
