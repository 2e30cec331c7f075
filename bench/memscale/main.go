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
	"runtime/metrics"
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
	allocBefore := allocated()
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
	allocAfter := allocated()
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
	fmt.Printf("live heap after: %d MB (%d objects); peak RSS %d MB; GCs %d\n", m.HeapAlloc>>20, m.Objects, ru.Maxrss>>10, m.NumGC)
	fmt.Printf("allocated during the converge: %d MB in %d objects\n", (allocAfter[0]-allocBefore[0])>>20, allocAfter[1]-allocBefore[1])
	fmt.Printf("scannable heap after: %d MB (what a collection reads for pointers)\n", scannable()>>20)
	runtime.KeepAlive(s)
}

// allocated returns the bytes and objects allocated so far: figures that,
// unlike wall and CPU time, do not move with the load of a shared machine.
func allocated() [2]uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}, {Name: "/gc/heap/allocs:objects"}}
	metrics.Read(s)
	return [2]uint64{s[0].Value.Uint64(), s[1].Value.Uint64()}
}

// scannable returns the heap the last collection had to scan for
// pointers (each object up to its last pointer): the collector's work
// follows it and the pointers in it more than the bytes live, and like
// the allocations it does not move with the machine's load.
func scannable() uint64 {
	s := []metrics.Sample{{Name: "/gc/scan/heap:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
