package el

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// TestNoTypedElements holds the pages to this package's elements: a call
// of one of go-app's typed element constructors (app.Div(), app.Input(),
// …) outside the tests brings that element's type into app.wasm again.
func TestNoTypedElements(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/maxence-charriere/go-app/v10").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	gen, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "pkg", "app", "html_gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range regexp.MustCompile(`(?m)^func ([A-Z]\w*)\(\) HTML\w+ \{`).FindAllSubmatch(gen, -1) {
		names = append(names, string(m[1]))
	}
	if len(names) < 100 {
		t.Fatalf("found %d typed constructors in go-app's html_gen.go: is it the file it was?", len(names))
	}
	typed := regexp.MustCompile(`\bapp\.(` + strings.Join(names, "|") + `)\(\)`)
	eachPageLine(t, []string{"..", filepath.Join("..", "..", "wasm")}, func(f string, n int, line string) {
		if m := typed.FindString(line); m != "" {
			t.Errorf("%s:%d: %s: make it with reconcile/app/el (el.%s)", f, n, m, strings.TrimSuffix(strings.TrimPrefix(m, "app."), "()"))
		}
	})
}

// A boolean attribute is there when on and left out when off: the
// prerendered page must not write selected="false" (HTML reads it as
// selected), and the pages give such attributes through Flag.
func TestFlag(t *testing.T) {
	if got := app.HTMLString(Option().Attr("selected", Flag(false))); strings.Contains(got, "selected") {
		t.Errorf("an option not selected is written %s", got)
	}
	if got := app.HTMLString(Option().Attr("selected", Flag(true))); !strings.Contains(got, " selected") || strings.Contains(got, `selected="false"`) {
		t.Errorf("a selected option is written %s", got)
	}
	given := regexp.MustCompile(`Attr\("(selected|checked|open|hidden|required|multiple)", ([^)]*)`)
	eachPageLine(t, []string{".."}, func(f string, n int, line string) {
		for _, m := range given.FindAllStringSubmatch(line, -1) {
			if v := m[2]; v != "true" && !strings.HasPrefix(v, "el.Flag(") {
				t.Errorf("%s:%d: %s: give it as el.Flag(…)", f, n, m[0])
			}
		}
	})
}

// eachPageLine calls line for every line (numbered from 1) of the pages'
// Go sources in dirs, their tests left out; at least 20 files must be
// found, or the test is not reading what it thinks it reads.
func eachPageLine(t *testing.T, dirs []string, line func(file string, n int, text string)) {
	t.Helper()
	var files []string
	for _, dir := range dirs {
		fs, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, fs...)
	}
	if len(files) < 20 {
		t.Fatalf("found %d source files of the pages in %v", len(files), dirs)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, text := range strings.Split(string(src), "\n") {
			line(f, i+1, text)
		}
	}
}
