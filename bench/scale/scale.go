// Package scale is the scale scenario of make bench, 1,000 nodes and a
// Deployment of 10,000 pods, and the measurements made of it the same way
// natively and in the browser (compiled to WebAssembly): the time to
// converge, and seeks in a 10,000-pass trace.
package scale

import (
	_ "embed"
	"fmt"
	"runtime"
	"sort"
	"time"

	"reconcile/engine/api"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

//go:generate go run gen.go

// File is the scenario, scale-10000.yaml.
//
//go:embed scale-10000.yaml
var File []byte

// The scenario's id, its file name and its size.
const (
	ID       = "scale-10000"
	FileName = ID + ".yaml"
	Nodes    = 1000
	Pods     = 10000
	// Until is the horizon of every run of it.
	Until = 10 * api.Minute
)

// Load reads the scenario.
func Load() (*scenario.Scenario, error) { return scenario.Load(FileName, File) }

// Start loads the scenario and starts a run of it as the player does.
func Start() (*sim.Sim, error) { return startWith(Load) }

// startWith starts a run of the scenario load reads, as the player does.
func startWith(load func() (*scenario.Scenario, error)) (*sim.Sim, error) {
	sc, err := load()
	if err != nil {
		return nil, err
	}
	cfg := sc.Config()
	cfg.Until = Until
	return sim.New(cfg)
}

// Converged is one run of the scenario to convergence.
type Converged struct {
	// Passes is how many passes ran until every pod was available.
	Passes int `json:"passes"`
	// Millis is the wall time of those passes (the world's build excluded).
	Millis float64 `json:"millis"`
	// StartMillis is the time sim.New took (load and build).
	StartMillis float64 `json:"startMillis"`
	// SimTime is the simulated time of convergence.
	SimTime string `json:"simTime"`
	// PassesPerSecond is Passes over Millis.
	PassesPerSecond float64 `json:"passesPerSecond"`
}

// Converge runs the scenario until its Deployment has 10,000 available
// pods. It returns the run, converged, for a look at its memory.
func Converge() (Converged, *sim.Sim, error) {
	return converge(Load, func(*sim.Sim) bool { return true })
}

// converge starts a run of the scenario load reads, as the player does,
// and runs it until its Deployment has 10,000 available pods and done
// holds too, timing the start and the passes apart.
func converge(load func() (*scenario.Scenario, error), done func(*sim.Sim) bool) (Converged, *sim.Sim, error) {
	t0 := time.Now()
	s, err := startWith(load)
	if err != nil {
		return Converged{}, nil, err
	}
	start := time.Since(t0)
	t1 := time.Now()
	sliceEnd := t1.Add(slice)
	for {
		if now := time.Now(); now.After(sliceEnd) {
			yield()
			sliceEnd = time.Now().Add(slice)
		}
		if _, ok := s.Next(); !ok {
			return Converged{}, nil, fmt.Errorf("the run ended after %d passes at %s without converging", s.PassCount(), s.Now())
		}
		if d, ok := s.Store().Get("Deployment", "default", "web").(*api.Deployment); ok && d.Status.AvailableReplicas == Pods && done(s) {
			break
		}
	}
	el := time.Since(t1)
	c := Converged{
		Passes:      s.PassCount(),
		Millis:      ms(el),
		StartMillis: ms(start),
		SimTime:     s.Now().String(),
	}
	c.PassesPerSecond = float64(c.Passes) / el.Seconds()
	return c, s, nil
}

// Seeks is a trial of seeks to pseudo-random passes of a trace.
type Seeks struct {
	// Trace is the length of the trace in passes, BuildMillis the time
	// running it took.
	Trace       int     `json:"trace"`
	BuildMillis float64 `json:"buildMillis"`
	// Millis are the times of each seek, in the order made.
	Millis []float64 `json:"millis"`
	Median float64   `json:"median"`
	P95    float64   `json:"p95"`
	Max    float64   `json:"max"`
}

// Seek runs the scenario for trace passes, then seeks to n pseudo-random
// passes of it (the same ones on every platform), timing each seek.
func Seek(trace, n int) (Seeks, error) {
	s, err := Start()
	if err != nil {
		return Seeks{}, err
	}
	t0 := time.Now()
	if err := s.Seek(trace); err != nil {
		return Seeks{}, err
	}
	out := Seeks{Trace: trace, BuildMillis: ms(time.Since(t0))}
	r := uint32(7919)
	for i := 0; i < n; i++ {
		r = r*1103515245 + 12345
		to := int(r>>8) % (trace + 1)
		t := time.Now()
		if err := s.Seek(to); err != nil {
			return Seeks{}, err
		}
		out.Millis = append(out.Millis, ms(time.Since(t)))
	}
	out.Median, out.P95, out.Max = Quantile(out.Millis, 0.5), Quantile(out.Millis, 0.95), Quantile(out.Millis, 1)
	return out, nil
}

// Memory is what the Go runtime says of the heap.
type Memory struct {
	// HeapAlloc is the live heap after a collection, in bytes.
	HeapAlloc uint64 `json:"heapAlloc"`
	// Objects is how many objects the live heap holds.
	Objects uint64 `json:"objects"`
	// Sys is everything the runtime obtained from the system (never
	// returned on WebAssembly: the peak).
	Sys uint64 `json:"sys"`
	// NumGC is how many collections ran.
	NumGC uint32 `json:"numGC"`
}

// ReadMemory collects garbage (twice: nothing left floating) and reads the
// heap.
func ReadMemory() Memory {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return Memory{HeapAlloc: m.HeapAlloc, Objects: m.HeapObjects, Sys: m.Sys, NumGC: m.NumGC}
}

// Quantile returns the q-quantile (nearest rank) of xs, which it does not
// change.
func Quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	i := int(q*float64(len(s))+0.999999) - 1
	return s[min(max(i, 0), len(s)-1)]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Report is what one platform measured of the scenario.
type Report struct {
	// Platform is runtime.GOOS/runtime.GOARCH.
	Platform string `json:"platform"`
	// Converge are the runs to convergence, in order.
	Converge []Converged `json:"converge"`
	// Memory is the heap with the last converged run alive.
	Memory Memory `json:"memory"`
	// DigestMillis is the time of the first digest of the converged
	// world, NextDigestMillis that of a pass and the digest after it (the
	// player shows the digest after every pass).
	DigestMillis     float64 `json:"digestMillis"`
	NextDigestMillis float64 `json:"nextDigestMillis"`
	Seeks            Seeks   `json:"seeks"`
	// PeakRSS is the process's peak resident set, natively (bytes).
	PeakRSS uint64 `json:"peakRSS,omitempty"`
	Error   string `json:"error,omitempty"`
	// ServiceConverge are the runs of scale-10000-service.yaml to
	// convergence (the same world with one Service in front), natively.
	ServiceConverge []Converged `json:"serviceConverge,omitempty"`
}

// Measure runs the scenario to convergence runs times, then the seek trial
// (seeks seeks in a trace of trace passes).
func Measure(runs, trace, seeks int) (Report, error) {
	r := Report{Platform: runtime.GOOS + "/" + runtime.GOARCH}
	var last *sim.Sim
	for i := 0; i < runs; i++ {
		last = nil // let the previous run go before the next starts
		c, s, err := Converge()
		if err != nil {
			return r, err
		}
		r.Converge = append(r.Converge, c)
		last = s
	}
	if last != nil {
		r.Memory = ReadMemory()
		t := time.Now()
		last.Digest()
		r.DigestMillis = ms(time.Since(t))
		t = time.Now()
		if _, ok := last.Next(); ok {
			last.Digest()
			r.NextDigestMillis = ms(time.Since(t))
		}
		runtime.KeepAlive(last)
		last = nil
	}
	if trace > 0 {
		sk, err := Seek(trace, seeks)
		if err != nil {
			return r, err
		}
		r.Seeks = sk
	}
	return r, nil
}

// MedianConverge is the run of median time.
func (r Report) MedianConverge() Converged {
	if len(r.Converge) == 0 {
		return Converged{}
	}
	c := append([]Converged(nil), r.Converge...)
	sort.Slice(c, func(i, j int) bool { return c[i].Millis < c[j].Millis })
	return c[(len(c)-1)/2]
}
