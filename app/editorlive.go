package app

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/app/session"
	"reconcile/engine/api"
	"reconcile/engine/kubectl"
	"reconcile/engine/manifest"
	"reconcile/engine/sim"
	"reconcile/engine/store"
)

// The editor follows the live desired state: after a console write or a
// fault it loads the live objects, unless the learner has typed text not
// applied yet (see editorState).

// editorFrom records that the editor's text derives from base, which holds
// says in words, and reads the live desired state it now matches.
func (p *Playground) editorFrom(base, holds string, known bool) {
	e := &p.editor
	e.base, e.holds, e.known = base, holds, known
	e.sync, e.why = "", ""
	if p.ses != nil {
		e.sync = p.liveNow()
	}
	e.live = e.sync
}

// followLive reads the live desired state after a change. When it differs
// from what the editor's text derives from, the editor says what changed
// it; after an input (a console write, a fault) it also loads it, unless
// the learner has typed something not applied: that is never replaced
// without asking.
func (p *Playground) followLive(inputs bool) {
	e := &p.editor
	if p.ses == nil {
		return
	}
	live := p.liveNow()
	if live == e.live {
		return
	}
	e.live = live
	if live == e.sync {
		e.why = ""
		return
	}
	e.why = p.liveCause()
	if inputs && e.known && e.desired == e.base {
		p.loadLive()
	}
}

// loadLive puts the live desired state in the editor. What it replaces, if
// it is the learner's own (typed, or applied), can be brought back.
func (p *Playground) loadLive() {
	e := &p.editor
	switch {
	case e.desired != e.base || !e.known:
		e.stash, e.stashWhat = e.desired, "your edits"
	case !strings.HasPrefix(e.holds, "the live"):
		e.stash, e.stashWhat = e.desired, e.holds
	}
	why := e.why
	if why == "" {
		why = fmt.Sprintf("as it is after pass %d", p.view.N)
	}
	p.setEditor(e.live)
	e.base, e.holds, e.known = e.live, "the live desired state, "+why, true
	e.sync, e.why = e.live, ""
}

// bringBack puts back the text the last load replaced. The live state it
// differs from is taken as seen: the editor does not follow again until the
// live state changes once more.
func (p *Playground) bringBack() {
	e := &p.editor
	if e.stash == "" {
		return
	}
	text, what := e.stash, e.stashWhat
	e.stash, e.stashWhat = "", ""
	why := strings.TrimPrefix(e.holds, "the live desired state, ")
	p.setEditor(text)
	if what != "your edits" {
		e.base, e.holds = text, what
	}
	e.known, e.sync = true, e.live
	if e.live != e.base {
		e.why = why
	}
}

// liveCause says what last changed the live desired state: the latest
// input up to the current pass, unless that was an Apply (then the run
// changed it: a GitOps controller, say), or the pass the run stands at.
func (p *Playground) liveCause() string {
	ins := p.ses.Run().Inputs()
	for i := len(ins) - 1; i >= 0; i-- {
		in := ins[i]
		if in.After > p.ses.N() {
			continue
		}
		if _, ok := in.Input.(sim.Apply); ok {
			break
		}
		return fmt.Sprintf("changed by %s at t=%s", shortLine(session.InputText(in.Input), 80), in.At)
	}
	return fmt.Sprintf("as it is after pass %d, at t=%s", p.ses.N(), p.ses.Run().Now())
}

