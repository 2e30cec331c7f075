package k8sapi_test

import (
	"bytes"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"text/tabwriter"
	"time"
	"unsafe"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/kubectl/pkg/describe"

	"reconcile/engine/api"
	"reconcile/engine/kubectl"
	"reconcile/engine/store"
)

// clientset serves a simulated world as a fake API server: every object
// of a simulated kind, and pods listed by field (spec.nodeName,
// status.phase) as the API server lists them, which the fake does not.
func clientset(t *testing.T, st *store.Store) *fake.Clientset {
	t.Helper()
	var objs []runtime.Object
	for _, kind := range simulatedKinds {
		for _, o := range st.List(kind) {
			objs = append(objs, toK8s(t, o))
		}
	}
	c := fake.NewSimpleClientset(objs...)
	c.PrependReactor("list", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		fs := a.(k8stesting.ListAction).GetListRestrictions().Fields
		if fs == nil || fs.Empty() {
			return false, nil, nil
		}
		list := &corev1.PodList{}
		for _, o := range st.List("Pod") {
			p := toK8s(t, o).(*corev1.Pod)
			if a.GetNamespace() != "" && p.Namespace != a.GetNamespace() {
				continue
			}
			if fs.Matches(fields.Set{"spec.nodeName": p.Spec.NodeName, "status.phase": string(p.Status.Phase)}) {
				list.Items = append(list.Items, *p)
			}
		}
		return true, list, nil
	})
	return c
}

// describer returns kubectl's own describer of a kind, over c.
func describer(kind string, c *fake.Clientset) describe.ResourceDescriber {
	switch kind {
	case "Pod":
		return &describe.PodDescriber{Interface: c}
	case "ReplicaSet":
		return &describe.ReplicaSetDescriber{Interface: c}
	case "Node":
		return &describe.NodeDescriber{Interface: c}
	case "Job":
		return &describe.JobDescriber{Interface: c}
	case "ResourceQuota":
		return &describe.ResourceQuotaDescriber{Interface: c}
	case "Service":
		return &describe.ServiceDescriber{Interface: c}
	case "EndpointSlice":
		return &describe.EndpointSliceDescriber{Interface: c}
	case "Endpoints":
		return &describe.EndpointsDescriber{Interface: c}
	case "ServiceAccount":
		return &describe.ServiceAccountDescriber{Interface: c}
	case "ConfigMap":
		return &describe.ConfigMapDescriber{Interface: c}
	case "Deployment":
		d := &describe.DeploymentDescriber{}
		f := reflect.ValueOf(d).Elem().FieldByName("client") // its one field, unexported
		reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Set(reflect.ValueOf(c))
		return d
	}
	return nil
}

var (
	// The cells that hold an age, read from the wall clock by kubectl's
	// describers: a node's pods (the last column) and a pod terminating.
	podAge         = regexp.MustCompile(`(?m)^(  \S+\s+\S+\s+\s+\S+ \(\d+%\)\s+\S+ \(\d+%\)\s+\S+ \(\d+%\)\s+\S+ \(\d+%\)\s+)\S+$`)
	terminatingAge = regexp.MustCompile(`Terminating \(lasts [^)]*\)`)
	// kubectl describes a node's Lease; the simulation keeps node
	// heartbeats outside the store, so the describer finds none.
	leaseLine = regexp.MustCompile(`(?m)^Lease:.*\n`)
)

func normalizeDescribe(s string) string {
	// kubectl prints the API server's warnings to stderr, before the text.
	s = strings.TrimPrefix(s, kubectl.EndpointsDeprecation)
	s = podAge.ReplaceAllString(s, "${1}AGE")
	s = terminatingAge.ReplaceAllString(s, "Terminating (lasts AGE)")
	return leaseLine.ReplaceAllString(s, "")
}

