package controller

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/informer"
	"reconcile/engine/merge"
	"reconcile/engine/store"
)

// GitOps is a GitOps controller: it owns the objects of a git source.
//
// Desired: the objects as committed to git. Observed: the live objects.
// Difference: any field git sets that the live object does not match —
// drift, from a hand edit or another controller — and any field an earlier
// commit set that git no longer does. Action: apply the git version back.
// It looks every interval, so a hand edit survives at most that long: the
// edit "reverts within seconds".
//
// It applies as Argo CD's default sync does, with kubectl apply's
// three-way merge (package merge; Flux's server-side apply owns the same
// fields): it writes the last-applied-configuration annotation, reverts the
// fields git names, removes the fields a commit dropped, and leaves alone
// the fields git never names — take spec.replicas out of git and an
// autoscaler may own it. It does not replace the object whole.
type GitOps struct {
	interval api.Duration
}

// Git is what the gitops controller reads: the committed objects and the
// revision they are at.
type Git struct {
	Revision int
	Objects  []api.Object
	// Configs are the objects as committed (manifest.Manifest.Config), one
	// per Object; a missing or nil one means the object's own fields.
	Configs []map[string]any
}

// find returns the committed object a key names and its configuration.
func (g Git) find(key string) (api.Object, map[string]any) {
	for i, o := range g.Objects {
		if GitKey(o) == key {
			if i < len(g.Configs) && g.Configs[i] != nil {
				return o, g.Configs[i]
			}
			return o, merge.Config(o)
		}
	}
	return nil, nil
}

