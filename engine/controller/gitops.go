package controller

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/informer"
	"reconcile/engine/store"
)

// GitOps is a GitOps controller: it owns the objects of a git source.
//
// Desired: the objects as committed to git. Observed: the live objects.
// Difference: any field git sets that the live object does not match —
// drift, from a hand edit or another controller. Action: apply the git
// version back. It looks every interval, so a hand edit survives at most
// that long: the edit "reverts within seconds".
type GitOps struct {
	interval api.Duration
}

// Git is what the gitops controller reads: the committed objects and the
// revision they are at.
type Git struct {
	Revision int
	Objects  []api.Object
}

// NewGitOps returns a GitOps controller syncing every interval.
func NewGitOps(interval api.Duration) *GitOps { return &GitOps{interval: interval} }

func (g *GitOps) Name() string { return GitOpsController }
func (g *GitOps) Watches() []string {
	return []string{"Deployment", "ReplicaSet", "Pod", "Node", "Job", "ResourceQuota", "Namespace", "LimitRange", "HorizontalPodAutoscaler"}
}
func (g *GitOps) Clone() Reconciler { return &GitOps{interval: g.interval} }

// Keys: the controller does not react to changes; it syncs on its interval.
func (g *GitOps) Keys(c *informer.Cache, ev store.WatchEvent) []string { return nil }

// Period is the sync interval.
func (g *GitOps) Period() api.Duration { return g.interval }

// Object names the object a key stands for: "Deployment/default/web" is
// deployment web in namespace default.
func (g *GitOps) Object(key string) api.Ref {
	kind, rest, _ := strings.Cut(key, "/")
	if ns, name, ok := strings.Cut(rest, "/"); ok {
		return api.Ref{Kind: kind, Namespace: ns, Name: name}
	}
	return api.Ref{Kind: kind, Name: rest}
}

// Idle reports whether the next sync would find nothing to revert: every
// object of git is live and matches it.
func (g *GitOps) Idle(c *informer.Cache, w World, now api.Time) (bool, string) {
	for _, want := range w.Git().Objects {
		kind := want.GetTypeMeta().Kind
		live := c.Get(kind, api.RefOf(want).Key())
		why := ""
		switch {
		case live == nil:
			why = api.RefOf(want).String() + " is in git but not in the cluster"
		case len(Drift(want, live)) > 0:
			why = api.RefOf(want).String() + " differs from git (" + strings.Join(driftPaths(Drift(want, live)), ", ") + ")"
		default:
			continue
		}
		if g.interval == 0 {
			return false, why + ": gitops reverts it when it is run"
		}
		return false, why + ": the next sync reverts it"
	}
	return true, ""
}

// GitKey names an object in the git source: "Deployment/default/web".
func GitKey(o api.Object) string {
	return o.GetTypeMeta().Kind + "/" + api.RefOf(o).Key()
}

// Tick queues every object of the git source.
func (g *GitOps) Tick(c *informer.Cache, w World, now api.Time) ([]string, string) {
	var keys []string
	for _, o := range w.Git().Objects {
		keys = append(keys, GitKey(o))
	}
	sort.Strings(keys)
	if g.interval == 0 {
		return keys, "run by hand"
	}
	return keys, fmt.Sprintf("timer: sync interval %s", api.FormatDuration(g.interval))
}

// Reconcile compares one object with git and applies git's version.
func (g *GitOps) Reconcile(ctx *Context, req Request) (Result, error) {
	key := req.Key
	git := ctx.World.Git()
	var want api.Object
	for _, o := range git.Objects {
		if GitKey(o) == key {
			want = o
		}
	}
	kind, rest, _ := strings.Cut(key, "/")
	if want == nil {
		ctx.Desired = fmt.Sprintf("%s as committed (git revision %d)", key, git.Revision)
		ctx.Observed = "no longer in git"
		return ctx.NothingToDo(), nil
	}
	ctx.Desired = fmt.Sprintf("%s as committed (git revision %d)", api.RefOf(want), git.Revision)
	live := ctx.Cache.Get(kind, rest)
	if live == nil {
		ctx.Observed = "missing from the cluster"
		ctx.Difference = "create it"
		if _, err := ctx.Create(want, func(o api.Object) string { return "create " + api.RefOf(o).String() + " from git" }); err != nil {
			return Result{}, err
		}
		return Result{Outcome: Acted}, nil
	}
	drift := Drift(want, live)
	if len(drift) == 0 {
		ctx.Observed = "live object matches git"
		return ctx.NothingToDo(), nil
	}
	ctx.Observed = "live object differs: " + strings.Join(drift, ", ")
	ctx.Difference = "drift in " + strings.Join(driftPaths(drift), ", ")
	next := live.DeepCopyObject()
	overlay(next, want)
	next.Meta().ResourceVersion = ""
	if _, err := ctx.Update(next, "apply "+api.RefOf(want).String()+" from git (revert drift)"); err != nil {
		return Result{}, err
	}
	return Result{Outcome: Acted}, nil
}

