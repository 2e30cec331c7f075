package kubectl

import (
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"

	"reconcile/engine/api"
	"reconcile/engine/kinds"
	"reconcile/engine/store"
)

// get prints objects: as tables (one per kind, a blank line between),
// or in the -o format.
func (k *cmd) get() (string, error) {
	in := k.in
	if len(in.Args) == 0 {
		return "You must specify the type of resource to get. Use \"kubectl api-resources\" for a complete list of supported resources.\n\n",
			errors.New("error: Required resource not specified.\nUse \"kubectl explain <resource>\" for a detailed description of that resource (e.g. kubectl explain pods).\nSee 'kubectl get -h' for help and examples")
	}
	p, err := k.getPrinter()
	if err != nil {
		return "", err
	}
	sub := in.String("subresource", "")
	if sub != "" && sub != "status" && sub != "scale" {
		return "", fmt.Errorf("error: invalid subresource value: %q. Must be one of [status scale]", sub)
	}
	ts, err := targets(in.Args)
	if err != nil {
		return "", err
	}
	k.warnEndpoints(ts)
	if (in.Bool("watch", false) || in.Bool("watch-only", false)) && multipleKinds(ts) {
		return "", errors.New("error: watch is only supported on individual resources and resource collections - more than 1 resource was found")
	}
	objs, errs, err := k.resolve(in.Args, false)
	if err != nil {
		return "", err
	}
	if in.Bool("ignore-not-found", false) {
		errs = dropNotFound(errs)
	}
	if s := in.String("sort-by", ""); s != "" {
		if err := sortBy(objs, s); err != nil {
			return "", err
		}
	}
	single := len(ts) == 1 && ts[0].name != ""
	if sub == "scale" {
		return k.getScale(p, objs, errs, single)
	}
	if !p.table() {
		if single && len(objs) == 0 {
			return "", errorsText(errs)
		}
		if len(objs) == 0 && in.Bool("ignore-not-found", false) {
			return "", nil
		}
		out, err := p.print(objs, single)
		if err != nil {
			return out, err
		}
		return out, errorsText(errs)
	}
	if in.Bool("watch-only", false) {
		return "", errorsText(errs) // a watch prints only what changes after it starts
	}
	out := k.tables(objs, p.format == "wide", multipleKinds(ts))
	if out == "" && len(errs) == 0 && !in.Bool("ignore-not-found", false) {
		out = k.noneFound(ts)
	}
	return out, errorsText(errs)
}

// getPrinter reads get's output flags and checks they fit together.
func (k *cmd) getPrinter() (*printer, error) {
	p, err := k.newPrinter(getFormats)
	if err != nil {
		return nil, err
	}
	if o := k.in.String("output", ""); k.in.Bool("show-labels", false) && !p.table() {
		return nil, fmt.Errorf("error: --show-labels option cannot be used with %s printer", o)
	}
	if k.in.Bool("output-watch-events", false) && !k.in.Bool("watch", false) && !k.in.Bool("watch-only", false) {
		return nil, errors.New("error: --output-watch-events option can only be used with --watch or --watch-only")
	}
	return p, nil
}

func multipleKinds(ts []target) bool {
	for _, t := range ts {
		if t.kind.Name != ts[0].kind.Name {
			return true
		}
	}
	return false
}

func dropNotFound(errs []error) []error {
	var out []error
	for _, e := range errs {
		if !errors.Is(e, store.ErrNotFound) {
			out = append(out, e)
		}
	}
	return out
}

// tables prints objects as kubectl's tables: a header per run of one
// kind, a blank line between runs; with kinds, names are kind/name.
func (k *cmd) tables(objs []found, wide, withKind bool) string {
	var b strings.Builder
	withKind = withKind || k.in.Bool("show-kind", false)
	for i := 0; i < len(objs); {
		j := i
		for j < len(objs) && objs[j].kind.Name == objs[i].kind.Name {
			j++
		}
		if b.Len() > 0 && !k.in.Bool("no-headers", false) {
			b.WriteString("\n")
		}
		b.WriteString(k.table(objs[i:j], wide, withKind, !k.in.Bool("no-headers", false)))
		i = j
	}
	return b.String()
}

// table prints objects of one kind.
func (k *cmd) table(objs []found, wide, withKind, header bool) string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 6, 4, 3, ' ', 0)
	kind := objs[0].kind
	withNS := k.in.Bool("all-namespaces", false) && kind.Namespaced
	if header {
		fmt.Fprintln(w, strings.Join(k.rowPrefix(withNS, "NAMESPACE", headers(kind.Name, wide), k.extraHeaders()), "\t"))
	}
	for _, f := range objs {
		cells := k.cells(f.obj, wide)
		if withKind && kind.Name != "Event" {
			cells[0] = kind.Qualified() + "/" + cells[0]
		}
		fmt.Fprintln(w, strings.Join(k.rowPrefix(withNS, f.obj.Meta().Namespace, cells, k.extraCells(f.obj)), "\t"))
	}
	w.Flush()
	if kind.New == nil && len(objs) > 0 && !k.in.Bool("no-headers", false) {
		fmt.Fprintf(&b, "(%s)\n", api.NotSimulatedNote(kind.Name))
	}
	return b.String()
}

func (k *cmd) rowPrefix(withNS bool, ns string, cells, extra []string) []string {
	out := cells
	if withNS {
		out = append([]string{ns}, cells...)
	}
	return append(out, extra...)
}

// extraHeaders are the -L columns, then LABELS for --show-labels.
func (k *cmd) extraHeaders() []string {
	var out []string
	for _, l := range k.in.List("label-columns") {
		parts := strings.Split(l, "/")
		out = append(out, strings.ToUpper(parts[len(parts)-1]))
	}
	if k.in.Bool("show-labels", false) {
		out = append(out, "LABELS")
	}
	return out
}

func (k *cmd) extraCells(o api.Object) []string {
	var out []string
	labels := o.Meta().Labels
	for _, l := range k.in.List("label-columns") {
		out = append(out, labels[l])
	}
	if k.in.Bool("show-labels", false) {
		out = append(out, formatLabels(labels))
	}
	return out
}

// formatLabels renders labels as kubectl does: "app=web,tier=db" by key,
// or "<none>".
func formatLabels(m map[string]string) string { return kinds.FormatLabels(m) }
