package kubectl

import (
	"errors"
	"fmt"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/store"
)

// kubectl wait, as kubectl v1.34 runs it (pkg/cmd/wait): it finds the
// objects its arguments name or select, then waits on each in turn until
// what --for asks holds of it, printing "KIND/NAME condition met" for each,
// all within one --timeout (30s by default; 0 looks once, a negative one
// waits a week). --for is one of:
//
//   - condition=TYPE[,TYPE...][=STATUS]: the object has a status condition
//     of one of the types, whose status is STATUS (True by default), both
//     compared without case; a condition is ignored while the object's
//     observedGeneration (the condition's own, or status.observedGeneration)
//     is behind metadata.generation: the controller has not seen the change.
//   - jsonpath=PATH[=VALUE]: the path finds one value, equal to VALUE, or
//     any value at all without one.
//   - delete: the object is gone (an object not found at the start is not
//     waited on).
//   - create: every object named exists (or the selector finds one), then
//     each is met.
//
// Objects selected (-l, --all) are listed once at the start; an object
// named is read when its turn comes. An object waited on for a condition
// that is deleted meanwhile ends the wait with NotFound.

// waitCond is what --for asks.
type waitCond struct {
	what     string   // "condition", "jsonpath", "delete" or "create"
	types    []string // condition: its types, any of them
	status   string   // condition: the status wanted
	path     *JSONPath
	value    string // jsonpath: the value wanted
	anyValue bool   // jsonpath: without a value, any
}

// parseWaitFor reads --for as kubectl does, with its errors.
func parseWaitFor(s string) (waitCond, error) {
	low := strings.ToLower(s)
	switch {
	case low == "delete" || low == "create":
		return waitCond{what: low}, nil
	case strings.HasPrefix(s, "condition="):
		name, status := strings.TrimPrefix(s, "condition="), "true"
		if i := strings.Index(name, "="); i >= 0 {
			name, status = name[:i], name[i+1:]
		}
		return waitCond{what: "condition", types: strings.Split(name, ","), status: status}, nil
	case strings.HasPrefix(s, "jsonpath="):
		parts := splitJSONPathInput(strings.TrimPrefix(s, "jsonpath="))
		if len(parts) > 2 {
			return waitCond{}, errors.New("error: jsonpath wait format must be --for=jsonpath='{.status.readyReplicas}'=3 or --for=jsonpath='{.status.readyReplicas}'")
		}
		expr, err := relaxed(parts[0])
		if err != nil {
			return waitCond{}, errors.New("error: " + err.Error())
		}
		c := waitCond{what: "jsonpath", anyValue: len(parts) == 1}
		if !c.anyValue {
			if c.value = strings.Trim(parts[1], `'"`); c.value == "" {
				return waitCond{}, errors.New("error: jsonpath wait has to have a value after equal sign, like --for=jsonpath='{.status.readyReplicas}'=3")
			}
		}
		if expr == "" {
			return waitCond{}, errors.New("error: jsonpath expression cannot be empty")
		}
		if c.path, err = ParseJSONPath(expr); err != nil {
			return waitCond{}, fmt.Errorf("error: %v", err)
		}
		return c, nil
	}
	return waitCond{}, fmt.Errorf("error: unrecognized condition: %q", s)
}

// splitJSONPathInput splits a jsonpath wait on each single "=", a double
// one kept as it is (a filter's ==).
func splitJSONPathInput(s string) []string {
	var out []string
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '=' && i+1 < len(s) && s[i+1] == '=':
			b.WriteString("==")
			i++
		case s[i] == '=':
			out = append(out, b.String())
			b.Reset()
		default:
			b.WriteByte(s[i])
		}
	}
	return append(out, b.String())
}

