package controller

import (
	"reflect"
	"testing"

	"reconcile/engine/api"
)

// TestOrderConditions: the conditions of known types in the kubelet's
// order, each type's in the order they came, the others dropped; none
// gives nil. Checked against the plain definition on every list of up to
// five conditions drawn from five types, one unknown.
func TestOrderConditions(t *testing.T) {
	order := []string{"PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled", "DisruptionTarget"}
	types := []string{"Ready", "PodScheduled", "Initialized", "Unknown", "ContainersReady"}
	want := func(in []api.PodCondition) []api.PodCondition {
		var out []api.PodCondition
		for _, t := range order {
			for _, c := range in {
				if c.Type == t {
					out = append(out, c)
				}
			}
		}
		return out
	}
	n := 0
	var walk func(in []api.PodCondition)
	walk = func(in []api.PodCondition) {
		st := api.PodStatus{Conditions: append([]api.PodCondition(nil), in...)}
		orderConditions(&st)
		if w := want(in); !reflect.DeepEqual(st.Conditions, w) {
			t.Fatalf("orderConditions(%v) = %v, want %v", in, st.Conditions, w)
		}
		n++
		if len(in) == 5 {
			return
		}
		for i, ty := range types {
			walk(append(append([]api.PodCondition(nil), in...), api.PodCondition{Type: ty, Message: string(rune('a' + len(in)*5 + i))}))
		}
	}
	walk(nil)
	if n < 3000 {
		t.Fatalf("only %d lists tried", n)
	}
}
