package kinds

import (
	"strconv"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/validation"
)

// Events are written by the control plane itself: not validated.
var _ = Define(Def[*api.Event]{
	Kind:         "Event",
	NoGeneration: true,
	Validate:     func(*api.Event) validation.ErrorList { return nil },
	Columns: []TypedColumn[*api.Event]{
		{Name: "LAST SEEN", Cell: func(e *api.Event, now api.Time) string { return AgeOf(now, e.LastSeen()) }},
		{Name: "TYPE", Cell: func(e *api.Event, _ api.Time) string { return e.Type }},
		{Name: "REASON", Cell: func(e *api.Event, _ api.Time) string { return e.Reason }},
		{Name: "OBJECT", Cell: func(e *api.Event, _ api.Time) string {
			target := api.LowerKind(e.InvolvedObject.Kind)
			if e.InvolvedObject.Name != "" {
				target += "/" + e.InvolvedObject.Name
			}
			return target
		}},
		{Name: "SUBOBJECT", Wide: true, Cell: func(e *api.Event, _ api.Time) string { return e.InvolvedObject.FieldPath }},
		{Name: "SOURCE", Wide: true, Cell: func(e *api.Event, _ api.Time) string { return eventSource(e) }},
		{Name: "MESSAGE", Cell: func(e *api.Event, _ api.Time) string { return strings.TrimSpace(e.Message) }},
		{Name: "FIRST SEEN", Wide: true, Cell: func(e *api.Event, now api.Time) string { return AgeOf(now, e.FirstSeen()) }},
		{Name: "COUNT", Wide: true, Cell: func(e *api.Event, _ api.Time) string { return strconv.Itoa(int(e.Repeats())) }},
		{Name: "NAME", Wide: true, Cell: func(e *api.Event, _ api.Time) string { return e.Name }},
	},
})

// The columns are the API server's table of an event
// (pkg/printers/internalversion/printers.go printEvent, v1.34): LAST SEEN
// the series' lastObservedTime, else lastTimestamp, else the first seen;
// FIRST SEEN firstTimestamp, else eventTime; COUNT the series' count, else
// count, else 1; SUBOBJECT the involved object's fieldPath (a kubelet's
// container events: "spec.containers{app}").

// eventSource is the wide SOURCE column (printers.go formatEventSource):
// the source's component, else the reporting controller, and its host,
// else the reporting instance, apart by ", " (the component alone when
// there is no instance).
func eventSource(e *api.Event) string {
	component, instance := e.Component(), e.Source.Host
	if instance == "" {
		instance = e.ReportingInstance
	}
	if instance == "" {
		return component
	}
	return component + ", " + instance
}
