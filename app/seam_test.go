package app

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestSessionSeam: the pages render session values and call session
// methods; none holds the live simulation (a *sim.Sim) or its store, so
// what a page may read of a run is what app/session offers and tests.
// (Tests may: a native run is the oracle some of them compare a page with.)
func TestSessionSeam(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	read := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		read++
		for _, im := range f.Imports {
			if p, _ := strconv.Unquote(im.Path.Value); p == "reconcile/engine/store" {
				t.Errorf("%s imports %s: read the world through app/session", fset.Position(im.Pos()), p)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			se, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := se.X.(*ast.Ident); ok && id.Name == "sim" && se.Sel.Name == "Sim" {
				t.Errorf("%s: a *sim.Sim in app/: read the run through app/session", fset.Position(se.Pos()))
			}
			return true
		})
	}
	if read < 20 {
		t.Fatalf("read %d files of app/: the test looks in the wrong place", read)
	}
}
