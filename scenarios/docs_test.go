package scenarios_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"reconcile/engine/check"
	"reconcile/engine/scenario"
)

// The documentation replay suite: scenarios/docs holds pages of the
// Kubernetes documentation (tutorials, concept and task pages) written as
// scenarios, a page's manifests and commands as steps and what the page says
// Kubernetes prints as expects. Each file cites its page. An expect the
// engine does not reproduce yet is marked on the line above it:
//
//	# miss(THEME): what real Kubernetes does that the engine does not
//
// THEME is api (what the API server adds and refuses), kubelet (the kubelet
// and pod status), controllers (controllers and the scheduler) or kubectl.
// The test counts every expect, held or missed, prints "N of M documented
// outputs reproduced" with the misses by theme, and fails when an expect not
// marked as a miss does not hold (a regression), or when a marked one holds
// (take the mark off: the count goes up and stays up).

var missMark = regexp.MustCompile(`^\s*# miss\((api|kubelet|controllers|kubectl)\): (.+)$`)

// docMiss is an expect the engine is known not to reproduce.
type docMiss struct {
	theme, why string
}

// docMisses reads the miss marks of a file, by the line of the expect each
// stands above.
func docMisses(t *testing.T, data []byte) map[int]docMiss {
	t.Helper()
	out := map[int]docMiss{}
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		m := missMark.FindStringSubmatch(l)
		if m == nil {
			if strings.Contains(l, "# miss") {
				t.Errorf("line %d: a miss mark reads \"# miss(api|kubelet|controllers|kubectl): why\"", i+1)
			}
			continue
		}
		out[i+2] = docMiss{m[1], m[2]} // the expect is on the next line (1-based)
	}
	return out
}

func TestDocsPages(t *testing.T) {
	files, err := filepath.Glob("docs/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no pages in scenarios/docs: %v", err)
	}
	held, total := 0, 0
	byTheme := map[string][]string{}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), "# page: content/en/docs/") {
			t.Errorf("%s: cite the page replayed (# page: content/en/docs/...)", file)
		}
		sc, err := scenario.Load(file, data)
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		misses := docMisses(t, data)
		for line := range misses {
			found := false
			for _, e := range sc.Expect {
				found = found || e.Pos.Line == line
			}
			if !found {
				t.Errorf("%s:%d: a miss mark stands above no expect", file, line-1)
			}
		}
		res, err := check.Run(sc)
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		failed := map[int]*check.Failure{}
		for _, f := range res.Failures {
			failed[f.Pos.Line] = f
		}
		for _, e := range sc.Expect {
			total++
			m, marked := misses[e.Pos.Line]
			f, fails := failed[e.Pos.Line]
			switch {
			case !fails && !marked:
				held++
			case !fails && marked:
				held++
				t.Errorf("%s:%d: reproduced now: take off its miss mark (%s)", file, e.Pos.Line, m.why)
			case fails && marked:
				byTheme[m.theme] = append(byTheme[m.theme], fmt.Sprintf("%s:%d: %s", file, e.Pos.Line, m.why))
			default:
				t.Errorf("%v", f)
			}
		}
		delete(failed, 0)
	}
	var themes []string
	for th := range byTheme {
		themes = append(themes, th)
	}
	sort.Strings(themes)
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d documented outputs reproduced (%d pages)\n", held, total, len(files))
	for _, th := range themes {
		fmt.Fprintf(&b, "missed, %s (%d):\n", th, len(byTheme[th]))
		for _, m := range byTheme[th] {
			fmt.Fprintf(&b, "  %s\n", m)
		}
	}
	fmt.Print(b.String())
}
