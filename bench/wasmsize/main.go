// Command wasmsize says what a Go WebAssembly binary is made of: the size
// of each section, and the code size of each Go package (from the binary's
// name section, so build it without -s). With -base, a second binary (the
// floor app), it lists what the first adds package by package.
//
//	go run ./bench/wasmsize [-base floor.wasm] [-top 25] [-pkgs "./wasm ./bench/floor"] app.wasm
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"sort"
	"strings"
)

func main() {
	log.SetFlags(0)
	base := flag.String("base", "", "a second binary to compare with, e.g. the floor app's")
	top := flag.Int("top", 25, "how many packages to list")
	pkgs := flag.String("pkgs", "./wasm ./bench/floor", "the Go packages the binaries were built from (to name their dependencies)")
	funcs := flag.Int("funcs", 0, "also list this many of the largest functions")
	match := flag.String("match", "", "with -funcs, only the functions whose names contain this")
	flag.Parse()
	if flag.NArg() != 1 {
		log.Fatal("usage: wasmsize [-base FILE] [-top N] FILE")
	}
	if err := listPackages(strings.Fields(*pkgs)); err != nil {
		log.Fatal(err)
	}
	m, err := read(flag.Arg(0))
	if err != nil {
		log.Fatal(err)
	}
	var b *module
	if *base != "" {
		if b, err = read(*base); err != nil {
			log.Fatal(err)
		}
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	fmt.Fprintf(w, "sections of %s (%d bytes):\n", flag.Arg(0), m.size)
	for _, s := range m.sections {
		fmt.Fprintf(w, "  %-12s %10d\n", s.name, s.size)
	}
	if len(m.names) == 0 {
		fmt.Fprintln(w, "no name section (built with -s?): no sizes per package")
		return
	}
	if *funcs > 0 {
		defer m.listFuncs(w, *funcs, *match)
	}
	pk := m.byPackage()
	type row struct {
		pkg        string
		size, base int
	}
	var rows []row
	var bp map[string]int
	if b != nil {
		bp = b.byPackage()
	}
	for p, n := range pk {
		rows = append(rows, row{p, n, bp[p]})
	}
	sort.Slice(rows, func(i, j int) bool {
		di, dj := rows[i].size-rows[i].base, rows[j].size-rows[j].base
		if di != dj {
			return di > dj
		}
		return rows[i].pkg < rows[j].pkg
	})
	if b != nil {
		fmt.Fprintf(w, "\ncode by package, largest addition over %s first (bytes):\n", *base)
		fmt.Fprintf(w, "  %10s %10s %10s  %s\n", "this", "base", "added", "package")
	} else {
		fmt.Fprintf(w, "\ncode by package, largest first (bytes):\n")
	}
	for i, r := range rows {
		if i == *top {
			break
		}
		if b != nil {
			fmt.Fprintf(w, "  %10d %10d %+10d  %s\n", r.size, r.base, r.size-r.base, r.pkg)
		} else {
			fmt.Fprintf(w, "  %10d  %s\n", r.size, r.pkg)
		}
	}
}

// listFuncs lists the n largest functions whose names contain match.
func (m *module) listFuncs(w *bufio.Writer, n int, match string) {
	type fn struct {
		name string
		size int
	}
	var fs []fn
	total := 0
	for i, sz := range m.bodies {
		if name := m.names[m.imports+i]; strings.Contains(name, match) {
			fs = append(fs, fn{name, sz})
			total += sz
		}
	}
	sort.Slice(fs, func(i, j int) bool { return fs[i].size > fs[j].size })
	fmt.Fprintf(w, "\nlargest functions (%d matching %q, %d bytes in all):\n", len(fs), match, total)
	for i, f := range fs {
		if i == n {
			break
		}
		fmt.Fprintf(w, "  %10d  %s\n", f.size, f.name)
	}
}

type section struct {
	name string
	size int
}

type module struct {
	size     int
	sections []section
	imports  int            // imported functions: the first function indices
	bodies   []int          // code size of each defined function
	names    map[int]string // function index → name
}

// byPackage sums code sizes by the Go package of each function.
func (m *module) byPackage() map[string]int {
	out := map[string]int{}
	for i, n := range m.bodies {
		out[pkgOf(m.names[m.imports+i])] += n
	}
	return out
}

// packages maps each package's name as the linker writes it in the name
// section to its import path.
var packages = map[string]string{}

// listPackages learns the packages of the WebAssembly builds of pkgs.
func listPackages(pkgs []string) error {
	cmd := exec.Command("go", append([]string{"list", "-deps"}, pkgs...)...)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("go list: %w", err)
	}
	for _, p := range strings.Fields(string(out)) {
		packages[mangle(p)] = p
	}
	return nil
}

