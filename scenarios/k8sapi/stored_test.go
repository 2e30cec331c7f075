package k8sapi_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sort"
	"testing"
	"time"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/printers"

	"reconcile/engine/api"
	"reconcile/engine/kubectl"
)

// TestObjectsAreWhatTheAPIServerStores holds every object of every kind
// that k8s.io/api has a type for here (typed), in every bundled lesson at
// three moments, to what the API server would return: read into the type
// and written again, its JSON has exactly the fields ours has, with the
// same values (a pod condition's lastProbeTime: null; a node's addresses,
// daemon endpoints and every field of its nodeInfo; an Endpoints port
// without a name has none).
func TestObjectsAreWhatTheAPIServerStores(t *testing.T) {
	more := map[string]func() any{
		"Namespace":               func() any { return &corev1.Namespace{} },
		"HorizontalPodAutoscaler": func() any { return &autoscalingv2.HorizontalPodAutoscaler{} },
		"PodDisruptionBudget":     func() any { return &policyv1.PodDisruptionBudget{} },
	}
	for _, kind := range []string{"Deployment", "ReplicaSet", "Pod", "Node", "Job", "ResourceQuota",
		"ValidatingWebhookConfiguration", "Service", "Endpoints", "EndpointSlice",
		"Namespace", "HorizontalPodAutoscaler", "PodDisruptionBudget"} {
		newTyped := func() any { return typed(kind) }
		if f, ok := more[kind]; ok {
			newTyped = f
		}
		n := roundTrips(t, kind, newTyped)
		if n == 0 {
			t.Errorf("no %s in the lessons' worlds to compare", kind)
		}
		t.Logf("%s: %d compared", kind, n)
	}
}

// roundTrips holds every object of kind in the lessons' worlds to the
// k8s.io/api type newTyped returns: read into it and written again, the
// JSON has exactly the fields ours has, with the same values. It returns
// how many it compared.
func roundTrips(t *testing.T, kind string, newTyped func() any) int {
	t.Helper()
	n := 0
	for _, m := range moments(t) {
		for _, o := range m.store.List(kind) {
			ours, err := json.Marshal(o)
			if err != nil {
				t.Fatal(err)
			}
			typed := newTyped()
			if err := json.Unmarshal(ours, typed); err != nil {
				t.Fatalf("%s at %v: %v", m.lesson, m.at, err)
			}
			theirs, err := json.Marshal(typed)
			if err != nil {
				t.Fatal(err)
			}
			var a, b map[string]any
			if err := json.Unmarshal(ours, &a); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(theirs, &b); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("%s at %v: %s %s is not what the API server returns:\nours:   %s\ntheirs: %s", m.lesson, m.at, kind, o.Meta().Name, ours, theirs)
			}
			n++
		}
	}
	return n
}

// TestEventsAreWhatTheAPIServerStores holds every event of every bundled
// lesson, at three moments, to the core/v1 Event the API server would
// return: read into k8s.io/api's type and written again, its JSON has
// exactly the fields ours has, with the same values: for the legacy
// recorder's, eventTime null, reportingComponent and reportingInstance
// as it sets them, count, both timestamps; for the scheduler's (the
// events.k8s.io recorder's), eventTime to the microsecond, action,
// series, source {}, no count, both timestamps null.
func TestEventsAreWhatTheAPIServerStores(t *testing.T) {
	n := roundTrips(t, "Event", func() any { return &corev1.Event{} })
	if n < 1000 {
		t.Fatalf("only %d events compared: the lessons record more", n)
	}
	series, sub, versioned := 0, 0, 0
	for _, m := range moments(t) {
		for _, o := range m.store.List("Event") {
			e := o.(*api.Event)
			if e.Series != nil && e.EventTime != nil && e.Action != "" {
				series++
			}
			if e.InvolvedObject.FieldPath != "" {
				sub++
			}
			if e.InvolvedObject.ResourceVersion != "" {
				versioned++
			}
		}
	}
	if series == 0 {
		t.Fatal("no event with a series compared: the scheduler's FailedScheduling of pending-pods has one")
	}
	if sub == 0 || versioned == 0 {
		t.Fatalf("%d events about a container (involvedObject.fieldPath), %d with involvedObject.resourceVersion: the kubelet's Started has both", sub, versioned)
	}
	t.Logf("%d events compared, %d of them series, %d about a container, %d with the object's resourceVersion", n, series, sub, versioned)
}

