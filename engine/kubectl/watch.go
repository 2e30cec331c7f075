package kubectl

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/limits"
	"reconcile/engine/pmap"
	"reconcile/engine/store"
)

// Watch is a kubectl command that keeps watching the store: `rollout
// status` until the rollout ends, `wait` until what it waits for holds or
// its --timeout runs out, `get -w` and `events -w` until their bound. It prints a
// line each time what it watches changes. Its owner asks it to look again
// after every change (Check, or CheckAt with the simulated time) and ends
// it when Timeout runs out (Expired). A drain that goes on (StartDrain,
// drain.go) is a Watch too, one that writes: it acts on its own clock,
// at the moments NextAct names (ActAt), not as the world changes.
//
// A `get -w` line is bounded as a shell user bounds it: --request-timeout=D
// ends it after D of simulated time (kubectl then exits quietly, 0), and
// "| head -n N" after N lines of output (exit 0). Without either it
// watches until the run ends. Either watch stops, exit code 1, once it has
// printed limits.MaxOutput.
type Watch struct {
	// Command is the command line, with "kubectl".
	Command string
	// Timeout is --timeout (rollout status, wait) or --request-timeout (get -w);
	// 0 means none.
	Timeout api.Duration

	kind         string // "rollout", "wait", "get", "events" or "drain"
	rolloutKind  string // rollout status of a DaemonSet or StatefulSet: its kind
	namespace    string
	name, uid    string // rollout status: the deployment
	revision     int
	lines        []string
	bytes        int  // of lines
	full         bool // printed limits.MaxOutput: stopped, exit code 1
	maxLines     int  // | head -n N; 0 for none
	get          *getWatch
	wait         *waiter
	events       *eventsWatch
	drain        *drainer // drain.go: a watching command that writes
	lastObserved api.Time
}

// getWatch is the state of a get -w: what it last printed of each object.
type getWatch struct {
	k    *cmd
	kind api.Kind
	sel  selection
	name string
	// last maps object key → the version last printed, in a map its
	// clones (checkpoints of the run) share until one changes it.
	last   pmap.Map[api.Object]
	widths []int // the columns' widths so far (kubectl's tab writer remembers them)
	events bool  // --output-watch-events
	header bool  // printed the header yet
}

// Watching starts line (without "kubectl") when it is a watching command
// that cannot answer at once: rollout status (without --watch=false) on a
// Deployment that exists, or get -w / --watch-only on one kind. It
// reports false for any other line, which Run answers.
func Watching(st *store.Store, line string) (*Watch, bool) { return WatchingAt(st, -1, line) }

// WatchingAt is Watching at simulated time now, which get -w prints ages
// from; now < 0 estimates it from the store.
func WatchingAt(st *store.Store, now api.Time, line string) (*Watch, bool) {
	rest, head, err := cutHead(line)
	if err != nil {
		return nil, false
	}
	in, err := Parse(rest)
	if err != nil {
		return nil, false
	}
	w := &Watch{Command: "kubectl " + strings.TrimSpace(line), namespace: in.String("namespace", "default")}
	if head > 0 {
		w.maxLines = head
	}
	switch in.Command {
	case "rollout status":
		if !in.Bool("watch", true) {
			return nil, false
		}
		k := &cmd{st: st, in: in, ns: w.namespace}
		if o, ok := k.workloadRolloutTarget(); ok {
			if _, done, err := WorkloadRolloutStatus(o); done || err != nil {
				return nil, false // Run answers at once
			}
			w.kind, w.rolloutKind, w.name, w.uid = "rollout", o.GetTypeMeta().Kind, o.Meta().Name, o.Meta().UID
			if in.Has("timeout") {
				d, _ := api.ParseDuration(in.String("timeout", "0s"))
				w.Timeout = d
			}
			break
		}
		d, err := k.rolloutTarget()
		if err != nil || checkRevision(d, in.Int("revision", 0)) != nil {
			return nil, false // Run answers at once
		}
		w.kind, w.name, w.uid, w.revision = "rollout", d.Name, d.UID, in.Int("revision", 0)
		if in.Has("timeout") {
			d, _ := api.ParseDuration(in.String("timeout", "0s"))
			w.Timeout = d
		}
	case "get":
		if !in.Bool("watch", false) && !in.Bool("watch-only", false) {
			return nil, false
		}
		g, ok := newGetWatch(st, in, w.namespace)
		if !ok {
			return nil, false
		}
		w.kind, w.get = "get", g
		if now, ok = w.requestBound(st, in, now); !ok {
			return nil, false
		}
		if !in.Bool("watch-only", false) {
			g.k.now = now
			w.add(g.initial(st))
		} else {
			g.mark(st)
		}
	case "events":
		if !in.Bool("watch", false) {
			return nil, false
		}
		ew, ok := newEventsWatch(st, in, w.namespace)
		if !ok {
			return nil, false
		}
		w.kind, w.events = "events", ew
		if now, ok = w.requestBound(st, in, now); !ok {
			return nil, false
		}
		w.add(ew.changes(now))
	case "wait":
		k := &cmd{st: st, in: in, ns: w.namespace}
		wt, err := k.newWaiter()
		timeout := waitTimeout(in)
		if err != nil || timeout == 0 {
			return nil, false
		}
		out, ended, _ := wt.step()
		if ended {
			return nil, false // Run answers at once, the same
		}
		w.kind, w.wait, w.Timeout = "wait", wt, timeout
		w.add(out)
	default:
		return nil, false
	}
	return w, true
}