// shortLine cuts a line to n characters.
func shortLine(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// liveDiffers reports whether the live desired state has changed since
// what the editor's text derives from.
func (p *Playground) liveDiffers() bool {
	e := &p.editor
	return e.why != "" && e.live != e.base
}

// holdsLine says what the editor holds, and whether the live state has
// moved on since.
func (p *Playground) holdsLine() string {
	e := &p.editor
	var s string
	switch {
	case e.desired != e.base || !e.known:
		s = "Shows your edits, not applied yet."
	default:
		s = "Shows " + e.holds + "."
	}
	if p.liveDiffers() {
		s += " The live desired state has changed since: " + e.why + "."
	}
	return s
}

func (p *Playground) onLoadLive(ctx app.Context, e app.Event) {
	p.loadLive()
	p.scheduleSave(ctx, 400*time.Millisecond)
}

func (p *Playground) onBringBack(ctx app.Context, e app.Event) {
	p.bringBack()
	p.scheduleSave(ctx, 400*time.Millisecond)
}

// serverFields are the metadata the API server fills in: not desired
// state, so not in the editor.
var serverFields = []string{"uid", "resourceVersion", "generation", "creationTimestamp", "managedFields", "selfLink"}

// liveManifests writes the live desired state of the objects text names
// (in its order), then of any other object no controller owns (a
// Deployment made from the console, say): each as kubectl get -o yaml
// prints it, less status and what the API server and the controllers fill
// in (serverFields, the last-applied and deployment.kubernetes.io
// annotations). An object named but gone is left out.
func liveManifests(st *store.Store, text string) string {
	return liveOf(st, namedIn(text))
}

// objectKey names a stored object: kind, namespace and name.
type objectKey struct{ kind, namespace, name string }

// namedIn lists the objects a desired-state text names, in its order
// (none when it does not decode). The list is never nil.
func namedIn(text string) []objectKey {
	ms, err := manifest.Decode(editorFile, text, 1, 1)
	if err != nil {
		return []objectKey{}
	}
	out := make([]objectKey, 0, len(ms))
	for _, m := range ms {
		meta, kind := m.Object.Meta(), m.Object.GetTypeMeta().Kind
		ns := meta.Namespace
		if k, _ := api.KindOf(kind); k.Namespaced && ns == "" {
			ns = "default"
		}
		out = append(out, objectKey{kind, ns, meta.Name})
	}
	return out
}

// liveOf is liveManifests for the objects named.
func liveOf(st *store.Store, named []objectKey) string {
	var objs []api.Object
	seen := map[objectKey]bool{}
	add := func(o api.Object) {
		k := objectKey{o.GetTypeMeta().Kind, o.Meta().Namespace, o.Meta().Name}
		if !seen[k] {
			seen[k] = true
			objs = append(objs, o)
		}
	}
	for _, k := range named {
		if o := st.Get(k.kind, k.namespace, k.name); o != nil {
			add(o)
		}
	}
	for _, kind := range st.Kinds() {
		switch kind {
		case "Pod", "ReplicaSet", "Event", "Lease", "Node", "Endpoints", "EndpointSlice":
			continue // owned by controllers, or the machines'
		}
		for _, o := range st.List(kind) {
			if kind == "Namespace" && slices.Contains(store.SystemNamespaces, o.Meta().Name) {
				continue // the API server's own, there from the start
			}
			if kind == "Service" && o.Meta().Namespace == "default" && o.Meta().Name == "kubernetes" {
				continue // the API server's own
			}
			if o.Meta().ControllerOf() == nil {
				add(o)
			}
		}
	}
	docs := make([]string, 0, len(objs))
	for _, o := range objs {
		docs = append(docs, desiredYAML(o))
	}
	return strings.Join(docs, "---\n")
}

// liveNow is the live desired state of what the editor's text derives
// from; the objects it names are read once per text, not once per pass.
func (p *Playground) liveNow() string {
	e := &p.editor
	if e.namedFrom != e.base || e.named == nil {
		e.named, e.namedFrom = namedIn(e.base), e.base
	}
	return liveOf(p.ses.Run().Store(), e.named)
}

// desiredYAML is one object's desired state as YAML (see liveManifests).
func desiredYAML(o api.Object) string {
	b, err := json.Marshal(o)
	if err != nil {
		return ""
	}
	var v map[string]any
	if json.Unmarshal(b, &v) != nil {
		return ""
	}
	delete(v, "status")
	if meta, ok := v["metadata"].(map[string]any); ok {
		for _, f := range serverFields {
			delete(meta, f)
		}
		if ann, ok := meta["annotations"].(map[string]any); ok {
			for k := range ann {
				if k == "kubectl.kubernetes.io/last-applied-configuration" || strings.HasPrefix(k, "deployment.kubernetes.io/") {
					delete(ann, k)
				}
			}
			if len(ann) == 0 {
				delete(meta, "annotations")
			}
		}
	}
	if spec, ok := v["spec"].(map[string]any); ok {
		if t, ok := spec["template"].(map[string]any); ok {
			if m, ok := t["metadata"].(map[string]any); ok {
				delete(m, "creationTimestamp")
			}
		}
	}
	return kubectl.YAML(v)
}
