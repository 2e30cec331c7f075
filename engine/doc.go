// Package engine wires the simulated control plane together: the store
// with Kubernetes' defaulting and validation, the controllers, kubectl and
// the scenario loader. Start here:
//
//	sc, err := scenario.Load("web.yaml", data)
//	s, err := engine.New(sc, sim.Options{})
//	for p, ok := s.Next(); ok; p, ok = s.Next() {
//		fmt.Println(p.Controller, p.Desired, p.Observed, p.Difference)
//	}
//
// The engine is deterministic: no wall clock, no goroutines, no global
// random source, no map order in what it prints. Same scenario, seed and
// inputs give the same trace and digest, natively and in the browser.
package engine