// TestEventsJSONIsKubectls runs kubectl events -o json in every bundled
// lesson's world at three moments and holds its output, byte for byte, to
// what kubectl's own JSON printer (k8s.io/cli-runtime) prints of the same
// events as kubectl events hands them over: read from the API server in
// its order, kind and apiVersion set, sorted by kubectl's SortableEvents,
// in a typed EventList (its fields in the Go type's order, not sorted).
// The order of the events is kubectl's sort (its SortableEvents, whose
// package brings in the whole kubectl command line: byEventTime here),
// held by the kubectl-events script.
func TestEventsJSONIsKubectls(t *testing.T) {
	compared, withSeries, withFieldPath := 0, 0, 0
	for _, m := range moments(t) {
		list := &corev1.EventList{TypeMeta: metav1.TypeMeta{Kind: "EventList", APIVersion: "v1"}}
		for _, o := range m.store.List("Event") {
			if o.Meta().Namespace != "default" {
				continue
			}
			e := coreEvent(t, o.(*api.Event))
			e.TypeMeta = metav1.TypeMeta{}
			e.SetGroupVersionKind(schema.GroupVersionKind{Version: "v1", Kind: "Event"})
			list.Items = append(list.Items, e)
		}
		if len(list.Items) == 0 {
			continue
		}
		sort.Sort(byEventTime(list.Items))
		var want bytes.Buffer
		if err := (&printers.JSONPrinter{}).PrintObj(list, &want); err != nil {
			t.Fatal(err)
		}
		for _, e := range list.Items {
			if e.Series != nil {
				withSeries++
				break
			}
		}
		for _, e := range list.Items {
			// a kubelet's container event: fieldPath and the pod's
			// resourceVersion, after the apiVersion
			if e.InvolvedObject.FieldPath != "" && e.InvolvedObject.ResourceVersion != "" {
				withFieldPath++
				break
			}
		}
		got, code := kubectl.Run(m.store, m.at, "events -o json")
		if code != 0 {
			t.Fatalf("%s at %v: kubectl events -o json: exit %d: %s", m.lesson, m.at, code, got)
		}
		if got != want.String() {
			t.Fatalf("%s at %v: kubectl events -o json is not kubectl's:\n--- ours\n%s--- kubectl's printer\n%s", m.lesson, m.at, got, want.String())
		}
		compared++
	}
	if compared < 50 {
		t.Fatalf("only %d worlds compared", compared)
	}
	if withSeries == 0 {
		t.Fatal("no world compared has an event with a series")
	}
	if withFieldPath == 0 {
		t.Fatal("no world compared has an event about a container (involvedObject.fieldPath and resourceVersion)")
	}
}

// coreEvent is e as the API server returns it, read into k8s.io/api's
// type.
func coreEvent(t *testing.T, e *api.Event) corev1.Event {
	t.Helper()
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	var ce corev1.Event
	if err := json.Unmarshal(b, &ce); err != nil {
		t.Fatal(err)
	}
	return ce
}

// byEventTime is kubectl events' SortableEvents (pkg/cmd/events/events.go,
// whose package brings in the whole kubectl command line): by the
// series' lastObservedTime, else lastTimestamp, else eventTime, with
// sort.Sort.
type byEventTime []corev1.Event

func (l byEventTime) Len() int           { return len(l) }
func (l byEventTime) Swap(i, j int)      { l[i], l[j] = l[j], l[i] }
func (l byEventTime) Less(i, j int) bool { return eventTime(l[i]).Before(eventTime(l[j])) }

func eventTime(e corev1.Event) time.Time {
	if e.Series != nil {
		return e.Series.LastObservedTime.Time
	}
	if !e.LastTimestamp.Time.IsZero() {
		return e.LastTimestamp.Time
	}
	return e.EventTime.Time
}
