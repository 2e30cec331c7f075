package kubectl

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"text/tabwriter"

	"reconcile/engine/api"
)

// printer is how -o asks objects to be printed.
type printer struct {
	// format is "" (a table), "wide", "name", "json", "yaml", "jsonpath",
	// "jsonpath-as-json", "custom-columns" or "go-template".
	format    string
	raw       string // the -o value as given
	jp        *JSONPath
	tmpl      func(doc any) (string, error) // a Go template, parsed
	cols      []column
	noHeaders bool
	// room is how much of the output is kept: a list stops being
	// rendered past it (cmd.room; 0: all).
	room int
}

type column struct {
	header string
	path   *JSONPath
}

// The output formats kubectl lists when it refuses one: get's, and the
// other commands' that print objects.
var (
	getFormats   = "custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml"
	printFormats = "go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,yaml"
)

var relaxedPath = &lazyRegexp{expr: `^\{\.?([^{}]+)\}$|^\.?([^{}]+)$`}

// relaxed accepts a path as custom-columns and --sort-by do: a.b, .a.b,
// {a.b} or {.a.b}.
func relaxed(p string) (string, error) {
	if p == "" {
		return p, nil
	}
	m := relaxedPath.get().FindStringSubmatch(p)
	if m == nil {
		return "", errors.New("unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'")
	}
	if m[1] != "" {
		return "{." + m[1] + "}", nil
	}
	return "{." + m[2] + "}", nil
}

// newPrinter reads -o; formats lists the formats the command prints.
func (k *cmd) newPrinter(formats string) (*printer, error) {
	o := k.in.String("output", "")
	if tmpl := k.in.String("template", ""); tmpl != "" && (o == "" || o == "go-template" || o == "template") {
		// --template alone means -o go-template, as kubectl reads it.
		o = "go-template=" + tmpl
	}
	name, arg, hasArg := strings.Cut(o, "=")
	allowed := "," + formats + ","
	p := &printer{format: name, raw: o, noHeaders: k.in.Bool("no-headers", false), room: k.room}
	unmatched := fmt.Errorf("error: unable to match a printer suitable for the output format %q, allowed formats are: %s", o, formats)
	switch {
	case o == "":
		return p, nil
	case !strings.Contains(allowed, ","+name+","):
		return nil, unmatched
	case name == "go-template" || name == "template":
		if !hasArg || arg == "" {
			return nil, errors.New("error: template format specified but no template given")
		}
		if goTemplate == nil {
			return nil, errGoTemplateBrowser
		}
		run, err := goTemplate(arg, k.in.Bool("allow-missing-template-keys", true))
		if err != nil {
			return nil, err
		}
		p.format, p.tmpl = "go-template", run
	case name == "go-template-file" || name == "templatefile" || name == "jsonpath-file" || name == "custom-columns-file":
		return nil, fmt.Errorf("error: -o %s is not simulated: reading files is not simulated; use -o %s=TEMPLATE", name, strings.TrimSuffix(strings.TrimSuffix(name, "-file"), "file"))
	case name == "jsonpath" || name == "jsonpath-as-json":
		if !hasArg || arg == "" {
			return nil, errors.New("error: template format specified but no template given")
		}
		jp, err := ParseJSONPath(arg)
		if err != nil {
			return nil, fmt.Errorf("error: error parsing jsonpath %s, %v", arg, err)
		}
		jp.AllowMissing = k.in.Bool("allow-missing-template-keys", true)
		p.jp = jp
	case name == "custom-columns":
		if !hasArg {
			return nil, unmatched
		}
		if arg == "" {
			return nil, errors.New("error: custom-columns format specified but no custom columns given")
		}
		for _, part := range strings.Split(arg, ",") {
			h, path, ok := strings.Cut(part, ":")
			if !ok {
				return nil, fmt.Errorf("error: unexpected custom-columns spec: %s, expected <header>:<json-path-expr>", part)
			}
			expr, err := relaxed(path)
			if err != nil {
				return nil, errors.New("error: " + err.Error())
			}
			jp, err := ParseJSONPath(expr)
			if err != nil {
				return nil, fmt.Errorf("error: %v", err)
			}
			p.cols = append(p.cols, column{header: h, path: jp})
		}
	case hasArg:
		return nil, unmatched
	}
	return p, nil
}

