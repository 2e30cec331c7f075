//go:build !js

// Command memscale converges the scale scenario once, natively, and prints
// the time it took, the live heap after it (two GCs) and, from the
// kernel, the peak RSS of the process: the memory figures of issue 17,
// without make bench's seeks. With -memprofile and -cpuprofile it writes
// profiles of the converge.
//
//	go build -o /tmp/memscale ./bench/memscale && /usr/bin/time -v /tmp/memscale
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"runtime"
	"runtime/pprof"
	"syscall"
	"time"

	"reconcile/bench/scale"
)

func main() {
	log.SetFlags(0)
	memprofile := flag.String("memprofile", "", "write a heap profile after the converge to `FILE`")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the converge to `FILE`")
	service := flag.Bool("service", false, "converge scale-10000-service.yaml (one Service in front of the pods) instead")
	flag.Parse()
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			log.Fatal(err)
		}
		pprof.StartCPUProfile(f)
	}
	var before syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	var m0 runtime.MemStats
	runtime.ReadMemStats(&m0)
	t0 := time.Now()
	converge := scale.Converge
	if *service {
		converge = scale.ConvergeService
	}
	c, s, err := converge()
	if err != nil {
		log.Fatal(err)
	}
	took := time.Since(t0)
	var m1 runtime.MemStats
	runtime.ReadMemStats(&m1)
	var after syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	if *cpuprofile != "" {
		pprof.StopCPUProfile()
	}
	cpu := time.Duration(after.Utime.Nano()+after.Stime.Nano()-before.Utime.Nano()-before.Stime.Nano()) * time.Nanosecond
	m := scale.ReadMemory()
	if *memprofile != "" {
		f, err := os.Create(*memprofile)
		if err != nil {
			log.Fatal(err)
		}
		pprof.WriteHeapProfile(f)
		f.Close()
	}
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	fmt.Printf("converged: %d passes, simulated %s, wall %s (engine %.0f ms), CPU %s\n", c.Passes, c.SimTime, took.Round(time.Millisecond), c.Millis, cpu.Round(time.Millisecond))
	fmt.Printf("allocated during the converge: %d MB in %d objects (steady figures where CPU time is noisy)\n", (m1.TotalAlloc-m0.TotalAlloc)>>20, m1.Mallocs-m0.Mallocs)
	fmt.Printf("live heap after: %d MB (%d objects); peak RSS %d MB; GCs %d\n", m.HeapAlloc>>20, m.Objects, ru.Maxrss>>10, m.NumGC)
	runtime.KeepAlive(s)
}
