//go:build !js

// Command native measures the scale scenario natively for make bench: the
// time to converge, seeks in a 10,000-pass trace and peak memory, and the
// time to converge the same world with a Service in front of its pods. It
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
	serviceRuns := flag.Int("service-runs", 1, "runs to convergence of the scenario with a Service in front of the pods")
	flag.Parse()
	r, err := scale.Measure(*runs, *trace, *seeks)
	if err != nil {
		r.Error = err.Error()
	}
	for i := 0; i < *serviceRuns && r.Error == ""; i++ {
		c, _, err := scale.ConvergeService()
		if err != nil {
			r.Error = scale.ServiceID + ": " + err.Error()
			break
		}
		r.ServiceConverge = append(r.ServiceConverge, c)
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
