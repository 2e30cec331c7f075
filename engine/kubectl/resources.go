package kubectl

import (
	"errors"
	"fmt"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/selector"
)

// target is what one argument names: a kind and a name, or every object of
// the kind that the selectors choose (name "").
type target struct {
	kind api.Kind
	name string
}

// allKinds are the kinds "all" stands for, in the order the API server
// lists them (kubectl's "all" category).
var allKinds = []string{"Pod", "ReplicationController", "Service", "DaemonSet", "Deployment", "ReplicaSet", "StatefulSet",
	"HorizontalPodAutoscaler", "CronJob", "Job"}

// kindsOf reads "pods", "deploy,rs" or "all" into kinds.
func kindsOf(word string) ([]api.Kind, error) {
	var out []api.Kind
	for _, w := range strings.Split(word, ",") {
		if strings.EqualFold(w, "all") {
			for _, name := range allKinds {
				if k, ok := api.KindOf(name); ok {
					out = append(out, k)
				}
			}
			continue
		}
		k, ok := api.KindNamed(w)
		if !ok {
			return nil, fmt.Errorf("error: the server doesn't have a resource type %q", w)
		}
		out = append(out, k)
	}
	return out, nil
}

// targets reads resource arguments as kubectl's resource builder does:
// TYPE[,TYPE...] [NAME...], or TYPE/NAME... .
func targets(args []string) ([]target, error) {
	slashes := 0
	for _, a := range args {
		if strings.Contains(a, "/") {
			slashes++
		}
	}
	var out []target
	switch {
	case len(args) == 0:
		return nil, nil
	case slashes > 0 && slashes != len(args):
		return nil, errors.New("error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'")
	case slashes > 0:
		for _, a := range args {
			kind, name, _ := strings.Cut(a, "/")
			if name == "" || strings.Contains(name, "/") {
				return nil, errors.New("error: arguments in resource/name form must have a single resource and name")
			}
			k, ok := api.KindNamed(kind)
			if !ok {
				return nil, fmt.Errorf("error: the server doesn't have a resource type %q", kind)
			}
			out = append(out, target{kind: k, name: name})
		}
		return out, nil
	}
	kinds, err := kindsOf(args[0])
	if err != nil {
		return nil, err
	}
	for _, k := range kinds {
		if len(args) == 1 {
			out = append(out, target{kind: k})
		}
		for _, n := range args[1:] {
			out = append(out, target{kind: k, name: n})
		}
	}
	return out, nil
}

// found is one object found for a command, with its kind.
type found struct {
	kind api.Kind
	obj  api.Object
}

// selection holds how a command chooses objects: a namespace or all of
// them, and label and field selectors.
type selection struct {
	namespace string
	all       bool // -A
	labels    selector.Labels
	fields    selector.Fields
	labelText string
	fieldText string
}

// selection reads -n, -A, -l and --field-selector. The selectors are read
// by the API server, per kind, when objects are listed.
func (k *cmd) selection() selection {
	return selection{namespace: k.ns, all: k.in.Bool("all-namespaces", false),
		labelText: k.in.String("selector", ""), fieldText: k.in.String("field-selector", "")}
}

// gvr names a kind's resource as kubectl's list errors do:
// "/v1, Resource=pods", "apps/v1, Resource=deployments".
func gvr(k api.Kind) string { return k.Group + "/" + k.Version + ", Resource=" + k.Resource }

// check has the API server read the selectors for kind, as a list does.
func (s *selection) check(k api.Kind) error {
	bad := func(err error) error {
		return statusError("BadRequest", "Unable to find %q that match label selector %q, field selector %q: %v", gvr(k), s.labelText, s.fieldText, err)
	}
	var err error
	if s.labels, err = selector.ParseLabels(s.labelText); err != nil {
		return bad(err)
	}
	if s.fields, err = selector.ParseFields(s.fieldText); err != nil {
		return bad(err)
	}
	if err := s.fields.CheckFields(k.Name); err != nil {
		return bad(err)
	}
	return nil
}

// list returns the objects of kind the selection chooses, by namespace
// and name.
func (k *cmd) list(kind api.Kind, s selection) ([]api.Object, error) {
	if err := s.check(kind); err != nil {
		return nil, err
	}
	var out []api.Object
	for _, o := range k.st.List(kind.Name) {
		if s.matches(kind, o) {
			out = append(out, o)
		}
	}
	return out, nil
}

// matches reports whether the selection (checked) chooses o, of kind.
func (s *selection) matches(kind api.Kind, o api.Object) bool {
	m := o.Meta()
	if kind.Namespaced && !s.all && m.Namespace != s.namespace {
		return false
	}
	return s.labels.Matches(m.Labels) && s.fields.Matches(o)
}

// resolve finds the objects args name. A command that changes objects
// (allowAll: it takes --all) must name them or select them. Objects that are not found are errors, in order,
// beside the objects found (kubectl goes on after one).
func (k *cmd) resolve(args []string, allowAll bool) ([]found, []error, error) {
	ts, err := targets(args)
	if err != nil {
		return nil, nil, err
	}
	sel := k.selection()
	if err := k.checkNames(ts, sel, allowAll); err != nil {
		return nil, nil, err
	}
	var out []found
	var errs []error
	for _, t := range ts {
		if t.name == "" {
			objs, err := k.list(t.kind, sel)
			if err != nil {
				return out, errs, err
			}
			for _, o := range objs {
				out = append(out, found{t.kind, o})
			}
			continue
		}
		o, err := k.obj(t.kind.Name, t.name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, found{t.kind, o})
	}
	return out, errs, nil
}

// checkNames refuses targets as kubectl's resource builder does: names
// beside a selector (or --all, for a command that takes it), and, for a
// command that takes --all, kinds with neither names nor a selector.
func (k *cmd) checkNames(ts []target, sel selection, allowAll bool) error {
	named := false
	for _, t := range ts {
		named = named || t.name != ""
	}
	all := allowAll && k.in.Bool("all", false)
	if named && (sel.labelText != "" || all) {
		return errors.New("error: name cannot be provided when a selector is specified")
	}
	if allowAll && !named && !all && sel.labelText == "" && sel.fieldText == "" && len(ts) > 0 {
		return errors.New("error: resource(s) were provided, but no name was specified")
	}
	return nil
}

// noneFound is what kubectl says when a list finds nothing.
func (k *cmd) noneFound(ts []target) string {
	if k.in.Bool("all-namespaces", false) {
		return "No resources found\n"
	}
	for _, t := range ts {
		if !t.kind.Namespaced {
			return "No resources found\n"
		}
	}
	return fmt.Sprintf("No resources found in %s namespace.\n", k.ns)
}