// requestBound sets a watch's Timeout from --request-timeout (kubectl
// ends the watch quietly when its request times out) and returns the time
// it starts at: now, or estimated from the store.
func (w *Watch) requestBound(st *store.Store, in *Invocation, now api.Time) (api.Time, bool) {
	if t := in.String("request-timeout", "0"); t != "0" {
		d, err := api.ParseDuration(t)
		if err != nil {
			return 0, false
		}
		w.Timeout = d
	}
	if now < 0 {
		now = estimateNow(st)
	}
	w.lastObserved = now
	return now, true
}

func newGetWatch(st *store.Store, in *Invocation, ns string) (*getWatch, bool) {
	k := &cmd{st: st, in: in, ns: ns}
	if _, err := k.getPrinter(); err != nil {
		return nil, false
	}
	ts, err := targets(in.Args)
	if err != nil || len(ts) != 1 {
		return nil, false
	}
	g := &getWatch{k: k, kind: ts[0].kind, sel: k.selection(), name: ts[0].name,
		events: in.Bool("output-watch-events", false)}
	if err := g.sel.check(g.kind); err != nil {
		return nil, false
	}
	if g.name != "" && st.Get(g.kind.Name, k.namespace(g.kind.Name), g.name) == nil {
		return nil, false
	}
	return g, true
}

// objects are what the watch watches, as they are now.
func (g *getWatch) objects(st *store.Store) []api.Object {
	g.k.st = st
	if g.name != "" {
		if o := st.Get(g.kind.Name, g.k.namespace(g.kind.Name), g.name); o != nil {
			return []api.Object{o}
		}
		return nil
	}
	objs, _ := g.k.list(g.kind, g.sel)
	return objs
}

func objectKey(o api.Object) string { return o.Meta().Namespace + "/" + o.Meta().Name }

// mark remembers the objects as printed, without printing them.
func (g *getWatch) mark(st *store.Store) {
	for _, o := range g.objects(st) {
		g.last.Set(objectKey(o), o)
	}
}

// initial prints the list the watch starts from.
// kubectl prints the list in one go (one flush of its tab writer), so its
// rows are aligned with each other and the header; each change after it is
// a flush of its own, its columns only ever widening.
func (g *getWatch) initial(st *store.Store) string {
	var b strings.Builder
	var batch [][]string
	for _, o := range g.objects(st) {
		lines, text := g.lines(o, "ADDED")
		if lines == nil {
			b.WriteString(text)
		}
		batch = append(batch, lines...)
		g.last.Set(objectKey(o), o)
	}
	return b.String() + g.render(batch)
}

// watchChange is a row a get -w prints: an object added, changed or
// deleted, and the resourceVersion it prints in the order of.
type watchChange struct {
	rv   int64
	o    api.Object
	what string
}