// TestDescribeAgreesWithKubectl describes every object of every simulated
// kind in the bundled lessons' worlds at several moments with ours and
// with kubectl's own describers (k8s.io/kubectl/pkg/describe) over a fake
// API server holding the same objects: the same text, byte for byte, but
// for ages read from the wall clock. Events are compared on their own
// (TestDescribeEventsAgreeWithKubectl).
func TestDescribeAgreesWithKubectl(t *testing.T) {
	described := 0
	for _, m := range moments(t) {
		c := clientset(t, m.store)
		for _, kind := range simulatedKinds {
			for _, o := range m.store.List(kind) {
				meta := o.Meta()
				want, err := describer(kind, c).Describe(meta.Namespace, meta.Name, describe.DescriberSettings{ShowEvents: false, ChunkSize: 500})
				if err != nil {
					t.Fatalf("%s: kubectl's describer: %v", kind, err)
				}
				line := "describe " + kind + " " + meta.Name + " --show-events=false"
				if meta.Namespace != "" {
					line += " -n " + meta.Namespace
				}
				got, code := kubectl.Run(m.store, m.at, line)
				if code != 0 {
					t.Fatalf("kubectl %s: exit %d: %s", line, code, got)
				}
				if normalizeDescribe(got) != normalizeDescribe(want) {
					t.Errorf("%s at %s: kubectl %s:\n--- ours\n%s--- kubectl's describer\n%s", m.lesson, m.at, line, got, want)
				}
				described++
			}
		}
	}
	if described < 100 {
		t.Errorf("only %d objects described", described)
	}
}

// TestDescribeEventsAgreeWithKubectl compares the Events section of every
// described object with kubectl's DescribeEvents, with the wall clock
// set so that kubectl's ages are the simulation's: in the first worlds,
// every object with events; in the others, those whose events include
// a series (the scheduler's). kubectl is handed each event as the API
// server returns it (its JSON read into k8s.io/api's type).
func TestDescribeEventsAgreeWithKubectl(t *testing.T) {
	epoch := api.Epoch
	defer func() { api.Epoch = epoch }()
	compared, withSeries := 0, 0
	for i, m := range moments(t) {
		for _, kind := range simulatedKinds[:5] {
			for _, o := range m.store.List(kind) {
				meta := o.Meta()
				evs := m.store.EventsFor(kind, meta.Namespace, meta.Name)
				if len(evs) == 0 || i >= 12 && !slices.ContainsFunc(evs, func(e *api.Event) bool { return e.Series != nil }) {
					continue // past the first worlds, only lists with a series (the scheduler's)
				}
				var got, want string
				for try := 0; try < 3; try++ {
					// Now, on kubectl's clock, is the simulation's now.
					api.Epoch = time.Now().Add(-time.Duration(m.at) * time.Millisecond)
					list := &corev1.EventList{}
					for _, e := range evs {
						// The event as the API server returns it, read into
						// k8s.io/api's type: count, timestamps, source, and
						// an events.k8s.io recorder's eventTime, series and
						// reportingComponent.
						ce := coreEvent(t, e)
						// The simulation's ages count the legacy
						// timestamps' milliseconds, which the API's
						// seconds drop: kubectl is handed them whole.
						if e.FirstTimestamp != api.NoTime {
							ce.FirstTimestamp = metav1.NewTime(e.FirstTimestamp.Wall())
							ce.LastTimestamp = metav1.NewTime(e.LastTimestamp.Wall())
						}
						list.Items = append(list.Items, ce)
					}
					var b bytes.Buffer
					tw := tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0) // as kubectl's describers lay text out
					describe.DescribeEvents(list, describe.NewPrefixWriter(tw))
					tw.Flush()
					want = b.String()
					line := "describe " + kind + " " + meta.Name + " -n " + meta.Namespace
					out, _ := kubectl.Run(m.store, m.at, line)
					got = out[strings.LastIndex(out, "Events:"):]
					if got == want {
						break
					}
				}
				for _, e := range evs {
					if e.Series != nil {
						withSeries++
						break
					}
				}
				if got != want {
					t.Errorf("%s at %s: %s %s events:\n--- ours\n%s--- kubectl's\n%s", m.lesson, m.at, kind, meta.Name, got, want)
				}
				compared++
			}
		}
	}
	if compared < 20 {
		t.Errorf("only %d event lists compared", compared)
	}
	if withSeries == 0 {
		t.Error("no event list compared has an event with a series (the scheduler's)")
	}
}
