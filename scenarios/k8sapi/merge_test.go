package k8sapi_test

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/util/strategicpatch"

	"reconcile/engine/merge"
)

// TestThreeWayMatchesStrategicPatch checks merge.ThreeWay and merge.Patch against the
// API machinery kubectl apply uses: for random last-applied, new and live
// Deployments (labels, replicas, containers with env, ports, volumeMounts,
// args; volumes; tolerations), kubectl's three-way patch byte for byte,
// the object it makes of the live one, and whether it is empty.
func TestThreeWayMatchesStrategicPatch(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	schema, err := strategicpatch.NewPatchMetaFromStruct(appsv1.Deployment{})
	if err != nil {
		t.Fatal(err)
	}
	n := 3000
	if testing.Short() {
		n = 300
	}
	unchanged, quirks := 0, 0
	for i := 0; i < n; i++ {
		g := &docGen{rng: rng}
		cur := g.deployment()
		orig := g.vary(cur)
		mod := g.vary(orig)
		if rng.Intn(4) == 0 {
			mod = deepJSON(orig) // the same manifest again
		}
		if rng.Intn(6) == 0 {
			orig = nil // the live object was never applied
		}
		origJSON, modJSON, curJSON := mustJSON(t, orig), mustJSON(t, mod), mustJSON(t, cur)
		if orig == nil {
			origJSON = nil
		}
		patch, err := strategicpatch.CreateThreeWayMergePatch(origJSON, modJSON, curJSON, schema, true)
		if err != nil {
			t.Fatalf("case %d: oracle patch: %v", i, err)
		}
		want, err := strategicpatch.StrategicMergePatch(curJSON, patch, appsv1.Deployment{})
		if err != nil {
			t.Fatalf("case %d: oracle merge: %v", i, err)
		}
		if ours := mustJSON(t, merge.Patch(orig, mod, cur)); string(ours) != string(patch) {
			t.Fatalf("case %d: patch differs\noriginal: %s\nmodified: %s\ncurrent:  %s\nwant: %s\ngot:  %s", i, origJSON, modJSON, curJSON, patch, ours)
		}
		if strings.Contains(string(want), `"$`) {
			// An item the live object lost (another writer deleted a
			// container the last apply set) comes back from the patch
			// with its directives still in it: an upstream quirk the
			// API server then decodes away. Not compared.
			quirks++
			continue
		}
		var wantMap map[string]any
		json.Unmarshal(want, &wantMap)
		got, patched := merge.ThreeWay(orig, mod, deepJSON(cur))
		// The same quirk leaves a deletion's null in such an item; the API
		// server decodes a null field as an absent one.
		dropNulls(wantMap)
		if !reflect.DeepEqual(got, wantMap) {
			t.Fatalf("case %d: merged object differs\noriginal: %s\nmodified: %s\ncurrent:  %s\npatch:    %s\nwant:     %s\ngot:      %s",
				i, origJSON, modJSON, curJSON, patch, want, mustJSON(t, got))
		}
		if patched != (string(patch) != "{}") {
			t.Fatalf("case %d: patched = %v, oracle patch %s\noriginal: %s\nmodified: %s\ncurrent:  %s", i, patched, patch, origJSON, modJSON, curJSON)
		}
		if !patched {
			unchanged++
		}
	}
	if unchanged == 0 || unchanged == n {
		t.Fatalf("%d of %d cases unchanged: the generator does not cover both answers", unchanged, n)
	}
	if quirks > n/10 {
		t.Fatalf("%d of %d cases not compared", quirks, n)
	}
	t.Logf("%d cases, %d unchanged, %d not compared (directives left in the oracle's result)", n, unchanged, quirks)
}

func dropNulls(v any) {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if e == nil {
				delete(t, k)
			} else {
				dropNulls(e)
			}
		}
	case []any:
		for _, e := range t {
			dropNulls(e)
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func deepJSON(m map[string]any) map[string]any {
	var out map[string]any
	b, _ := json.Marshal(m)
	json.Unmarshal(b, &out)
	return out
}

// docGen makes Deployment-shaped JSON from small pools of names, so that
// three documents share most of their keys and differ in a few.
type docGen struct{ rng *rand.Rand }

func (g *docGen) pick(pool ...string) string { return pool[g.rng.Intn(len(pool))] }

func (g *docGen) subset(pool []string) []string {
	var out []string
	for _, p := range g.rng.Perm(len(pool)) {
		if g.rng.Intn(2) == 0 {
			out = append(out, pool[p])
		}
	}
	return out
}

func (g *docGen) deployment() map[string]any {
	labels := map[string]any{}
	for _, k := range g.subset([]string{"app", "tier", "team", "env"}) {
		labels[k] = g.pick("a", "b")
	}
	spec := map[string]any{"selector": map[string]any{"matchLabels": map[string]any{"app": "web"}}}
	if g.rng.Intn(3) > 0 {
		spec["replicas"] = float64(1 + g.rng.Intn(5))
	}
	pod := map[string]any{"containers": g.containers()}
	if vs := g.volumes(); len(vs) > 0 {
		pod["volumes"] = vs
	}
	if g.rng.Intn(3) == 0 {
		pod["tolerations"] = []any{map[string]any{"key": g.pick("a", "b"), "operator": "Exists"}}
	}
	if g.rng.Intn(3) == 0 {
		pod["nodeSelector"] = map[string]any{"disk": g.pick("ssd", "hdd")}
	}
	spec["template"] = map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "web"}}, "spec": pod}
	doc := map[string]any{"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "default"}, "spec": spec}
	if len(labels) > 0 {
		doc["metadata"].(map[string]any)["labels"] = labels
	}
	return doc
}

