package kubectl

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"reconcile/engine/api"
	"reconcile/engine/pmap"
	"reconcile/engine/store"
)

// kubectl events, as kubectl v1.34 runs it (pkg/cmd/events): the events
// of the namespace (-A: of every one), of one object with --for TYPE/NAME,
// of the types --types names (Normal, Warning), oldest first, each with
// when it was last seen and, repeated, how often over how long
// ("2m (x4 over 5m)"). With -w, the events there are, then each one
// recorded or repeated after, as they come (a watch: not sorted).

// eventsQuery is what a kubectl events line asks for.
type eventsQuery struct {
	kind, version, name string // --for: the object's kind, apiVersion and name
	types               []string
	p                   *printer
}

// eventsQueryOf reads the line's flags, with kubectl's refusals in its
// order: --for, the output format, then --types.
func (k *cmd) eventsQueryOf() (eventsQuery, error) {
	var q eventsQuery
	if f := k.in.String("for", ""); f != "" {
		if !strings.Contains(f, "/") {
			return q, errors.New("error: --for must be in resource/name form")
		}
		word, name, _ := strings.Cut(f, "/")
		if strings.Contains(name, "/") {
			return q, errors.New("error: arguments in resource/name form may not have more than one slash")
		}
		kind, ok := api.KindNamed(word)
		if !ok {
			return q, fmt.Errorf("error: the server doesn't have a resource type %q", word)
		}
		q.kind, q.version, q.name = kind.Name, kind.Version, name
		if kind.Group != "" {
			q.version = kind.Group + "/" + kind.Version
		}
	}
	p, err := k.newPrinter(printFormats)
	if err != nil {
		return q, err
	}
	q.p = p
	for _, t := range k.in.List("types") {
		if !strings.EqualFold(t, "Normal") && !strings.EqualFold(t, "Warning") {
			return q, errors.New("error: valid --types are Normal or Warning")
		}
		q.types = append(q.types, t)
	}
	return q, nil
}

// matches reports whether e is one of the events asked for.
func (q eventsQuery) matches(k *cmd, e *api.Event) bool {
	if !k.in.Bool("all-namespaces", false) && e.Namespace != k.ns {
		return false
	}
	if q.name != "" {
		// kubectl asks the API server for involvedObject.kind, .apiVersion
		// and .name: an event whose reference has no apiVersion (a
		// kubelet's about its node) is not among them.
		o := e.InvolvedObject
		if o.Kind != q.kind || o.Name != q.name || o.APIVersion != q.version {
			return false
		}
	}
	if len(q.types) == 0 {
		return true
	}
	for _, t := range q.types {
		if strings.EqualFold(t, e.Type) {
			return true
		}
	}
	return false
}

// list is the events asked for, in the API server's order (by namespace
// and name).
func (q eventsQuery) list(k *cmd) []*api.Event {
	var out []*api.Event
	for _, o := range k.st.List("Event") {
		if e, ok := o.(*api.Event); ok && q.matches(k, e) {
			out = append(out, e)
		}
	}
	return out
}

// byLastSeen orders events as kubectl events does (pkg/cmd/events/
// events.go SortableEvents, eventTime): by the series' lastObservedTime,
// else lastTimestamp, else eventTime, each as precise as the API renders
// it (a Time to the second, a MicroTime to the microsecond: the
// simulation's millisecond). kubectl sorts with sort.Sort, which is not
// stable: events seen at the same instant are in the order sort.Sort
// gives them from the API server's, as here.
type byLastSeen []*api.Event

func (l byLastSeen) Len() int           { return len(l) }
func (l byLastSeen) Swap(i, j int)      { l[i], l[j] = l[j], l[i] }
func (l byLastSeen) Less(i, j int) bool { return sortTime(l[i]) < sortTime(l[j]) }

func sortTime(e *api.Event) api.Time {
	if e.Series == nil && e.LastTimestamp != api.NoTime {
		return e.LastTimestamp / api.Second * api.Second
	}
	return e.LastSeen()
}

// events runs kubectl events without -w.
func (k *cmd) events() (string, error) {
	q, err := k.eventsQueryOf()
	if err != nil {
		return "", err
	}
	evs := q.list(k)
	if len(evs) == 0 {
		if k.in.Bool("all-namespaces", false) {
			return "No events found.\n", nil
		}
		return fmt.Sprintf("No events found in %s namespace.\n", k.ns), nil
	}
	sort.Sort(byLastSeen(evs))
	return k.printEvents(q, evs, true)
}

