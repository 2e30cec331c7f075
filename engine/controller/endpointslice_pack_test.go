package controller

import (
	"fmt"
	"strings"
	"testing"

	"reconcile/engine/api"
)

// packSvc is the Service the packing tests plan for.
var packSvc = &api.Service{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default", UID: "svc-uid"},
	Spec: api.ServiceSpec{Selector: map[string]string{"app": "web"}, Ports: []api.ServicePort{{Name: "http", Protocol: "TCP", Port: 80, TargetPort: api.IntOrString{Int: 8080}}}}}

func packPod(i int) endpointOf {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("web-%03d", i), Namespace: "default", UID: fmt.Sprintf("uid-%d", i)}}
	p.Status.PodIP = fmt.Sprintf("10.0.%d.%d", i/200, i%200)
	p.Spec.NodeName = "node-1"
	return endpointOf{pod: p, ready: true, serving: true}
}

// packSlice is an existing slice of the Service listing pods from..to-1.
func packSlice(name string, from, to int) *api.EndpointSlice {
	s := newSlice(packSvc, []api.EndpointPort{{Name: "http", Protocol: "TCP", Port: 8080}}, packLabels())
	s.Name = name
	for i := from; i < to; i++ {
		s.Endpoints = append(s.Endpoints, endpointFor(packPod(i)))
	}
	return s
}

func packLabels() map[string]string {
	return map[string]string{ServiceNameLabel: "web", ManagedByLabel: managedByValue}
}

func packPods(ranges ...[2]int) []endpointOf {
	var out []endpointOf
	for _, r := range ranges {
		for i := r[0]; i < r[1]; i++ {
			out = append(out, packPod(i))
		}
	}
	return out
}

// planText says what a plan writes: "create 100, update a=40, delete b".
func planText(p slicePlan) string {
	var parts []string
	for _, s := range p.create {
		parts = append(parts, fmt.Sprintf("create %d", len(s.Endpoints)))
	}
	for _, s := range p.update {
		parts = append(parts, fmt.Sprintf("update %s=%d", s.Name, len(s.Endpoints)))
	}
	for _, s := range p.del {
		parts = append(parts, "delete "+s.Name)
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, ", ")
}

func TestPlanSlices(t *testing.T) {
	for _, c := range []struct {
		name     string
		existing []*api.EndpointSlice
		pods     []endpointOf
		want     string
	}{
		{"250 new endpoints: two full slices and the rest",
			nil, packPods([2]int{0, 250}), "create 100, create 100, create 50"},
		{"the placeholder is reused for the last slice to create",
			[]*api.EndpointSlice{placeholderOf()}, packPods([2]int{0, 150}), "create 100, update ph=50"},
		{"no endpoints: the placeholder stays",
			[]*api.EndpointSlice{placeholderOf()}, nil, "nothing"},
		{"no endpoints left: the slices go and a placeholder takes the place of one",
			[]*api.EndpointSlice{packSlice("a", 0, 10), packSlice("b", 10, 20)}, nil, "update a=0, delete b"},
		{"nothing changed",
			[]*api.EndpointSlice{packSlice("a", 0, 100), packSlice("b", 100, 130)}, packPods([2]int{0, 130}), "nothing"},
		{"one pod gone: only its slice is written",
			[]*api.EndpointSlice{packSlice("a", 0, 100), packSlice("b", 100, 130)}, packPods([2]int{0, 50}, [2]int{51, 130}), "update a=99"},
		{"new endpoints fill the slice being written first",
			[]*api.EndpointSlice{packSlice("a", 0, 100), packSlice("b", 100, 130)}, packPods([2]int{0, 129}, [2]int{200, 205}), "update b=34"},
		{"new endpoints go to the unchanged slice they fit best",
			[]*api.EndpointSlice{packSlice("a", 0, 60), packSlice("b", 60, 90), packSlice("c", 90, 170)}, packPods([2]int{0, 170}, [2]int{200, 215}), "update c=95"},
		{"too many for any unchanged slice: a new one, no rebalancing",
			[]*api.EndpointSlice{packSlice("a", 0, 60), packSlice("b", 60, 90)}, packPods([2]int{0, 90}, [2]int{200, 280}), "create 80"},
		{"a slice an earlier Service of the name left is deleted, not reused",
			[]*api.EndpointSlice{foreign()}, packPods([2]int{0, 5}), "create 5, delete old"},
	} {
		t.Run(c.name, func(t *testing.T) {
			plan := planSlices(packSvc, c.existing, groupEndpoints(packSvc, c.pods), packLabels(), MaxEndpointsPerSlice)
			if got := planText(plan); got != c.want {
				t.Errorf("plan %q, want %q", got, c.want)
			}
			for _, s := range append(plan.create, plan.update...) {
				if len(s.Endpoints) > MaxEndpointsPerSlice {
					t.Errorf("a slice of %d endpoints", len(s.Endpoints))
				}
			}
		})
	}
}

func placeholderOf() *api.EndpointSlice {
	s := newSlice(packSvc, nil, packLabels())
	s.Name = "ph"
	return s
}

// foreign is a slice with the Service's labels owned by an earlier Service
// of the same name.
func foreign() *api.EndpointSlice {
	s := packSlice("old", 0, 5)
	s.OwnerReferences[0].UID = "earlier-uid"
	return s
}
