// Package engine is the simulated control plane: the packages below it,
// each with one job, layered so that each imports only those beneath it
// (docs/architecture.md has the table):
//
//	api, limits, pmap          the object model and its kind registry; bounds
//	yamlpos, manifest          Kubernetes YAML read with positions
//	validation, store          the API server: defaulting, validation, admission, watches
//	informer, queue, registry  a controller's cache and work queue; the image registry
//	controller                 the controllers, their contract and their registry
//	fault, kubectl             the ways a learner acts on the world
//	sim                        a run: clock, agenda, passes, faults, inputs, trace, convergence
//	scenario, assertion, check the lessons as data, and their expects
//
// Start here:
//
//	sc, err := scenario.Load("web.yaml", data)
//	s, err := sim.New(sc.Config())
//	for p, ok := s.Next(); ok; p, ok = s.Next() {
//		fmt.Println(p.Controller, p.Desired, p.Observed, p.Difference)
//	}
//
// The engine is deterministic: no wall clock, no goroutines, no global
// random source, no map order in what it prints. The same config, seed and
// inputs give the same trace and digest, natively and in the browser. This
// package holds the tests that span the engine: the behaviour scripts
// (testdata/*.txt), the property tests, and the lints that keep it
// deterministic.
package engine
