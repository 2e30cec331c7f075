package kubectl

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/limits"
	"reconcile/engine/store"
)

// deployments is a store of n Deployments, each with a label of pad bytes.
func deployments(t testing.TB, n, pad int) *store.Store {
	t.Helper()
	st := store.New(1)
	for i := 0; i < n; i++ {
		labels := map[string]string{"app": fmt.Sprintf("web-%d", i)}
		_, err := st.Create(&api.Deployment{
			TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
			ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("web-%d", i), Namespace: "default", Labels: labels, Annotations: map[string]string{"pad": strings.Repeat("x", pad)}},
			Spec: api.DeploymentSpec{Replicas: api.Int32(3), Selector: &api.LabelSelector{MatchLabels: labels},
				Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels},
					Spec: api.PodSpec{Containers: []api.Container{{Name: "web", Image: "shop/web:1.0"}}}}},
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return st
}

// whole is a List printed as it was before lists were printed an object
// at a time: the whole List marshalled at once.
func whole(t *testing.T, st *store.Store, format string) string {
	t.Helper()
	var items []api.Object
	for _, o := range st.List("Deployment") {
		items = append(items, o)
	}
	if items == nil {
		items = []api.Object{}
	}
	v := map[string]any{"apiVersion": "v1", "kind": "List", "items": items, "metadata": map[string]string{"resourceVersion": ""}}
	if format == "yaml" {
		return YAML(toJSON(v))
	}
	out, err := json.MarshalIndent(toJSON(v), "", "    ")
	if err != nil {
		t.Fatal(err)
	}
	return string(out) + "\n"
}

// TestListAnObjectAtATime: a List printed an object at a time reads as
// the whole List marshalled at once, in JSON and YAML, empty or not.
func TestListAnObjectAtATime(t *testing.T) {
	for _, n := range []int{0, 1, 3} {
		st := deployments(t, n, 10)
		for _, format := range []string{"json", "yaml"} {
			got := Exec(st, 0, "get deployments -o "+format)
			if want := whole(t, st, format); got.Output != want || got.Code != 0 {
				t.Errorf("%d deployments, -o %s: exit %d\n%s\nwant\n%s", n, format, got.Code, got.Output, want)
			}
		}
	}
}

// TestListStopsPastRoom: a List over MaxOutput is cut where the whole
// would be, and its rendering stops an object past the room it is given:
// 3,000 Deployments of 1 KB each (4.7 MB of JSON) render about 1 MiB, and
// with no room left in the run (room 0) the List's head alone.
func TestListStopsPastRoom(t *testing.T) {
	st := deployments(t, 3000, 1000)
	for _, format := range []string{"json", "yaml"} {
		all := whole(t, st, format)
		if len(all) < 3*limits.MaxOutput {
			t.Fatalf("-o %s: the whole List is %d bytes, want over 3 MiB", format, len(all))
		}
		want, _ := limits.CutOutput(all)
		got := Exec(st, 0, "get deployments -o "+format)
		if got.Output != want || got.Code != 1 {
			t.Errorf("-o %s: exit %d, output %d bytes ending %q; want the whole cut at MaxOutput, %d bytes", format, got.Code, len(got.Output), got.Output[max(0, len(got.Output)-100):], len(want))
		}
		for _, room := range []int{0, 5000, limits.MaxOutput} {
			k := &cmd{st: st, in: mustParse(t, "get deployments -o "+format), ns: "default", room: max(room, 1)}
			out, err := k.get()
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(all, out) || len(out) <= room || len(out) > room+4000 || (room == 0 && strings.Contains(out, "web-0")) {
				t.Errorf("-o %s with room %d: %d bytes rendered, want a prefix of the whole just past the room", format, room, len(out))
			}
		}
	}
}

func mustParse(t *testing.T, line string) *Invocation {
	t.Helper()
	in, err := Parse(line)
	if err != nil {
		t.Fatal(err)
	}
	return in
}
