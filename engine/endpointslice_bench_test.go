package engine

import (
	"fmt"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/manifest"
	"reconcile/engine/sim"
)

// serviceWorld is benchScenario's world with a Service in front of its
// pods, run until every pod is listed ready.
func serviceWorld(tb testing.TB, nodes, pods int) *sim.Sim {
	sc := benchScenario(nodes, pods)
	svc := &api.Service{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Service"},
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.ServiceSpec{Selector: map[string]string{"app": "web"},
			Ports: []api.ServicePort{{Name: "http", Port: 80, TargetPort: api.IntOrString{Int: 8080}}}}}
	sc.Manifests = append(sc.Manifests, manifest.Manifest{Object: svc})
	s, err := start(sc, 24*api.Hour)
	if err != nil {
		tb.Fatal(err)
	}
	s.RunUntil(3*api.Minute, 0)
	if n := readyListed(s); n != pods {
		tb.Fatalf("%d endpoints listed ready after 3m, want %d", n, pods)
	}
	return s
}

func readyListed(s *sim.Sim) int {
	n := 0
	for _, o := range s.Store().List("EndpointSlice") {
		for _, e := range o.(*api.EndpointSlice).Endpoints {
			if e.Conditions.Ready != nil && *e.Conditions.Ready {
				n++
			}
		}
	}
	return n
}

// slicesWritten sums, over the slices whose resourceVersion differs from
// before, how many endpoints they hold: what the writes carried.
func slicesWritten(s *sim.Sim, before map[string]string) (slices, endpoints int) {
	for _, o := range s.Store().List("EndpointSlice") {
		es := o.(*api.EndpointSlice)
		if before[es.Name] != es.ResourceVersion {
			slices++
			endpoints += len(es.Endpoints)
		}
	}
	return slices, endpoints
}

func sliceVersions(s *sim.Sim) map[string]string {
	out := map[string]string{}
	for _, o := range s.Store().List("EndpointSlice") {
		out[o.Meta().Name] = o.Meta().ResourceVersion
	}
	return out
}

// BenchmarkServicePodChange measures one pod's change behind a Service in
// a converged world: the pod is deleted (kubectl delete pod), and the
// passes that follow run for 30 s: its endpoint turns terminating and
// goes, its replacement is created, scheduled, started and listed ready.
// It reports the slices written per change and the endpoints those writes
// carried: slices of at most 100, whatever the Service's size. Compare the
// two sizes.
func BenchmarkServicePodChange(b *testing.B) {
	worlds := map[int]*sim.Sim{}
	for _, size := range []struct{ nodes, pods int }{{100, 1000}, {1000, 10000}} {
		b.Run(fmt.Sprintf("pods=%d", size.pods), func(b *testing.B) {
			s := worlds[size.pods]
			if s == nil {
				s = serviceWorld(b, size.nodes, size.pods)
				worlds[size.pods] = s
			}
			var written, slices, passes int
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				before := sliceVersions(s)
				pods := s.Store().List("Pod")
				victim := pods[(i*7919)%len(pods)].Meta().Name
				if _, err := s.Inject(sim.Kubectl{Line: "delete pod " + victim}); err != nil {
					b.Fatal(err)
				}
				n := s.PassCount()
				s.RunUntil(s.Now()+30*api.Second, 0)
				passes += s.PassCount() - n
				sl, ep := slicesWritten(s, before)
				slices += sl
				written += ep
			}
			b.StopTimer()
			if n := readyListed(s); n != size.pods {
				b.Fatalf("%d endpoints listed ready after the changes, want %d", n, size.pods)
			}
			b.ReportMetric(float64(passes)/float64(b.N), "passes/op")
			b.ReportMetric(float64(slices)/float64(b.N), "slices-written/op")
			b.ReportMetric(float64(written)/float64(b.N), "endpoints-written/op")
		})
	}
}

// The slices of a Service in front of 1,000 pods hold at most 100
// endpoints each, and list every pod once.
func TestServiceSlicesAtScale(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 1,000-pod world")
	}
	s := serviceWorld(t, 100, 1000)
	seen := map[string]bool{}
	slices := 0
	for _, o := range s.Store().List("EndpointSlice") {
		es := o.(*api.EndpointSlice)
		slices++
		if len(es.Endpoints) > controller.MaxEndpointsPerSlice {
			t.Errorf("slice %s holds %d endpoints, more than %d", es.Name, len(es.Endpoints), controller.MaxEndpointsPerSlice)
		}
		for _, e := range es.Endpoints {
			if seen[e.TargetRef.Name] {
				t.Errorf("pod %s listed twice", e.TargetRef.Name)
			}
			seen[e.TargetRef.Name] = true
		}
	}
	if len(seen) != 1000 || slices < 10 {
		t.Errorf("%d pods listed in %d slices, want 1000 in at least 10", len(seen), slices)
	}
}
