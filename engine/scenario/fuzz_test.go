package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"reconcile/engine/yamlpos"
	"reflect"
	"testing"
)

// seedFiles are the scenario files the fuzz targets start from: this
// package's testdata and the bundled lessons.
func seedFiles(f *testing.F) [][]byte {
	var out [][]byte
	for _, glob := range []string{"testdata/*.yaml", "../../scenarios/*.yaml"} {
		names, _ := filepath.Glob(glob)
		for _, name := range names {
			data, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			out = append(out, data)
		}
	}
	return out
}

var fuzzSeeds = []string{
	"",
	"id: x\n",
	"id: web\ntitle: [oops\n",
	"a: &a [*a]\n",
	"a: &a [x, x]\nb: [*a, *a, *a]\nc: {<<: {k: v}}\n",
	"apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Pod, metadata: {name: p}}\n",
	"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: -1, strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 0}}}\n",
	"id: web\nsteps:\n- {at: 1m, fault: \"node-down worker-1\"}\n- {afterPass: 3, apply: \"apiVersion: v1\\nkind: ConfigMap\\nmetadata: {name: c}\\n\"}\n",
	"id: web\nexpect:\n- {at: 1m, that: \"pods{app=web,!ready} >= 0\"}\n- {at: 1m, that: \"deployment/web status.conditions[type=Available].status == True\"}\n",
	"id: web\ncluster: {nodes: [{name: n, cpu: 1, taints: [{key: k, effect: NoSchedule}]}], controllers: {replicaset-controller: edge}}\n",
	"id: web\nlead: One line.\nstory:\n- {at: 0s, say: \"Start.\"}\n- {at: 30s, say: >-\n    Later.\n  }\npredict:\n- {at: 1s, ask: who}\n- {at: 2s}\n",
	"--- \n---\n...\n",
	"\t\x00\xff",
}

func FuzzLoad(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	for _, data := range seedFiles(f) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := Load("fuzz.yaml", data)
		if (sc == nil) == (err == nil) {
			t.Fatalf("Load returned scenario %v and error %v: want exactly one", sc != nil, err)
		}
		if err != nil {
			var list yamlpos.ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %T %v is not an ErrorList", err, err)
			}
			for _, e := range list {
				if e.Pos.File != "fuzz.yaml" || e.Pos.Line < 1 || e.Pos.Col < 1 {
					t.Fatalf("error without file:line:column: %q", e.Error())
				}
			}
			return
		}
		for _, m := range sc.Manifests {
			if m.Object == nil || m.Object.GetTypeMeta().Kind == "" {
				t.Fatalf("manifest without an object or a kind at %s", m.Pos)
			}
		}
		again, err := Load("fuzz.yaml", data)
		if err != nil || !reflect.DeepEqual(sc, again) {
			t.Fatalf("loading the same file twice differs: %v", err)
		}
	})
}