func changeOf(o api.Object, what string) watchChange {
	n, _ := strconv.ParseInt(o.Meta().ResourceVersion, 10, 64)
	return watchChange{n, o, what}
}

// changes prints a row for every object added, changed or deleted since
// the watch last looked, in the order of their resourceVersions.
func (g *getWatch) changes(st *store.Store) string {
	var cs []watchChange
	now := map[string]bool{}
	for _, o := range g.objects(st) {
		key := objectKey(o)
		now[key] = true
		if c, ok := g.changed(o); ok {
			cs = append(cs, c)
		}
	}
	for key, last := range g.last.All() {
		if !now[key] {
			cs = append(cs, changeOf(last, "DELETED"))
		}
	}
	return g.print(cs)
}

// changed is the row an object the watch chooses prints, if it changed
// since the watch last printed it: ADDED or MODIFIED.
func (g *getWatch) changed(o api.Object) (watchChange, bool) {
	prev, ok := g.last.Get(objectKey(o))
	switch {
	case !ok:
		return changeOf(o, "ADDED"), true
	case prev.Meta().ResourceVersion != o.Meta().ResourceVersion:
		return changeOf(o, "MODIFIED"), true
	}
	return watchChange{}, false
}

// chooses reports whether the watch watches o, of its kind: the object
// it names, or one its namespace and selectors choose.
func (g *getWatch) chooses(o api.Object) bool {
	if g.name != "" {
		return o.Meta().Name == g.name && o.Meta().Namespace == g.k.namespace(g.kind.Name)
	}
	return g.sel.matches(g.kind, o)
}

// fed is changes for an owner that hands the watch what the store did
// since it last looked (feed, in the order it was done): the watch reads
// again only the objects of its kind the feed names. An object the feed
// does not name is as it was when the watch last looked, so changes
// would print nothing of it: fed prints what changes prints.
func (g *getWatch) fed(st *store.Store, feed []store.Change) string {
	g.k.st = st
	var keys []string
	for _, c := range feed {
		if o := changedObject(c); o.GetTypeMeta().Kind == g.kind.Name && (g.name == "" || o.Meta().Name == g.name) {
			keys = append(keys, objectKey(o))
		}
	}
	if len(keys) == 0 {
		return ""
	}
	// In the orders changes finds them in: the objects there are by
	// namespace and name (as listed), then those gone.
	slices.Sort(keys)
	keys = slices.Compact(keys)
	var cs, gone []watchChange
	for _, key := range keys {
		ns, name, _ := strings.Cut(key, "/")
		if o := st.Get(g.kind.Name, ns, name); o != nil && g.chooses(o) {
			if c, ok := g.changed(o); ok {
				cs = append(cs, c)
			}
			continue
		}
		if last, ok := g.last.Get(key); ok {
			gone = append(gone, changeOf(last, "DELETED"))
		}
	}
	return g.print(append(cs, gone...))
}

// changedObject is the object a change of the store is about: the one
// written, or the event recorded.
func changedObject(c store.Change) api.Object {
	if c.Recorded != nil {
		return c.Recorded
	}
	return c.Watch.Object
}

// print prints the rows of cs in the order of their resourceVersions,
// and remembers what it printed (a deleted object: nothing).
func (g *getWatch) print(cs []watchChange) string {
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].rv < cs[j].rv })
	var b strings.Builder
	for _, c := range cs {
		key := objectKey(c.o)
		b.WriteString(g.row(c.o, c.what))
		if c.what == "DELETED" {
			g.last.Delete(key)
			continue
		}
		g.last.Set(key, c.o)
	}
	return b.String()
}

// row prints one object as a line of get's table (or in the -o format),
// the header before the first; columns keep the widest width seen.
func (g *getWatch) row(o api.Object, what string) string {
	lines, text := g.lines(o, what)
	if lines == nil {
		return text
	}
	return g.render(lines)
}

