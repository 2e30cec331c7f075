// Command snapread times what a deep link into the scale scenario does
// before it shows its pass, natively or compiled to WebAssembly and run
// by Node (the same V8 as the browser, without the page): open the
// scenario, start the run (sim.New), read a snapshot of its world
// (AddCheckpoint, with the collector paused as the player pauses it) and
// compute the passes after it up to the pass asked for.
//
//	go run ./bench/snapread -pass 30000 -after 0 -runs 5
//	GOOS=js GOARCH=wasm go build -o /tmp/snapread.wasm ./bench/snapread
//	node "$(go env GOROOT)/lib/wasm/wasm_exec_node.js" /tmp/snapread.wasm -runs 5
//
// The snapshot is written natively the first time (-snap names the file;
// the run converges to -pass first, a few seconds) and read from the file
// after (Node gives the program its file system). Each figure is the
// median of -runs runs, with the allocations of the read; the CPU times
// are the process's (in Node, V8's compiler threads too: the first run of
// a process is the one a page's deep link makes, its code not yet
// optimised).
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"time"

	"reconcile/bench/scale"
	"reconcile/engine/sim"
)

func main() {
	snapPath := flag.String("snap", "", "the snapshot `file`, written when missing (default: $TMPDIR/reconcile-scale-PASS.snap)")
	pass := flag.Int("pass", 30000, "the pass the snapshot is of, when it is written")
	after := flag.Int("after", 0, "the passes computed after the snapshot")
	runs := flag.Int("runs", 5, "runs")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the reads to `file`")
	memprofile := flag.String("memprofile", "", "write an allocation profile to `file`")
	flag.Parse()
	if *snapPath == "" {
		*snapPath = filepath.Join(os.TempDir(), fmt.Sprintf("reconcile-scale-%d.snap", *pass))
	}
	data, err := os.ReadFile(*snapPath)
	if err != nil {
		data, err = write(*pass)
		if err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(*snapPath, data, 0o644); err != nil {
			log.Fatal(err)
		}
	}
	k, _, err := sim.SnapshotPass(data)
	if err != nil {
		log.Fatal(err)
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			log.Fatal(err)
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	var load, start, read, seek, allocs, bytes []float64
	var cload, cstart, cread, cseek []float64
	for range *runs {
		runtime.GC()
		c0 := cpuTime()
		t0 := time.Now()
		sc, err := scale.Load()
		if err != nil {
			log.Fatal(err)
		}
		t1, c1 := time.Now(), cpuTime()
		s, err := sim.New(sc.Config())
		if err != nil {
			log.Fatal(err)
		}
		t2, c2 := time.Now(), cpuTime()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		gc := debug.SetGCPercent(-1)
		t3, c3 := time.Now(), cpuTime()
		if _, err := s.AddCheckpoint(data, "scale"); err != nil {
			log.Fatal(err)
		}
		t4, c4 := time.Now(), cpuTime()
		runtime.ReadMemStats(&m1)
		if err := s.Seek(k + *after); err != nil {
			log.Fatal(err)
		}
		t5, c5 := time.Now(), cpuTime()
		debug.SetGCPercent(gc)
		cload = append(cload, ms(c1-c0))
		cstart = append(cstart, ms(c2-c1))
		cread = append(cread, ms(c4-c3))
		cseek = append(cseek, ms(c5-c4))
		load = append(load, ms(t1.Sub(t0)))
		start = append(start, ms(t2.Sub(t1)))
		read = append(read, ms(t4.Sub(t3)))
		seek = append(seek, ms(t5.Sub(t4)))
		allocs = append(allocs, float64(m1.Mallocs-m0.Mallocs))
		bytes = append(bytes, float64(m1.TotalAlloc-m0.TotalAlloc)/1e6)
		fmt.Printf("run: load %.1f ms, sim.New %.1f ms, read %.1f ms (%.0f allocs, %.1f MB), %d passes %.1f ms\n",
			load[len(load)-1], start[len(start)-1], read[len(read)-1], allocs[len(allocs)-1], bytes[len(bytes)-1], *after, seek[len(seek)-1])
	}
	med := func(x []float64) float64 { return scale.Quantile(x, 0.5) }
	fmt.Printf("%s, snapshot of pass %d (%.1f MB): medians of %d: load %.1f ms, sim.New %.1f ms, read %.1f ms (%.0f allocs, %.1f MB), %d passes after it %.1f ms; total %.1f ms\n",
		runtime.GOARCH, k, float64(len(data))/1e6, *runs, med(load), med(start), med(read), med(allocs), med(bytes), *after, med(seek),
		med(load)+med(start)+med(read)+med(seek))
	fmt.Printf("%s CPU: load %.1f ms, sim.New %.1f ms, read %.1f ms, %d passes %.1f ms; total %.1f ms\n",
		runtime.GOARCH, med(cload), med(cstart), med(cread), *after, med(cseek), med(cload)+med(cstart)+med(cread)+med(cseek))
	if *memprofile != "" {
		f, err := os.Create(*memprofile)
		if err != nil {
			log.Fatal(err)
		}
		pprof.Lookup("allocs").WriteTo(f, 0)
		f.Close()
	}
}

// write converges the scenario to pass n and writes its world.
func write(n int) ([]byte, error) {
	sc, err := scale.Load()
	if err != nil {
		return nil, err
	}
	s, err := sim.New(sc.Config())
	if err != nil {
		return nil, err
	}
	s.DropCheckpoints()
	for s.PassCount() < n {
		if _, ok := s.Next(); !ok {
			return nil, fmt.Errorf("the run ended at pass %d", s.PassCount())
		}
	}
	s.Digest() // as the site's snapshots (wasm/snapshots.go)
	return s.Snapshot("scale")
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