// mangle writes an import path as the wasm linker does in symbol names:
// the dots of its last element escaped (%2e), then every byte that is not
// a letter, a digit or a dot of a domain written as _.
func mangle(path string) string {
	dir, last := "", path
	if i := strings.LastIndex(path, "/"); i >= 0 {
		dir, last = path[:i+1], path[i+1:]
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.':
			return r
		}
		return '_'
	}, dir+strings.ReplaceAll(last, ".", "%2e"))
}

// pkgOf returns the package of a symbol of the name section, such as
// "reconcile_engine_sim.__Sim_.Next" (reconcile/engine/sim) or
// "gopkg.in_yaml_2ev3.init" (gopkg.in/yaml.v3).
func pkgOf(sym string) string {
	if sym == "" {
		return "(unnamed)"
	}
	best := ""
	for i := 0; i < len(sym); i++ {
		if sym[i] == '.' {
			if p, ok := packages[sym[:i]]; ok {
				best = p // the longest wins: keep going
			}
		}
	}
	if best != "" {
		return best
	}
	if strings.HasPrefix(sym, "type_.") {
		return "type: (generated equality and hash functions)"
	}
	if i := strings.IndexAny(sym, ".:"); i > 0 {
		return sym[:i] + " (?)"
	}
	return sym
}

var sectionNames = []string{"custom", "type", "import", "function", "table", "memory", "global", "export", "start", "element", "code", "data", "datacount"}

func read(file string) (*module, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if len(data) < 8 || string(data[:4]) != "\x00asm" {
		return nil, fmt.Errorf("%s: not a WebAssembly binary", file)
	}
	m := &module{size: len(data), names: map[int]string{}}
	r := &reader{b: data, i: 8}
	for r.i < len(r.b) {
		id := r.byte()
		size := int(r.u32())
		end := r.i + size
		if r.err != nil || end > len(r.b) {
			return nil, fmt.Errorf("%s: truncated section", file)
		}
		name := "unknown"
		if int(id) < len(sectionNames) {
			name = sectionNames[id]
		}
		body := &reader{b: r.b[:end], i: r.i}
		switch id {
		case 0:
			cname := body.name()
			name = "custom:" + cname
			if cname == "name" {
				m.readNames(body)
			}
		case 2:
			m.readImports(body)
		case 10:
			n := int(body.u32())
			for k := 0; k < n && body.err == nil; k++ {
				sz := int(body.u32())
				m.bodies = append(m.bodies, sz)
				body.i += sz
			}
		}
		if body.err != nil {
			return nil, fmt.Errorf("%s: section %s: %v", file, name, body.err)
		}
		m.sections = append(m.sections, section{name, size})
		r.i = end
	}
	return m, nil
}

func (m *module) readImports(r *reader) {
	n := int(r.u32())
	for k := 0; k < n && r.err == nil; k++ {
		r.name()
		r.name()
		switch kind := r.byte(); kind {
		case 0: // function
			r.u32()
			m.imports++
		case 1: // table
			r.byte()
			r.limits()
		case 2: // memory
			r.limits()
		case 3: // global
			r.byte()
			r.byte()
		default:
			r.err = fmt.Errorf("import kind %d", kind)
		}
	}
}

func (m *module) readNames(r *reader) {
	for r.i < len(r.b) && r.err == nil {
		id := r.byte()
		size := int(r.u32())
		end := r.i + size
		if id == 1 { // function names
			n := int(r.u32())
			for k := 0; k < n && r.err == nil; k++ {
				idx := int(r.u32())
				m.names[idx] = r.name()
			}
		}
		r.i = end
	}
}

type reader struct {
	b   []byte
	i   int
	err error
}

var errShort = errors.New("unexpected end")

func (r *reader) byte() byte {
	if r.i >= len(r.b) {
		r.err = errShort
		return 0
	}
	c := r.b[r.i]
	r.i++
	return c
}

func (r *reader) u32() uint32 {
	var v uint32
	for shift := 0; shift < 35; shift += 7 {
		c := r.byte()
		v |= uint32(c&0x7f) << shift
		if c&0x80 == 0 {
			break
		}
	}
	return v
}

func (r *reader) name() string {
	n := int(r.u32())
	if r.i+n > len(r.b) {
		r.err = errShort
		return ""
	}
	s := string(r.b[r.i : r.i+n])
	r.i += n
	return s
}

func (r *reader) limits() {
	if r.byte()&1 == 1 {
		r.u32()
	}
	r.u32()
}