// printEvents prints events in kubectl events' table (its header first
// when header) or in the -o format, as an EventList.
func (k *cmd) printEvents(q eventsQuery, evs []*api.Event, header bool) (string, error) {
	if !q.p.table() {
		if q.p.format == "name" {
			var b strings.Builder
			for _, e := range evs {
				fmt.Fprintf(&b, "event/%s\n", e.Name)
			}
			return b.String(), nil
		}
		if q.p.format == "json" {
			items := make([]typedEvent, len(evs))
			for i, e := range evs {
				items[i] = typedEventOf(e)
			}
			return typedJSON(typedEventList{Kind: "EventList", APIVersion: "v1", Items: items})
		}
		return q.p.printValue(map[string]any{"apiVersion": "v1", "kind": "EventList", "items": evs, "metadata": map[string]any{}})
	}
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 6, 4, 3, ' ', 0)
	all := k.in.Bool("all-namespaces", false)
	if header && !k.in.Bool("no-headers", false) {
		if all {
			fmt.Fprint(w, "NAMESPACE\t")
		}
		fmt.Fprint(w, "LAST SEEN\tTYPE\tREASON\tOBJECT\tMESSAGE\n")
	}
	for _, e := range evs {
		if all {
			fmt.Fprintf(w, "%s\t", e.Namespace)
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s/%s\t%s\n", k.lastSeen(e), e.Type, e.Reason, e.InvolvedObject.Kind, e.InvolvedObject.Name, strings.TrimSpace(e.Message))
	}
	w.Flush()
	return b.String(), nil
}

// lastSeen is kubectl events' first column and describe's Age
// (pkg/cmd/events/event_printer.go getInterval, pkg/describe/describe.go
// DescribeEvents): how long ago the event was first seen (eventTime, else
// firstTimestamp) or, repeated, last seen (the series', else
// lastTimestamp), how often and over how long.
func (k *cmd) lastSeen(e *api.Event) string {
	first := age(k.now, e.FirstSeen())
	switch {
	case e.Series != nil:
		return fmt.Sprintf("%s (x%d over %s)", age(k.now, api.Time(e.Series.LastObservedTime)), e.Series.Count, first)
	case e.Count > 1:
		return fmt.Sprintf("%s (x%d over %s)", age(k.now, e.LastTimestamp), e.Count, first)
	}
	return first
}

// eventsWatch is a kubectl events -w under way: what it printed of each
// event, by namespace and name.
type eventsWatch struct {
	k      *cmd
	q      eventsQuery
	seen   pmap.Map[eventSeen] // shared with its clones until one changes it
	header bool                // printed
}

// eventSeen is what a watch printed of an event: a repeat changes its
// count and when it was last seen.
type eventSeen struct {
	count int32
	last  api.Time
}

func newEventsWatch(st *store.Store, in *Invocation, ns string) (*eventsWatch, bool) {
	k := &cmd{st: st, in: in, ns: ns}
	q, err := k.eventsQueryOf()
	if err != nil {
		return nil, false
	}
	return &eventsWatch{k: k, q: q}, true
}

// changes prints the events recorded or repeated since the watch last
// looked, each as kubectl prints a watch event: a table of its own (the
// header with the first), in the order they were last seen.
func (w *eventsWatch) changes(now api.Time) string {
	w.k.now = now
	var fresh []*api.Event
	for _, e := range w.q.list(w.k) {
		if w.changed(e) {
			fresh = append(fresh, e)
		}
	}
	return w.print(fresh)
}

// changed reports whether e, one the watch asks for, was recorded or
// repeated since the watch last printed it, and remembers it.
func (w *eventsWatch) changed(e *api.Event) bool {
	key := e.Namespace + "/" + e.Name
	s := eventSeen{e.Repeats(), e.LastSeen()}
	if prev, ok := w.seen.Get(key); ok && prev == s {
		return false
	}
	w.seen.Set(key, s)
	return true
}