// compare merges git's configuration into the live object as kubectl apply
// would, and describes the fields the merge would change.
func compare(live api.Object, cfg map[string]any) (merge.Result, []string, error) {
	_, modified := merge.Modified(cfg)
	r, err := merge.Object(live, modified)
	if err != nil || r.Next == nil {
		return r, nil, err
	}
	var drift []string
	describeDrift("", r.Patch, r.Live, r.Want, &drift)
	if len(drift) == 0 {
		drift = []string{"metadata.annotations." + merge.LastApplied + ": another manifest was applied since"}
	}
	return r, drift, nil
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
	git := w.Git()
	for _, want := range git.Objects {
		kind := want.GetTypeMeta().Kind
		live := c.Get(kind, api.RefOf(want).Key())
		why := ""
		if live == nil {
			why = api.RefOf(want).String() + " is in git but not in the cluster"
		} else {
			_, cfg := git.find(GitKey(want))
			_, drift, err := compare(live, cfg)
			switch {
			case err != nil:
				why = api.RefOf(want).String() + ": " + err.Error()
			case len(drift) > 0:
				why = api.RefOf(want).String() + " differs from git (" + strings.Join(driftPaths(drift), ", ") + ")"
			default:
				continue
			}
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
	return keys, "sync interval " + api.FormatDuration(g.interval)
}

// Reconcile compares one object with git and applies git's version.
func (g *GitOps) Reconcile(ctx *Context, req Request) (Result, error) {
	key := req.Key
	git := ctx.World.Git()
	want, cfg := git.find(key)
	kind, rest, _ := strings.Cut(key, "/")
	if want == nil {
		ctx.Desired = fmt.Sprintf("%s as committed (git revision %d)", key, git.Revision)
		ctx.Observed = "no longer in git"
		ctx.DesiredFact, ctx.ObservedFact = Fact{Is: GitRevision, Name: fmt.Sprintf("git revision %d", git.Revision)}, Fact{Is: NotInGit}
		return ctx.NothingToDo(), nil
	}
	ctx.Desired = fmt.Sprintf("%s as committed (git revision %d)", api.RefOf(want), git.Revision)
	ctx.DesiredFact = Fact{Is: GitRevision, Name: fmt.Sprintf("git revision %d", git.Revision)}
	live := ctx.Cache.Get(kind, rest)
	if live == nil {
		ctx.Observed, ctx.ObservedFact = "missing from the cluster", Fact{Is: MissingFromCluster}
		ctx.Difference = "create it"
		applied, _ := merge.Modified(cfg)
		if _, err := ctx.Create(merge.Annotated(want, applied), func(o api.Object) Action { return Do(Create, api.RefOf(o).String()+" from git") }); err != nil {
			return Result{}, err
		}
		return Result{Outcome: Acted}, nil
	}
	r, drift, err := compare(live, cfg)
	if err != nil {
		return Result{}, err
	}
	if r.Next == nil {
		ctx.Observed, ctx.ObservedFact = "live object matches git", Fact{Is: MatchesGit}
		return ctx.NothingToDo(), nil
	}
	ctx.ObservedFact = Fact{Is: LiveDiffers, Name: strings.Join(drift, ", ")}
	ctx.Observed = "live object differs: " + ctx.ObservedFact.Name
	ctx.Difference = "drift in " + strings.Join(driftPaths(drift), ", ")
	next := r.Next
	next.Meta().ResourceVersion = ""
	if _, err := ctx.Update(next, Do(Apply, api.RefOf(want).String()+" from git (revert drift)")); err != nil {
		return Result{}, err
	}
	return Result{Outcome: Acted}, nil
}

// describeDrift lists, for each field a patch changes, the live value and
// git's, as "spec.replicas: 8 ≠ 5" (live ≠ git). Items of merged lists are
// named by their place in the live list; the patch's directives and the
// last-applied annotation are not drift of their own.
func describeDrift(path string, patch, live, want map[string]any, out *[]string) {
	seen := map[string]bool{}
	for _, k := range sortedKeys(patch) {
		name := strings.TrimPrefix(k, "$setElementOrder/")
		full := name
		if path != "" {
			full = path + "." + name
		}
		if name == "$retainKeys" || full == "metadata.annotations."+merge.LastApplied || seen[name] {
			continue
		}
		seen[name] = true
		lv, wv := live[name], want[name]
		switch pv := patch[name].(type) {
		case map[string]any:
			lm, lok := lv.(map[string]any)
			wm, _ := wv.(map[string]any)
			if lok {
				describeDrift(full, pv, lm, wm, out)
				continue
			}
		case []any:
			ll, lok := lv.([]any)
			if _, ordered := patch["$setElementOrder/"+name]; ordered && lok {
				describeItems(full, pv, ll, wv, out)
				continue
			}
		case nil:
			if _, listOrder := patch["$setElementOrder/"+name]; listOrder {
				*out = append(*out, full+": the order differs")
				continue
			}
		}
		*out = append(*out, fmt.Sprintf("%s: %s ≠ %s", full, jsonText(lv), jsonText(wv)))
	}
}

// describeItems describes a merged list's patch item by item.
func describeItems(path string, items, live []any, want any, out *[]string) {
	wl, _ := want.([]any)
	for _, it := range items {
		pm, _ := it.(map[string]any)
		key := ""
		for _, k := range []string{"name", "containerPort", "mountPath", "devicePath", "port", "ip", "topologyKey", "uid", "type"} {
			if _, ok := pm[k]; ok {
				key = k
				break
			}
		}
		at, wi := -1, -1
		for i, l := range live {
			if lm, ok := l.(map[string]any); ok && fmt.Sprint(lm[key]) == fmt.Sprint(pm[key]) {
				at = i
			}
		}
		for i, w := range wl {
			if wm, ok := w.(map[string]any); ok && fmt.Sprint(wm[key]) == fmt.Sprint(pm[key]) {
				wi = i
			}
		}
		switch {
		case pm["$patch"] == "delete":
			*out = append(*out, fmt.Sprintf("%s[%d]: %s=%v is not in git", path, at, key, pm[key]))
		case at < 0:
			*out = append(*out, fmt.Sprintf("%s: %s=%v is missing", path, key, pm[key]))
		default:
			lm, _ := live[at].(map[string]any)
			var wm map[string]any
			if wi >= 0 {
				wm, _ = wl[wi].(map[string]any)
			}
			changed := make(map[string]any, len(pm))
			for _, k := range sortedKeys(pm) {
				if k != key { // the key names the item; it did not change
					changed[k] = pm[k]
				}
			}
			describeDrift(fmt.Sprintf("%s[%d]", path, at), changed, lm, wm, out)
		}
	}
}

func jsonText(v any) string {
	if v == nil {
		return "none"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func sortedKeys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }

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
