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

	"reconcile/engine/api"
	"reconcile/engine/kubectl"
	"reconcile/engine/manifest"
	"reconcile/engine/store"
)

// TestApplyTwoWritersMatchesKubectl runs random sequences of writes to one
// Deployment by two writers — one applies manifests (kubectl apply), the
// other labels, scales, adds a sidecar, sets an image and sometimes
// deletes it (kubectl label, scale, patch, set image, delete) — and checks every apply against kubectl's own machinery: the
// live object it leaves is the one CreateThreeWayMergePatch and
// StrategicMergePatch make of the last-applied annotation, the manifest
// and the live object (with the API server's defaults), and it says
// "unchanged" exactly when that patch is empty.
func TestApplyTwoWritersMatchesKubectl(t *testing.T) {
	schema, err := strategicpatch.NewPatchMetaFromStruct(appsv1.Deployment{})
	if err != nil {
		t.Fatal(err)
	}
	runs, steps := 60, 40
	if testing.Short() {
		runs = 10
	}
	counts := map[string]int{}
	for run := 0; run < runs; run++ {
		rng := rand.New(rand.NewSource(int64(run)))
		st := store.New(1)
		text := randomManifest(rng)
		for step := 0; step < steps; step++ {
			switch r := rng.Intn(20); {
			case r < 10:
				if rng.Intn(2) == 0 { // else the same manifest again
					text = randomManifest(rng)
				}
				ms, err := manifest.Decode("m.yaml", text, 1, 1)
				if err != nil {
					t.Fatal(err)
				}
				m := ms[0]
				live := st.Get("Deployment", "default", "web")
				var want map[string]any
				wantResult := "created"
				if live != nil {
					want, wantResult = oracleApply(t, schema, live, m)
				}
				result, _, err := kubectl.Apply(st, m.Object, m.Config)
				if err != nil {
					t.Fatalf("run %d step %d: apply: %v", run, step, err)
				}
				counts["apply "+result]++
				if result != wantResult {
					t.Fatalf("run %d step %d: apply said %s, kubectl's patch says %s", run, step, result, wantResult)
				}
				if want == nil {
					continue
				}
				got := comparable(st.Get("Deployment", "default", "web"))
				if !reflect.DeepEqual(got, want) {
					g, _ := json.Marshal(got)
					w, _ := json.Marshal(want)
					t.Fatalf("run %d step %d: live object after apply\n got: %s\nwant: %s", run, step, g, w)
				}
			case r < 14:
				line := fmt.Sprintf("label deployment web %s=%s --overwrite", pick(rng, "owner", "tier", "team"), pick(rng, "a", "b"))
				if rng.Intn(3) == 0 {
					line = fmt.Sprintf("label deployment web %s-", pick(rng, "owner", "tier", "team"))
				}
				kubectl.Run(st, 0, line)
				counts["label"]++
			case r < 16:
				kubectl.Run(st, 0, fmt.Sprintf("scale deployment web --replicas=%d", 1+rng.Intn(6)))
				counts["scale"]++
			case r < 18:
				// A sidecar only the other writer names: a live list item
				// the manifests never mention.
				kubectl.Run(st, 0, `patch deployment web -p '{"spec":{"template":{"spec":{"containers":[{"name":"proxy","image":"shop/proxy:1.0"}]}}}}'`)
				counts["patch"]++
			case r < 19:
				kubectl.Run(st, 0, fmt.Sprintf("set image deployment/web %s=shop/%s:hotfix", pick(rng, "web", "log"), pick(rng, "web", "log")))
				counts["set image"]++
			default:
				kubectl.Run(st, 0, "delete deployment web")
				counts["delete"]++
			}
		}
	}
	for _, k := range []string{"apply created", "apply configured", "apply unchanged", "label", "scale", "patch", "set image", "delete"} {
		if counts[k] == 0 {
			t.Fatalf("no %q in %d runs: the sequences do not cover it (%v)", k, runs, counts)
		}
	}
	t.Logf("%d runs of %d steps: %v", runs, steps, counts)
}

// oracleApply is what kubectl apply and the API server make of live and
// manifest m, by their own code: the object (defaulted as our API server
// defaults, in comparable form) and kubectl's word.
func oracleApply(t *testing.T, schema strategicpatch.LookupPatchMeta, live api.Object, m manifest.Manifest) (map[string]any, string) {
	t.Helper()
	cfg := copyJSON(m.Config)
	meta := cfg["metadata"].(map[string]any)
	meta["annotations"] = map[string]any{}
	b, _ := json.Marshal(cfg)
	applied := string(b) + "\n"
	meta["annotations"] = map[string]any{kubectl.LastAppliedAnnotation: applied}
	modified, _ := json.Marshal(cfg)
	current, _ := json.Marshal(live)
	original := []byte(live.Meta().Annotations[kubectl.LastAppliedAnnotation])
	patch, err := strategicpatch.CreateThreeWayMergePatch(original, modified, current, schema, true)
	if err != nil {
		t.Fatal(err)
	}
	if string(patch) == "{}" {
		return comparable(live), "unchanged"
	}
	merged, err := strategicpatch.StrategicMergePatch(current, patch, appsv1.Deployment{})
	if err != nil {
		t.Fatal(err)
	}
	var d api.Deployment
	if err := json.Unmarshal(merged, &d); err != nil {
		t.Fatal(err)
	}
	st := store.New(1)
	return comparable(st.Default(&d)), "configured"
}

// comparable is an object's JSON without what only the API server's
// bookkeeping sets (resourceVersion, generation, status).
func comparable(o api.Object) map[string]any {
	var m map[string]any
	b, _ := json.Marshal(o)
	json.Unmarshal(b, &m)
	delete(m, "status")
	meta := m["metadata"].(map[string]any)
	delete(meta, "resourceVersion")
	delete(meta, "generation")
	return m
}

func copyJSON(m map[string]any) map[string]any {
	var out map[string]any
	b, _ := json.Marshal(m)
	json.Unmarshal(b, &out)
	return out
}

func pick(rng *rand.Rand, words ...string) string { return words[rng.Intn(len(words))] }

// randomManifest is a Deployment web as the applying writer might write
// it this time: some labels, replicas or none, one or two containers with
// some environment variables.
func randomManifest(rng *rand.Rand) string {
	var b strings.Builder
	b.WriteString("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels:\n    app: web\n")
	for _, k := range []string{"tier", "team"} {
		if rng.Intn(2) == 0 {
			fmt.Fprintf(&b, "    %s: %s\n", k, pick(rng, "a", "b"))
		}
	}
	b.WriteString("spec:\n")
	if rng.Intn(2) == 0 {
		fmt.Fprintf(&b, "  replicas: %d\n", 1+rng.Intn(6))
	}
	b.WriteString("  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n")
	names := []string{"web"}
	if rng.Intn(3) == 0 {
		names = append(names, "log")
	}
	if rng.Intn(4) == 0 {
		names[0], names = "log", names[:1] // the sidecar alone, for once
	}
	for _, n := range names {
		fmt.Fprintf(&b, "      - name: %s\n        image: shop/%s:%s\n", n, n, pick(rng, "1.0", "2.0"))
		var env []string
		for _, e := range []string{"MODE", "DEBUG"} {
			if rng.Intn(2) == 0 {
				env = append(env, fmt.Sprintf("        - {name: %s, value: %q}\n", e, pick(rng, "x", "y")))
			}
		}
		if len(env) > 0 {
			b.WriteString("        env:\n" + strings.Join(env, ""))
		}
	}
	return b.String()
}