// lines are the cells of the table lines an object prints (the header
// before the first), or nil and the text of a format that is no table.
func (g *getWatch) lines(o api.Object, what string) ([][]string, string) {
	k := g.k
	p, _ := k.getPrinter()
	if !p.table() {
		out, _ := p.print([]found{{g.kind, o}}, true)
		if g.events && p.format == "name" {
			return nil, what + " " + out
		}
		return nil, out
	}
	wide := p.format == "wide"
	withNS := k.in.Bool("all-namespaces", false) && g.kind.Namespaced
	var lines [][]string
	if !g.header && !k.in.Bool("no-headers", false) {
		h := k.rowPrefix(withNS, "NAMESPACE", headers(g.kind.Name, wide), k.extraHeaders())
		if g.events {
			h = append([]string{"EVENT"}, h...)
		}
		lines = append(lines, h)
	}
	g.header = true
	cells := k.rowPrefix(withNS, o.Meta().Namespace, k.cells(o, wide), k.extraCells(o))
	if k.in.Bool("show-kind", false) {
		cells[0] = g.kind.Qualified() + "/" + cells[0]
	}
	if g.events {
		cells = append([]string{what}, cells...)
	}
	return append(lines, cells), ""
}

// render lays lines out as one flush of kubectl's tab writer, which
// remembers the widest width of each column.
func (g *getWatch) render(lines [][]string) string {
	for _, l := range lines {
		for i, c := range l[:len(l)-1] {
			if i >= len(g.widths) {
				g.widths = append(g.widths, 6)
			}
			g.widths[i] = max(g.widths[i], len(c)+3)
		}
	}
	var b strings.Builder
	for _, l := range lines {
		for i, c := range l {
			if i == len(l)-1 {
				b.WriteString(c)
				break
			}
			b.WriteString(c + strings.Repeat(" ", g.widths[i]-len(c)))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// estimateNow is the latest instant the store records (a lease renewed,
// an event, an object made or deleted): the time a watch reads ages from
// when its owner does not say.
func estimateNow(st *store.Store) api.Time {
	var t api.Time
	for _, o := range st.List("Lease") {
		t = max(t, o.(*api.Lease).Spec.RenewTime)
	}
	for _, e := range st.Events() {
		t = max(t, e.LastSeen())
	}
	for _, kind := range st.Kinds() {
		for _, o := range st.List(kind) {
			m := o.Meta()
			t = max(t, m.CreationTimestamp)
			if m.DeletionTimestamp != nil { // the end of a grace period: the delete was that much before
				d := *m.DeletionTimestamp
				if g := m.DeletionGracePeriodSeconds; g != nil {
					d -= api.Duration(*g) * api.Second
				}
				t = max(t, d)
			}
		}
	}
	return t
}

func (w *Watch) add(s string) {
	if s == "" || w.full {
		return
	}
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "" && (w.maxLines == 0 || len(w.lines) < w.maxLines) {
			if w.bytes+len(l) > limits.MaxOutput-len(limits.OutputMessage()) {
				// A bounded writer: the watch stops here, saying so.
				w.lines, w.full = append(w.lines, limits.OutputMessage()), true
				return
			}
			w.lines, w.bytes = append(w.lines, l), w.bytes+len(l)
		}
	}
}

// Check looks at the store again. It returns the output so far, and
// whether the command has ended and with which exit code.
func (w *Watch) Check(st *store.Store) (output string, ended bool, code int) {
	now := w.lastObserved
	if w.kind == "get" || w.kind == "events" {
		now = max(now, estimateNow(st))
	}
	return w.CheckAt(st, now)
}

// CheckAt is Check at simulated time now.
func (w *Watch) CheckAt(st *store.Store, now api.Time) (output string, ended bool, code int) {
	ended, code, tail := w.look(st, now, nil, false)
	return w.Output() + tail, ended, code
}

// CheckChanges is CheckAt for an owner that hands the watch what the store
// did since the watch last looked (or started), in order: the changes it
// took from the store (TakeChanges) and those it has not taken yet
// (Pending). get -w and events -w read only the objects those changes
// name, not every object of their kind; they print what CheckAt prints.
// The output is returned only once the command has ended ("" before:
// Output has it).
func (w *Watch) CheckChanges(st *store.Store, now api.Time, changes []store.Change) (output string, ended bool, code int) {
	ended, code, tail := w.look(st, now, changes, true)
	if !ended {
		return "", false, 0
	}
	return w.Output() + tail, true, code
}

// look looks at the store again: get -w and events -w at the objects
// feed names when fed, at all of them otherwise. tail is what the command
// prints after its output when it ends (an error).
func (w *Watch) look(st *store.Store, now api.Time, feed []store.Change, fed bool) (ended bool, code int, tail string) {
	w.lastObserved = now
	if w.full {
		return true, 1, ""
	}
	if w.kind == "drain" {
		// A drain acts on its own clock (ActAt), not as the world changes.
		return false, 0, ""
	}
	if w.kind == "get" || w.kind == "events" {
		if w.kind == "get" {
			w.get.k.now = now
			if fed {
				w.add(w.get.fed(st, feed))
			} else {
				w.add(w.get.changes(st))
			}
		} else {
			w.events.k.st = st
			if fed {
				w.add(w.events.fed(now, feed))
			} else {
				w.add(w.events.changes(now))
			}
		}
		switch {
		case w.full:
			return true, 1, ""
		case w.maxLines > 0 && len(w.lines) >= w.maxLines:
			return true, 0, ""
		}
		return false, 0, ""
	}
	if w.kind == "wait" {
		w.wait.k.st = st
		out, ended, err := w.wait.step()
		w.add(out)
		switch {
		case w.full:
			return true, 1, ""
		case ended && err != nil:
			return true, 1, errorText(err)
		case ended || (w.maxLines > 0 && len(w.lines) >= w.maxLines):
			return true, 0, ""
		}
		return false, 0, ""
	}
	if w.rolloutKind != "" {
		return w.checkWorkload(st)
	}
	d, _ := st.Get("Deployment", w.namespace, w.name).(*api.Deployment)
	if d == nil || d.UID != w.uid {
		return true, 1, "error: object has been deleted\n"
	}
	line, done, err := RolloutStatus(d)
	if line != "" && (len(w.lines) == 0 || w.lines[len(w.lines)-1] != line) {
		w.add(line)
	}
	switch {
	case err != nil:
		return true, 1, err.Error() + "\n"
	case done:
		if rerr := checkRevision(d, w.revision); rerr != nil {
			return true, 1, rerr.Error() + "\n"
		}
		return true, 0, ""
	case w.maxLines > 0 && len(w.lines) >= w.maxLines:
		return true, 0, ""
	}
	return false, 0, ""
}

// Output is what the command has printed so far.
func (w *Watch) Output() string { return strings.Join(w.lines, "") }

// Expired is the command's whole output and exit code when its Timeout
// runs out: rollout status and wait fail ("timed out waiting for the
// condition"), get -w ends quietly, as kubectl does when its request times
// out.
func (w *Watch) Expired() (string, int) {
	if w.kind == "get" || w.kind == "events" {
		return w.Output(), 0
	}
	return w.TimedOut(), 1
}

// TimedOut is the output of a rollout status or wait whose --timeout ran
// out.
func (w *Watch) TimedOut() string {
	switch w.kind {
	case "get", "events", "drain":
		return w.Output()
	case "wait":
		return w.Output() + errorText(w.wait.notMet(false))
	}
	return w.Output() + "error: timed out waiting for the condition\n"
}

// Clone returns a copy of w that goes on apart from it.
func (w *Watch) Clone() *Watch {
	c := *w
	c.lines = append([]string(nil), w.lines...)
	if w.get != nil {
		g := *w.get
		k := *g.k
		g.k = &k
		g.last = w.get.last.Clone()
		g.widths = append([]int(nil), w.get.widths...)
		c.get = &g
	}
	if w.events != nil {
		ew := *w.events
		k := *ew.k
		ew.k = &k
		ew.seen = w.events.seen.Clone()
		c.events = &ew
	}
	if w.drain != nil {
		c.drain = w.drain.clone()
	}
	if w.wait != nil {
		wt := *w.wait
		k := *wt.k
		wt.k = &k
		wt.items = slices.Clone(w.wait.items)
		c.wait = &wt
	}
	return &c
}
