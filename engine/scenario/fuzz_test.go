package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
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
			var list ErrorList
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

func FuzzDecodeManifests(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, 1, 1)
	}
	for _, data := range seedFiles(f) {
		if _, block, ok := strings.Cut(string(data), "manifests: |\n"); ok {
			f.Add(block, 12, 3)
		}
	}
	f.Fuzz(func(t *testing.T, text string, line, col int) {
		if line < 1 || col < 1 || line > 1<<20 || col > 1<<10 {
			return
		}
		ms, err := DecodeManifests("fuzz.yaml", text, line, col)
		if err != nil {
			if ms != nil {
				t.Fatalf("manifests returned with an error")
			}
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %T %v is not an ErrorList", err, err)
			}
			for _, e := range list {
				if e.Pos.File != "fuzz.yaml" || e.Pos.Line < line || e.Pos.Col < 1 {
					t.Fatalf("error outside the block starting at %d:%d: %q", line, col, e.Error())
				}
			}
			return
		}
		for _, m := range ms {
			if m.Object == nil || m.Object.GetTypeMeta().Kind == "" || m.Pos.Line < line {
				t.Fatalf("bad manifest %+v", m)
			}
		}
	})
}

func FuzzParseAssertion(f *testing.F) {
	for _, s := range []string{
		"deployment/web status.availableReplicas == 5",
		"rs/web-* status.conditions[type=ReplicaFailure].message contains \"quota\"",
		"deploy/web status.observedGeneration >= metadata.generation",
		"pods{app=web,phase=Running,ready,!terminating} == 5",
		"node/worker-1 metadata.labels[kubernetes.io/hostname] != 'x'",
		"pod/p metadata.creationTimestamp < 1m30s",
		"pods{ == 1", "a/b c[", "x/y a.b[0][1].c == d",
	} {
		f.Add(s)
	}
	objects := sampleObjects()
	f.Fuzz(func(t *testing.T, text string) {
		a, err := ParseAssertion(text, []string{"Service"})
		if err != nil {
			var ae *AssertionError
			if !errors.As(err, &ae) || ae.Offset < 0 || ae.Offset > len(text) {
				t.Fatalf("error %v: want an *AssertionError with an offset within the text", err)
			}
			return
		}
		if a.Count {
			return
		}
		for _, o := range objects {
			if o.GetTypeMeta().Kind == a.Kind {
				a.Path.Lookup(o) // must not panic
				if a.Value.Path != nil {
					a.Value.Path.Lookup(o)
				}
			}
		}
	})
}