// table reports whether p prints kubectl's human-readable table.
func (p *printer) table() bool { return p.format == "" || p.format == "wide" }

// print prints objects in a non-table format: one object, or a List.
func (p *printer) print(objs []found, single bool) (string, error) {
	var b strings.Builder
	switch p.format {
	case "name":
		for _, f := range objs {
			fmt.Fprintf(&b, "%s/%s\n", f.kind.Qualified(), f.obj.Meta().Name)
		}
		return b.String(), nil
	case "custom-columns":
		w := tabwriter.NewWriter(&b, 6, 4, 3, ' ', 0)
		if !p.noHeaders {
			hs := make([]string, len(p.cols))
			for i, c := range p.cols {
				hs[i] = c.header
			}
			fmt.Fprintln(w, strings.Join(hs, "\t"))
		}
		for _, f := range objs {
			doc := toJSON(f.obj)
			cells := make([]string, len(p.cols))
			for i, c := range p.cols {
				vals, err := c.path.values(doc)
				if err != nil {
					return b.String(), err
				}
				if len(vals) == 0 {
					vals = []string{"<none>"}
				}
				cells[i] = strings.Join(vals, ",")
			}
			fmt.Fprintln(w, strings.Join(cells, "\t"))
		}
		w.Flush()
		return b.String(), nil
	}
	if !(single && len(objs) == 1) && (p.format == "json" || p.format == "yaml") {
		return p.list(objs)
	}
	var v any
	if single && len(objs) == 1 {
		v = objs[0].obj
	} else {
		items := make([]api.Object, len(objs))
		for i, f := range objs {
			items[i] = f.obj
		}
		v = map[string]any{"apiVersion": "v1", "kind": "List", "items": items, "metadata": map[string]string{"resourceVersion": ""}}
	}
	return p.printValue(v)
}

// printValue prints v, an object or a list of them, as -o json, yaml, a
// template or a jsonpath asks.
func (p *printer) printValue(v any) (string, error) {
	switch p.format {
	case "json":
		// kubectl prints the unstructured object the API sent: a map,
		// its keys in sorted order (as -o yaml), not the Go type's.
		out, err := json.MarshalIndent(toJSON(v), "", "    ")
		if err != nil {
			return "", err
		}
		return string(out) + "\n", nil
	case "yaml":
		return YAML(toJSON(v)), nil
	}
	doc := toJSON(v)
	if p.tmpl != nil {
		return p.tmpl(doc)
	}
	out, err := p.jp.Execute(doc, p.format == "jsonpath-as-json")
	if err != nil {
		return out, fmt.Errorf("error: error executing jsonpath %q: Error executing template: %v. Printing more information for debugging the template:\n\ttemplate was:\n\t\t%s\n\tobject given to jsonpath engine was:\n\t\t%s\n\n",
			p.jpText(), err, p.jpText(), compactJSON(doc))
	}
	return out, nil
}

// list prints objs as a List in JSON or YAML, as kubectl does, an object
// at a time: past p.room it stops, the output a prefix of the whole
// (what the caller cuts or does not keep is never rendered).
func (p *printer) list(objs []found) (string, error) {
	var b strings.Builder
	over := func() bool { return p.room > 0 && b.Len() > p.room }
	if p.format == "yaml" {
		b.WriteString("apiVersion: v1\nitems:")
		if len(objs) == 0 {
			b.WriteString(" []")
		}
		b.WriteString("\n")
		for _, f := range objs {
			if over() {
				return b.String(), nil
			}
			writeYAML(&b, []any{toJSON(f.obj)}, 0, false)
		}
		b.WriteString("kind: List\nmetadata:\n  resourceVersion: \"\"\n")
		return b.String(), nil
	}
	b.WriteString("{\n    \"apiVersion\": \"v1\",\n    \"items\": [")
	for i, f := range objs {
		if over() {
			return b.String(), nil
		}
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n        ")
		out, err := json.MarshalIndent(toJSON(f.obj), "        ", "    ")
		if err != nil {
			return "", err
		}
		b.Write(out)
	}
	if len(objs) > 0 {
		b.WriteString("\n    ")
	}
	b.WriteString("],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n")
	return b.String(), nil
}

