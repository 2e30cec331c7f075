package engine

import (
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestMapRangeLint finds every range over a map in engine/ and accepts it
// only where its order cannot reach output: the function sorts afterwards,
// or the line before the loop says why order does not matter ("order does
// not matter", "any order"). Go randomises map order on purpose; a trace
// that depended on it would differ run to run.
func TestMapRangeLint(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks engine/ from source")
	}
	var dirs []string
	filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && !strings.Contains(path, "testdata") {
			dirs = append(dirs, path)
		}
		return nil
	})
	sort.Strings(dirs)
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil)
	for _, dir := range dirs {
		pkgs, err := parser.ParseDir(fset, dir, func(fi os.FileInfo) bool {
			// The files the native build compiles (build tags and GOOS
			// suffixes as go build reads them), tests left out.
			ok, _ := build.Default.MatchFile(dir, fi.Name())
			return ok && !strings.HasSuffix(fi.Name(), "_test.go")
		}, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, pkg := range pkgs {
			var files []*ast.File
			for _, f := range pkg.Files {
				files = append(files, f)
			}
			info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
			conf := types.Config{Importer: imp}
			if _, err := conf.Check(dir, fset, files, info); err != nil {
				t.Fatalf("type-check %s: %v", dir, err)
			}
			for _, f := range files {
				checkMapRanges(t, fset, f, info)
			}
		}
	}
}

func checkMapRanges(t *testing.T, fset *token.FileSet, f *ast.File, info *types.Info) {
	comments := map[int]string{}
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			comments[fset.Position(c.End()).Line] += c.Text
		}
	}
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			r, ok := n.(*ast.RangeStmt)
			if !ok {
				return true
			}
			tv, ok := info.Types[r.X]
			if !ok {
				return true
			}
			if _, isMap := tv.Type.Underlying().(*types.Map); !isMap {
				return true
			}
			line := fset.Position(r.Pos()).Line
			why := strings.ToLower(comments[line-1])
			if strings.Contains(why, "order does not matter") || strings.Contains(why, "any order") {
				return true
			}
			if sortsAfter(fn.Body, r.End()) || orderFree(r.Body.List) {
				return true
			}
			t.Errorf("%s: range over a map with no sort after it and no comment saying its order does not matter", fset.Position(r.Pos()))
			return true
		})
	}
}

// sortsAfter reports whether the function calls sort.* or slices.Sort*
// after pos.
func sortsAfter(body *ast.BlockStmt, pos token.Pos) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || call.Pos() < pos {
			return true
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && (id.Name == "sort" || id.Name == "slices" && strings.HasPrefix(sel.Sel.Name, "Sort")) {
				found = true
			}
		}
		return !found
	})
	return found
}

// orderFree reports whether statements give the same result whatever
// order a loop runs them in: writes to map entries, deletes, counting,
// local definitions, nested order-free loops and ifs, and returns of
// constants (a check that fails on any element fails on all orders).
func orderFree(stmts []ast.Stmt) bool {
	for _, st := range stmts {
		switch x := st.(type) {
		case *ast.AssignStmt:
			if x.Tok == token.DEFINE || x.Tok == token.ADD_ASSIGN || x.Tok == token.SUB_ASSIGN {
				continue
			}
			for _, l := range x.Lhs {
				if _, ok := l.(*ast.IndexExpr); !ok {
					if sel, ok := l.(*ast.SelectorExpr); !ok || !isLocalField(sel) {
						return false
					}
				}
			}
		case *ast.IncDecStmt, *ast.DeclStmt:
		case *ast.ExprStmt:
			call, ok := x.X.(*ast.CallExpr)
			if id, isIdent := call.Fun.(*ast.Ident); !ok || !isIdent || id.Name != "delete" {
				return false
			}
		case *ast.RangeStmt:
			if !orderFree(x.Body.List) {
				return false
			}
		case *ast.IfStmt:
			if !orderFree(x.Body.List) {
				return false
			}
			if x.Else != nil {
				if b, ok := x.Else.(*ast.BlockStmt); !ok || !orderFree(b.List) {
					return false
				}
			}
		case *ast.ReturnStmt:
			for _, r := range x.Results {
				if id, ok := r.(*ast.Ident); !ok || (id.Name != "true" && id.Name != "false" && id.Name != "nil") {
					return false
				}
			}
		case *ast.BranchStmt:
			if x.Tok != token.CONTINUE {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// isLocalField accepts writes like n.cpu (fields of a local value copy).
func isLocalField(sel *ast.SelectorExpr) bool {
	_, ok := sel.X.(*ast.Ident)
	return ok
}