// fed is changes for an owner that hands the watch what the store did
// since it last looked (feed): the watch reads again only the events the
// feed names, and prints what changes prints (an event the feed does not
// name is as the watch last saw it).
func (w *eventsWatch) fed(now api.Time, feed []store.Change) string {
	w.k.now = now
	type named struct{ key, ns, name string } // key: the store's, which it lists by
	var ns []named
	for _, c := range feed {
		if o := changedObject(c); o.GetTypeMeta().Kind == "Event" {
			m := o.Meta()
			k := m.Name
			if m.Namespace != "" {
				k = m.Namespace + "/" + m.Name
			}
			ns = append(ns, named{k, m.Namespace, m.Name})
		}
	}
	if len(ns) == 0 {
		return ""
	}
	slices.SortFunc(ns, func(a, b named) int { return strings.Compare(a.key, b.key) })
	ns = slices.CompactFunc(ns, func(a, b named) bool { return a.key == b.key })
	var fresh []*api.Event
	for _, n := range ns {
		if e, ok := w.k.st.Get("Event", n.ns, n.name).(*api.Event); ok && w.q.matches(w.k, e) && w.changed(e) {
			fresh = append(fresh, e)
		}
	}
	return w.print(fresh)
}

// print prints fresh, events in the API server's order, in the order
// they were last seen.
func (w *eventsWatch) print(fresh []*api.Event) string {
	sort.SliceStable(fresh, func(i, j int) bool { return fresh[i].LastSeen() < fresh[j].LastSeen() })
	var b strings.Builder
	for _, e := range fresh {
		out, _ := w.printOne(e)
		w.header = true
		b.WriteString(out)
	}
	return b.String()
}

// printOne prints an event the watch tells: a row of the table (the
// header with the first) or, in an -o format, the event itself, as kubectl
// prints each object a watch sends (YAML documents apart with "---").
func (w *eventsWatch) printOne(e *api.Event) (string, error) {
	switch w.q.p.format {
	case "json":
		return typedJSON(typedEventOf(e))
	case "yaml":
		out, err := w.q.p.printValue(e)
		if w.header {
			out = "---\n" + out
		}
		return out, err
	}
	if !w.q.p.table() && w.q.p.format != "name" {
		return w.q.p.printValue(e)
	}
	return w.k.printEvents(w.q, []*api.Event{e}, !w.header)
}

// typedEvent is a core/v1 Event in the order of the fields of k8s.io/api's
// type: kubectl events prints the typed objects its client read (after
// setting kind and apiVersion), not the maps kubectl get prints with
// their keys sorted.
type typedEvent struct {
	Kind       string `json:"kind"`
	APIVersion string `json:"apiVersion"`
	Metadata   struct {
		Name              string   `json:"name,omitempty"`
		Namespace         string   `json:"namespace,omitempty"`
		UID               string   `json:"uid,omitempty"`
		ResourceVersion   string   `json:"resourceVersion,omitempty"`
		CreationTimestamp api.Time `json:"creationTimestamp"`
	} `json:"metadata"`
	InvolvedObject      api.ObjectReference `json:"involvedObject"`
	Reason              string              `json:"reason,omitempty"`
	Message             string              `json:"message,omitempty"`
	Source              api.EventSource     `json:"source"`
	FirstTimestamp      api.Time            `json:"firstTimestamp"`
	LastTimestamp       api.Time            `json:"lastTimestamp"`
	Count               int32               `json:"count,omitempty"`
	Type                string              `json:"type,omitempty"`
	EventTime           *api.MicroTime      `json:"eventTime"`
	Series              *api.EventSeries    `json:"series,omitempty"`
	Action              string              `json:"action,omitempty"`
	ReportingController string              `json:"reportingComponent"`
	ReportingInstance   string              `json:"reportingInstance"`
}

type typedEventList struct {
	Kind       string       `json:"kind"`
	APIVersion string       `json:"apiVersion"`
	Metadata   struct{}     `json:"metadata"`
	Items      []typedEvent `json:"items"`
}

func typedEventOf(e *api.Event) typedEvent {
	t := typedEvent{Kind: "Event", APIVersion: "v1", InvolvedObject: e.InvolvedObject, Reason: e.Reason, Message: e.Message,
		Source: e.Source, FirstTimestamp: e.FirstTimestamp, LastTimestamp: e.LastTimestamp, Count: e.Count, Type: e.Type,
		EventTime: e.EventTime, Series: e.Series, Action: e.Action, ReportingController: e.ReportingController, ReportingInstance: e.ReportingInstance}
	t.Metadata.Name, t.Metadata.Namespace, t.Metadata.UID = e.Name, e.Namespace, e.UID
	t.Metadata.ResourceVersion, t.Metadata.CreationTimestamp = e.ResourceVersion, e.CreationTimestamp
	return t
}

// typedJSON prints v as kubectl's JSON printer does (json.MarshalIndent,
// four spaces, a newline after).
func typedJSON(v any) (string, error) {
	out, err := json.MarshalIndent(v, "", "    ")
	if err != nil {
		return "", err
	}
	return string(out) + "\n", nil
}