func (p *printer) jpText() string {
	_, arg, _ := strings.Cut(p.raw, "=")
	return arg
}

func compactJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// values evaluates a column's path and prints each result as text.
func (j *JSONPath) values(doc any) ([]string, error) {
	var out []string
	for _, n := range j.root {
		list, ok := n.(jpList)
		if !ok {
			continue
		}
		res, err := j.eval([]any{doc}, list)
		if err != nil {
			return nil, err
		}
		for _, r := range res {
			var b strings.Builder
			printResults(&b, []any{r}, false)
			out = append(out, b.String())
		}
	}
	return out, nil
}

// sortBy orders objects by a field (--sort-by), as kubectl does: numbers
// by value, strings that are quantities by amount, other strings by
// bytes; objects without the field first.
func sortBy(objs []found, field string) error {
	expr, err := relaxed(field)
	if err != nil {
		return errors.New("error: " + err.Error())
	}
	jp, err := ParseJSONPath(expr)
	if err != nil {
		return fmt.Errorf("error: sorting error: %v", err)
	}
	keys := make([]any, len(objs))
	seen := false
	for i, f := range objs {
		res, err := jp.eval([]any{toJSON(f.obj)}, firstList(jp.root))
		if err != nil {
			return fmt.Errorf("error: %v", err)
		}
		if len(res) > 0 {
			keys[i], seen = res[0], true
		} else {
			keys[i] = missing{}
		}
	}
	if len(objs) > 0 && !seen {
		return fmt.Errorf("error: couldn't find any field with path %q in the list of objects", expr)
	}
	idx := make([]int, len(objs))
	for i := range idx {
		idx[i] = i
	}
	var sortErr error
	sort.SliceStable(idx, func(a, b int) bool {
		less, err := lessValue(keys[idx[a]], keys[idx[b]])
		if err != nil && sortErr == nil {
			sortErr = fmt.Errorf("error: field %s is an unsortable type: %v", expr, err)
		}
		return less
	})
	sorted := make([]found, len(objs))
	for i, j := range idx {
		sorted[i] = objs[j]
	}
	copy(objs, sorted)
	return sortErr
}

type missing struct{}

func firstList(nodes []jpNode) jpList {
	for _, n := range nodes {
		if l, ok := n.(jpList); ok {
			return l
		}
	}
	return nil
}

func lessValue(a, b any) (bool, error) {
	if _, ok := a.(missing); ok {
		return true, nil
	}
	if _, ok := b.(missing); ok {
		return false, nil
	}
	switch x := a.(type) {
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false, errors.New("mixed types")
		}
		fx, _ := x.Float64()
		fy, _ := y.Float64()
		return fx < fy, nil
	case string:
		y, ok := b.(string)
		if !ok {
			return false, errors.New("mixed types")
		}
		qx, errx := api.Quantity(x).Parse()
		qy, erry := api.Quantity(y).Parse()
		if errx == nil && erry == nil && quantityLike(x) && quantityLike(y) {
			return qx < qy, nil
		}
		return x < y, nil
	case nil:
		return b != nil, nil
	}
	return false, fmt.Errorf("unsortable type: %T", a)
}

var quantityRE = &lazyRegexp{expr: `^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+|[numkMGTPE]|[KMGTPE]i)?$`}

// quantityLike reports whether s reads as a Kubernetes quantity.
func quantityLike(s string) bool { return quantityRE.get().MatchString(s) }
