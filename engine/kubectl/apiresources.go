package kubectl

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"reconcile/engine/api"
)

// apiResources runs kubectl api-resources (v1.34, pkg/cmd/apiresources):
// the resources the simulated API server serves, from the kind registry,
// sorted by API group and then by name (--sort-by name or kind), one
// version a group. The verbs each resource takes are not modelled, so
// -o wide (its VERBS column), --verbs and -o json|yaml (an APIResourceList
// with them) say so.
func (k *cmd) apiResources() (string, error) {
	in := k.in
	if len(in.Args) > 0 {
		return "", fmt.Errorf("error: unexpected arguments: [%s]\nSee 'kubectl api-resources -h' for help and examples", strings.Join(in.Args, " "))
	}
	out := in.String("output", "")
	switch out {
	case "", "name":
	case "wide", "json", "yaml":
		return "", fmt.Errorf("error: -o %s is not simulated: the verbs each resource takes are not modelled", out)
	default:
		return "", fmt.Errorf("error: unable to match a printer suitable for the output format %q, allowed formats are: json,name,wide,yaml", out)
	}
	sortBy := in.String("sort-by", "")
	if sortBy != "" && sortBy != "name" && sortBy != "kind" {
		return "", errors.New("error: --sort-by accepts only name or kind")
	}
	group, namespaced := in.String("api-group", ""), in.Bool("namespaced", true)
	var rows []api.Kind
	for _, kind := range api.Kinds() {
		if in.Has("api-group") && kind.Group != group || in.Has("namespaced") && kind.Namespaced != namespaced {
			continue
		}
		if cats := in.List("categories"); len(cats) > 0 && !(len(cats) == 1 && cats[0] == "all" && slices.Contains(allKinds, kind.Name)) {
			continue
		}
		rows = append(rows, kind)
	}
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i].Group, rows[j].Group
		switch sortBy {
		case "name":
			a, b = rows[i].Resource, rows[j].Resource
		case "kind":
			a, b = rows[i].Name, rows[j].Name
		}
		if a != b {
			return a < b
		}
		return rows[i].Resource < rows[j].Resource
	})
	var b strings.Builder
	if out == "name" {
		for _, r := range rows {
			b.WriteString(r.Resource)
			if r.Group != "" {
				b.WriteString("." + r.Group)
			}
			b.WriteByte('\n')
		}
		return b.String(), nil
	}
	w := tabwriter.NewWriter(&b, 6, 4, 3, ' ', 0)
	if !in.Bool("no-headers", false) {
		fmt.Fprint(w, "NAME\tSHORTNAMES\tAPIVERSION\tNAMESPACED\tKIND\n")
	}
	for _, r := range rows {
		gv := r.Version
		if r.Group != "" {
			gv = r.Group + "/" + r.Version
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%v\t%s\n", r.Resource, strings.Join(r.Short, ","), gv, r.Namespaced, r.Name)
	}
	w.Flush()
	return b.String(), nil
}