// overlay copies what git sets onto a live object: the fields of the spec
// git writes (as an apply merges them: maps field by field, lists whole),
// and the labels and annotations git names. A field git leaves out keeps
// its live value: spec.replicas, when an autoscaler owns it.
func overlay(live, want api.Object) {
	if f := reflect.ValueOf(live).Elem().FieldByName("Spec"); f.IsValid() {
		var l, w map[string]any
		lb, _ := json.Marshal(f.Interface())
		wb, _ := json.Marshal(reflect.ValueOf(want).Elem().FieldByName("Spec").Interface())
		json.Unmarshal(lb, &l)
		json.Unmarshal(wb, &w)
		merged, _ := json.Marshal(mergeJSON(l, w))
		spec := reflect.New(f.Type())
		if err := json.Unmarshal(merged, spec.Interface()); err == nil {
			f.Set(spec.Elem())
		}
	}
	lm, wm := live.Meta(), want.Meta()
	for k, v := range wm.Labels {
		if lm.Labels == nil {
			lm.Labels = map[string]string{}
		}
		lm.Labels[k] = v
	}
	for k, v := range wm.Annotations {
		if lm.Annotations == nil {
			lm.Annotations = map[string]string{}
		}
		lm.Annotations[k] = v
	}
}

// Drift lists the fields git sets that differ in the live object, as
// "spec.replicas: 8 ≠ 5" (live ≠ git).
func Drift(want, live api.Object) []string {
	var a, b map[string]any
	wb, _ := json.Marshal(reflect.ValueOf(want).Elem().FieldByName("Spec").Interface())
	lb, _ := json.Marshal(reflect.ValueOf(live).Elem().FieldByName("Spec").Interface())
	json.Unmarshal(wb, &a)
	json.Unmarshal(lb, &b)
	var out []string
	diffJSON("spec", a, b, &out)
	for k, v := range want.Meta().Labels {
		if live.Meta().Labels[k] != v {
			out = append(out, fmt.Sprintf("metadata.labels.%s: %q ≠ %q", k, live.Meta().Labels[k], v))
		}
	}
	sort.Strings(out)
	return out
}

func diffJSON(path string, want, live any, out *[]string) {
	switch w := want.(type) {
	case map[string]any:
		l, _ := live.(map[string]any)
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			diffJSON(path+"."+k, w[k], l[k], out)
		}
		return
	case []any:
		l, _ := live.([]any)
		if len(l) != len(w) {
			*out = append(*out, fmt.Sprintf("%s: %d items ≠ %d", path, len(l), len(w)))
			return
		}
		for i := range w {
			diffJSON(fmt.Sprintf("%s[%d]", path, i), w[i], l[i], out)
		}
		return
	}
	if !reflect.DeepEqual(want, live) {
		lb, _ := json.Marshal(live)
		wb, _ := json.Marshal(want)
		*out = append(*out, fmt.Sprintf("%s: %s ≠ %s", path, lb, wb))
	}
}

func driftPaths(drift []string) []string {
	out := make([]string, len(drift))
	for i, d := range drift {
		out[i], _, _ = strings.Cut(d, ":")
	}
	return out
}

// mergeJSON lays want over live: a map merges key by key, anything else
// (a list, a scalar) replaces.
func mergeJSON(live, want any) any {
	w, ok := want.(map[string]any)
	l, lok := live.(map[string]any)
	if !ok || !lok {
		return want
	}
	out := make(map[string]any, len(l)+len(w))
	for k, v := range l { // building a map: order does not matter
		out[k] = v
	}
	for k, v := range w { // building a map: order does not matter
		out[k] = mergeJSON(l[k], v)
	}
	return out
}
