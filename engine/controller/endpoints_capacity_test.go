package controller

import (
	"testing"

	"reconcile/engine/api"
)

func addresses(n int) []api.EndpointAddress { return make([]api.EndpointAddress, n) }

func TestMarkCapacity(t *testing.T) {
	for _, c := range []struct {
		name           string
		subsets        [][2]int // ready, not ready
		annotated      bool
		want           [][2]int
		wantAnnotation bool
	}{
		{name: "fits", subsets: [][2]int{{600, 400}}, want: [][2]int{{600, 400}}},
		{name: "fits again: the annotation goes", subsets: [][2]int{{10, 0}}, annotated: true, want: [][2]int{{10, 0}}},
		{name: "not-ready ones cut first", subsets: [][2]int{{900, 300}}, want: [][2]int{{900, 100}}, wantAnnotation: true},
		{name: "too many ready: ready ones only", subsets: [][2]int{{1200, 50}}, want: [][2]int{{1000, 0}}, wantAnnotation: true},
		{name: "two subsets keep shares, rounded up", subsets: [][2]int{{300, 300}, {300, 101}}, want: [][2]int{{300, 300}, {300, 100}}, wantAnnotation: true},
		{name: "ready shares", subsets: [][2]int{{750, 1}, {750, 1}}, want: [][2]int{{500, 0}, {500, 0}}, wantAnnotation: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := &api.Endpoints{}
			if c.annotated {
				e.Annotations = map[string]string{OverCapacityAnnotation: "truncated"}
			}
			for _, s := range c.subsets {
				e.Subsets = append(e.Subsets, api.EndpointSubset{Addresses: addresses(s[0]), NotReadyAddresses: addresses(s[1])})
			}
			markCapacity(e)
			for i, s := range e.Subsets {
				if got := [2]int{len(s.Addresses), len(s.NotReadyAddresses)}; got != c.want[i] {
					t.Errorf("subset %d keeps %v, want %v", i, got, c.want[i])
				}
			}
			if got := e.Annotations[OverCapacityAnnotation] == "truncated"; got != c.wantAnnotation {
				t.Errorf("annotated %v, want %v (%v)", got, c.wantAnnotation, e.Annotations)
			}
		})
	}
}
