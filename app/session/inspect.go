package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"reconcile/engine/api"
	"reconcile/engine/kubectl"
	"reconcile/engine/sim"
)

// maxEventsShown bounds the events table of one object.
const maxEventsShown = 20

// Inspection is one object as the inspector shows it, answering the
// lesson's three questions in its order: has the controller seen my change
// (metadata.generation beside status.observedGeneration), what do its
// conditions say, what do its events say; then the object itself.
type Inspection struct {
	Ref api.Ref
	// Gone is set when the object is not (or no longer) stored.
	Gone       bool
	Generation int64
	// Observed is status.observedGeneration; HasObserved is false for
	// kinds that do not report it.
	Observed    int64
	HasObserved bool
	Conditions  []Condition
	Events      []Event
	MoreEvents  int
	YAML        string
}

// Condition is one status condition, as kubectl describe reads it.
type Condition struct {
	Type, Status, Reason, Message, Since string
}

// Event is one event about the object, with its age and count.
type Event struct {
	Type, Reason, Age, From, Message string
}

// objectProbe is what probeOf reads, from any kind, of the fields the three
// questions need.
type objectProbe struct {
	Metadata struct {
		Generation int64
	}
	Status struct {
		ObservedGeneration *int64
		Conditions         []probeCondition
	}
}

// probeCondition is one of status.conditions.
type probeCondition struct {
	Type, Status, Reason, Message, LastTransitionTime string
}

// objectText is what the inspector reads from one stored version of an
// object: its YAML and the fields the three questions need. The store never
// changes an object it holds (a change stores a new one), so this is
// computed once per version, not once per pass.
type objectText struct {
	obj   api.Object
	yaml  string
	probe objectProbe
	ok    bool
}

// readObject returns the text of obj, reusing last when it is the same
// stored version.
func readObject(obj api.Object, last *objectText) *objectText {
	if last != nil && last.obj == obj {
		return last
	}
	t := &objectText{obj: obj}
	data, err := json.Marshal(obj)
	if err != nil {
		t.yaml = "cannot render: " + err.Error()
		return t
	}
	// The YAML kubectl get -o yaml prints, from the object as the API
	// writes it (timestamps as RFC 3339, quantities as strings).
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		t.yaml = "cannot render: " + err.Error()
		return t
	}
	t.probe, t.ok = probeOf(doc)
	t.yaml = kubectl.YAML(doc)
	return t
}

// probeOf reads the probe's fields from an object decoded with numbers
// kept (json.Number): the same document the YAML is written from, not a
// second decoding of the JSON.
func probeOf(doc any) (objectProbe, bool) {
	var p objectProbe
	m, ok := doc.(map[string]any)
	if !ok {
		return p, false
	}
	if meta, ok := m["metadata"].(map[string]any); ok {
		if n, ok := meta["generation"].(json.Number); ok {
			p.Metadata.Generation, _ = n.Int64()
		}
	}
	status, _ := m["status"].(map[string]any)
	if n, ok := status["observedGeneration"].(json.Number); ok {
		g, _ := n.Int64()
		p.Status.ObservedGeneration = &g
	}
	conds, _ := status["conditions"].([]any)
	for _, c := range conds {
		cm, _ := c.(map[string]any)
		str := func(k string) string { v, _ := cm[k].(string); return v }
		p.Status.Conditions = append(p.Status.Conditions, probeCondition{Type: str("type"), Status: str("status"),
			Reason: str("reason"), Message: str("message"), LastTransitionTime: str("lastTransitionTime")})
	}
	return p, true
}

// inspect reads the view of ref from the run. cache holds the text of the
// object's last version read, and is updated. It reads the events about
// the object only, not every event of the world.
func inspect(run *sim.Sim, ref api.Ref, cache **objectText) Inspection {
	v := Inspection{Ref: ref}
	obj := run.Store().Get(ref.Kind, ref.Namespace, ref.Name)
	if obj == nil {
		v.Gone = true
		return v
	}
	text := readObject(obj, *cache)
	*cache = text
	v.YAML = text.yaml
	if probe := text.probe; text.ok {
		v.Generation = probe.Metadata.Generation
		if g := probe.Status.ObservedGeneration; g != nil {
			v.Observed, v.HasObserved = *g, true
		} else if ref.Kind == "Deployment" || ref.Kind == "ReplicaSet" || ref.Kind == "DaemonSet" || ref.Kind == "StatefulSet" {
			v.HasObserved = true // omitted when 0: the controller has not reported yet
		}
		for _, c := range probe.Status.Conditions {
			v.Conditions = append(v.Conditions, Condition{
				Type: c.Type, Status: c.Status, Reason: c.Reason, Message: c.Message, Since: sinceText(run.Now(), c.LastTransitionTime),
			})
		}
	}
	now := run.Now()
	evs := run.Store().EventsFor(ref.Kind, ref.Namespace, ref.Name)
	for i := len(evs) - 1; i >= 0; i-- { // newest first
		e := evs[i]
		if len(v.Events) >= maxEventsShown {
			v.MoreEvents++
			continue
		}
		v.Events = append(v.Events, Event{
			Type: e.Type, Reason: e.Reason, Age: EventAge(now, e), From: e.Component(), Message: e.Message,
		})
	}
	return v
}

// EventAge is the age column of kubectl describe: "12s", or
// "12s (x3 over 40s)" for an event seen more than once.
func EventAge(now api.Time, e *api.Event) string {
	age := api.HumanDuration(now - e.LastSeen())
	if n := e.Repeats(); n > 1 {
		age += fmt.Sprintf(" (x%d over %s)", n, api.HumanDuration(now-e.FirstSeen()))
	}
	return age
}

// sinceText renders an RFC 3339 timestamp of the run as an age.
func sinceText(now api.Time, stamp string) string {
	if stamp == "" {
		return ""
	}
	t, err := parseStamp(stamp)
	if err != nil {
		return stamp
	}
	return api.HumanDuration(now-t) + " ago"
}

// parseStamp turns a timestamp rendered from api.Epoch back into a
// simulated time.
func parseStamp(stamp string) (api.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, stamp)
	if err != nil {
		return 0, err
	}
	return api.Time(t.Sub(api.Epoch).Milliseconds()), nil
}
