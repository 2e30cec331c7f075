package manifest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reconcile/engine/yamlpos"
)

// seedBlocks are the manifests blocks of the bundled lessons and of the
// loader's testdata, and a few texts that once broke a parser.
func seedBlocks(f *testing.F) []string {
	out := []string{
		"",
		"a: &a [*a]\n",
		"a: &a [x, x]\nb: [*a, *a, *a]\nc: {<<: {k: v}}\n",
		"apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Pod, metadata: {name: p}}\n",
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: -1, strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 0}}}\n",
		"--- \n---\n...\n",
		"\t\x00\xff",
	}
	for _, glob := range []string{"../scenario/testdata/*.yaml", "../../scenarios/*.yaml"} {
		names, _ := filepath.Glob(glob)
		for _, name := range names {
			data, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			if _, block, ok := strings.Cut(string(data), "manifests: |\n"); ok {
				out = append(out, block)
			}
		}
	}
	return out
}

func FuzzDecode(f *testing.F) {
	for _, s := range seedBlocks(f) {
		f.Add(s, 1, 1)
		f.Add(s, 12, 3)
	}
	f.Fuzz(func(t *testing.T, text string, line, col int) {
		if line < 1 || col < 1 || line > 1<<20 || col > 1<<10 {
			return
		}
		ms, err := Decode("fuzz.yaml", text, line, col)
		if err != nil {
			if ms != nil {
				t.Fatalf("manifests returned with an error")
			}
			var list yamlpos.ErrorList
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