// met reports whether the condition or path holds of o.
func (c waitCond) met(o api.Object) (bool, error) {
	doc, _ := toJSON(o).(map[string]any)
	if c.what == "jsonpath" {
		res, err := c.path.eval([]any{doc}, firstList(c.path.root))
		switch {
		case err != nil:
			return false, fmt.Errorf("error: %v", err)
		case len(res) == 0:
			return false, nil
		case len(res) > 1:
			return false, errors.New("error: given jsonpath expression matches more than one value")
		}
		switch res[0].(type) {
		case map[string]any, []any:
			return false, errors.New("error: jsonpath leads to a nested object or list which is not supported")
		}
		if c.anyValue {
			return true, nil
		}
		return strings.TrimSpace(fmt.Sprint(res[0])) == strings.TrimSpace(c.value), nil
	}
	status, _ := doc["status"].(map[string]any)
	conds, _ := status["conditions"].([]any)
	meta, _ := doc["metadata"].(map[string]any)
	gen, hasGen := number(meta["generation"])
	for _, raw := range conds {
		cond, _ := raw.(map[string]any)
		typ, ok := cond["type"].(string)
		if !ok || !c.hasType(typ) {
			continue
		}
		st, ok := cond["status"].(string)
		if !ok {
			continue
		}
		if hasGen {
			seen, ok := number(cond["observedGeneration"])
			if !ok {
				seen, ok = number(status["observedGeneration"])
			}
			if ok && seen < gen {
				return false, nil
			}
		}
		return strings.EqualFold(st, c.status), nil
	}
	return false, nil
}

func (c waitCond) hasType(t string) bool {
	for _, want := range c.types {
		if strings.EqualFold(want, t) {
			return true
		}
	}
	return false
}

// number reads a whole number of a JSON document.
func number(v any) (int64, bool) {
	n, ok := v.(interface{ Int64() (int64, error) })
	if !ok {
		return 0, false
	}
	i, err := n.Int64()
	return i, err == nil
}

// waitItem is an object waited on: selected at the start (obj and uid
// set), or named, read when its turn comes.
type waitItem struct {
	kind api.Kind
	name string
	uid  string
	obj  api.Object
	// unmet is the resourceVersion of the version last found not to
	// hold: the wait looks after every change to the world, and reads an
	// object (as JSON) again only once it has changed.
	unmet string
}

// waiter is a kubectl wait under way.
type waiter struct {
	k     *cmd
	cond  waitCond
	p     *printer
	args  []string
	items []waitItem
	next  int  // the first item not met yet
	found bool // create: everything named exists
}

// newWaiter reads a wait's line and finds what it waits on.
func (k *cmd) newWaiter() (*waiter, error) {
	in := k.in
	cond, err := parseWaitFor(in.String("for", ""))
	if err != nil {
		return nil, err
	}
	p, err := k.newPrinter(printFormats)
	if err != nil {
		return nil, err
	}
	if len(in.Args) == 0 {
		return nil, errNoResources
	}
	if in.Bool("all", false) && (in.String("selector", "") != "" || in.String("field-selector", "") != "") {
		return nil, errors.New("error: setting 'all' parameter but found a non empty selector. ")
	}
	w := &waiter{k: k, cond: cond, p: p, args: in.Args}
	if _, err := w.resolve(); err != nil {
		return nil, err
	}
	return w, nil
}

// resolve reads the targets: objects selected are listed now, objects
// named wait for their turn. It reports whether every object named
// exists (and, selecting, one was found).
func (w *waiter) resolve() (bool, error) {
	k := w.k
	ts, err := targets(w.args)
	if err != nil {
		return false, err
	}
	sel := k.selection()
	if err := k.checkNames(ts, sel, true); err != nil {
		return false, err
	}
	w.items = w.items[:0]
	exist := true
	for _, t := range ts {
		if t.name != "" {
			w.items = append(w.items, waitItem{kind: t.kind, name: t.name})
			exist = exist && k.st.Get(t.kind.Name, k.namespace(t.kind.Name), t.name) != nil
			continue
		}
		objs, err := k.list(t.kind, sel)
		if err != nil {
			return false, err
		}
		for _, o := range objs {
			w.items = append(w.items, waitItem{kind: t.kind, name: o.Meta().Name, uid: o.Meta().UID, obj: o})
		}
	}
	return exist && len(w.items) > 0, nil
}

