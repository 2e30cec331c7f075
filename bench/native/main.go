//go:build !js

// Command native measures the scale scenario natively for make bench: the
// time to converge, seeks in a 10,000-pass trace and peak memory. It
// writes a scale.Report as JSON.
//
//	go run ./bench/native -o bench-results/native.json
package main

import (
	"encoding/json"
	"flag"
	"log"
	"os"
	"syscall"

	"reconcile/bench/scale"
)

func main() {
	log.SetFlags(0)
	out := flag.String("o", "", "write the report to `FILE` (default: standard output)")
	runs := flag.Int("runs", 3, "runs to convergence")
	trace := flag.Int("trace", 10000, "length of the trace seeks go into, in passes")
	seeks := flag.Int("seeks", 20, "seeks to make")
	flag.Parse()
	r, err := scale.Measure(*runs, *trace, *seeks)
	if err != nil {
		r.Error = err.Error()
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		r.PeakRSS = uint64(ru.Maxrss) * 1024 // kilobytes on Linux
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		log.Fatal(err)
	}
	data = append(data, '\n')
	if *out == "" {
		os.Stdout.Write(data)
	} else if err := os.WriteFile(*out, data, 0o644); err != nil {
		log.Fatal(err)
	}
	if r.Error != "" {
		log.Fatal(r.Error)
	}
}