func (g *docGen) containers() []any {
	var out []any
	names := g.subset([]string{"web", "sidecar", "log"})
	if len(names) == 0 {
		names = []string{"web"}
	}
	for _, n := range names {
		c := map[string]any{"name": n, "image": "shop/" + n + ":" + g.pick("1", "2")}
		if env := g.subset([]string{"A", "B", "C"}); len(env) > 0 {
			var l []any
			for _, e := range env {
				l = append(l, map[string]any{"name": e, "value": g.pick("x", "y")})
			}
			c["env"] = l
		}
		if ports := g.subset([]string{"80", "443"}); len(ports) > 0 {
			var l []any
			for _, p := range ports {
				var port float64
				fmt.Sscan(p, &port)
				l = append(l, map[string]any{"containerPort": port, "protocol": "TCP"})
			}
			c["ports"] = l
		}
		if g.rng.Intn(2) == 0 {
			c["volumeMounts"] = []any{map[string]any{"mountPath": "/" + g.pick("data", "cache"), "name": g.pick("data", "cache")}}
		}
		if g.rng.Intn(3) == 0 {
			c["args"] = []any{g.pick("--a", "--b"), "--v"}
		}
		out = append(out, c)
	}
	return out
}

func (g *docGen) volumes() []any {
	var out []any
	for _, n := range g.subset([]string{"data", "cache"}) {
		v := map[string]any{"name": n}
		if g.rng.Intn(2) == 0 {
			v["emptyDir"] = map[string]any{}
		} else {
			v["configMap"] = map[string]any{"name": g.pick("c1", "c2")}
		}
		out = append(out, v)
	}
	return out
}

// vary returns a copy of doc with a few random changes: another writer's
// or a new manifest's.
func (g *docGen) vary(doc map[string]any) map[string]any {
	out := deepJSON(doc)
	for n := g.rng.Intn(4); n > 0; n-- {
		fresh := g.deployment()
		switch g.rng.Intn(8) {
		case 0:
			setOrDelete(out["metadata"].(map[string]any), "labels", fresh["metadata"].(map[string]any)["labels"])
		case 1:
			setOrDelete(out["spec"].(map[string]any), "replicas", fresh["spec"].(map[string]any)["replicas"])
		case 2, 3:
			out["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"] = g.mix(
				podOf(out)["containers"].([]any), podOf(fresh)["containers"].([]any))
		case 4:
			vs, _ := podOf(out)["volumes"].([]any)
			fs, _ := podOf(fresh)["volumes"].([]any)
			setOrDelete(podOf(out), "volumes", g.mixOrNil(vs, fs))
		case 5:
			setOrDelete(podOf(out), "tolerations", podOf(fresh)["tolerations"])
		case 6:
			setOrDelete(podOf(out), "nodeSelector", podOf(fresh)["nodeSelector"])
		case 7:
			if l, ok := out["metadata"].(map[string]any)["labels"].(map[string]any); ok {
				l["extra"] = g.pick("1", "2")
			}
		}
	}
	return out
}

func podOf(doc map[string]any) map[string]any {
	return doc["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)
}

func setOrDelete(m map[string]any, k string, v any) {
	if l, ok := v.([]any); v == nil || ok && len(l) == 0 {
		delete(m, k)
		return
	}
	m[k] = v
}

// mix keeps some items of a, takes some of b (by name), in a random order.
func (g *docGen) mix(a, b []any) []any {
	out := g.mixOrNil(a, b)
	if len(out) == 0 {
		return a
	}
	return out
}

func (g *docGen) mixOrNil(a, b []any) []any {
	seen := map[string]bool{}
	var all []any
	for _, it := range append(append([]any{}, b...), a...) {
		name := it.(map[string]any)["name"].(string)
		if !seen[name] && g.rng.Intn(3) > 0 {
			seen[name] = true
			all = append(all, it)
		}
	}
	g.rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	return all
}