// step goes on from where the wait is, against the store as it is now:
// the lines it printed meanwhile, and whether it ended (and with which
// error).
func (w *waiter) step() (out string, ended bool, err error) {
	k := w.k
	var b strings.Builder
	if w.cond.what == "create" && !w.found {
		ok, err := w.resolve()
		if err != nil {
			return "", true, err
		}
		if !ok {
			return "", false, nil
		}
		w.found = true
	}
	for ; w.next < len(w.items); w.next++ {
		it := &w.items[w.next]
		cur := k.st.Get(it.kind.Name, k.namespace(it.kind.Name), it.name)
		switch w.cond.what {
		case "create":
			if cur == nil {
				return b.String(), true, store.NotFound(it.kind.Name, it.name)
			}
		case "delete":
			if it.obj == nil { // named: read at its turn
				if cur == nil {
					continue // not there: not waited on
				}
				it.obj, it.uid = cur, cur.Meta().UID
			}
			if cur != nil && cur.Meta().UID == it.uid {
				return b.String(), false, nil
			}
		default:
			if cur == nil {
				return b.String(), true, store.NotFound(it.kind.Name, it.name)
			}
			if rv := cur.Meta().ResourceVersion; rv != "" && rv == it.unmet {
				return b.String(), false, nil
			}
			ok, err := w.cond.met(cur)
			if err != nil {
				return b.String(), true, err
			}
			if !ok {
				it.unmet = cur.Meta().ResourceVersion
				return b.String(), false, nil
			}
		}
		if w.cond.what != "delete" {
			it.obj = cur
		}
		out, err := w.print(*it)
		b.WriteString(out)
		if err != nil {
			return b.String(), true, err
		}
	}
	if len(w.items) == 0 && w.cond.what != "delete" {
		return b.String(), true, errors.New("error: no matching resources found")
	}
	return b.String(), true, nil
}

// print prints an object met as kubectl's "condition met" printer does.
func (w *waiter) print(it waitItem) (string, error) {
	f := found{it.kind, it.obj}
	if w.p.format == "" {
		return fmt.Sprintf("%s/%s condition met\n", it.kind.Qualified(), it.name), nil
	}
	return w.p.print([]found{f}, true)
}

// notMet is the error of a wait that looked once (--timeout=0) or whose
// --timeout ran out, on the object it was waiting on.
func (w *waiter) notMet(once bool) error {
	if w.cond.what == "create" && !w.found {
		return errors.New("error: timed out waiting for the condition")
	}
	it := w.items[min(w.next, len(w.items)-1)]
	if once {
		return fmt.Errorf("error: condition not met for %s/%s", it.kind.Resource, it.name)
	}
	return fmt.Errorf("error: timed out waiting for the condition on %s/%s", it.kind.Resource, it.name)
}

// wait runs kubectl wait at once: what holds now is printed, and the
// first object that does not yet hold ends it as --timeout=0 does (a
// console or a lesson's step waits instead: Watching).
func (k *cmd) wait() (string, error) {
	w, err := k.newWaiter()
	if err != nil {
		return "", err
	}
	out, ended, err := w.step()
	if !ended {
		return out, w.notMet(true)
	}
	return out, err
}

// waitTimeout is --timeout as kubectl reads it: 0 looks once, a negative
// one is a week.
func waitTimeout(in *Invocation) api.Duration {
	d, err := api.ParseDuration(in.String("timeout", "30s"))
	if err != nil {
		return 30 * api.Second
	}
	if d < 0 {
		return 168 * api.Hour
	}
	return d
}
