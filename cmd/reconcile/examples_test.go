package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8syaml "sigs.k8s.io/yaml"
)

// world is what `reconcile run -o json` reports at its horizon: the
// objects and events, read back into the real Kubernetes types, so the
// checks read as they would against a cluster.
type world struct {
	Pods        []corev1.Pod
	Nodes       []corev1.Node
	DaemonSets  []appsv1.DaemonSet
	StatefulSet []appsv1.StatefulSet
	Claims      []corev1.PersistentVolumeClaim
	Volumes     []corev1.PersistentVolume
	CronJobs    []batchv1.CronJob
	Jobs        []batchv1.Job
	Events      []corev1.Event
}

func (w *world) podsOf(kind, name string) []corev1.Pod {
	var out []corev1.Pod
	for _, p := range w.Pods {
		if ref := metav1.GetControllerOf(&p); ref != nil && ref.Kind == kind && ref.Name == name && p.DeletionTimestamp == nil {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func (w *world) events(reason string) []corev1.Event {
	var out []corev1.Event
	for _, e := range w.Events {
		if e.Reason == reason {
			out = append(out, e)
		}
	}
	return out
}

func ready(p corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// examples are the manifests of testdata/examples, each run through the
// CLI's run path up to a horizon, and what a real cluster would show then.
// A new example is a file and a row.
var examples = []struct {
	file  string
	until string
	check func(w *world) error
}{
	{"daemonset.yaml", "1m", func(w *world) error {
		pods := w.podsOf("DaemonSet", "log-agent")
		if len(w.Nodes) != 3 || len(pods) != len(w.Nodes) {
			return fmt.Errorf("%d daemon pods over %d nodes, want one per node", len(pods), len(w.Nodes))
		}
		onNode := map[string]bool{}
		for _, p := range pods {
			if !strings.HasPrefix(p.Name, "log-agent-") || len(p.Name) != len("log-agent-")+5 {
				return fmt.Errorf("pod %s: want log-agent-<5 random>", p.Name)
			}
			if p.Labels["controller-revision-hash"] == "" || p.Status.Phase != corev1.PodRunning || !ready(p) {
				return fmt.Errorf("pod %s: hash %q, phase %s, ready %v", p.Name, p.Labels["controller-revision-hash"], p.Status.Phase, ready(p))
			}
			onNode[p.Spec.NodeName] = true
		}
		if len(onNode) != 3 {
			return fmt.Errorf("pods on %d distinct nodes, want 3", len(onNode))
		}
		ds := w.DaemonSets[0].Status
		if ds.DesiredNumberScheduled != 3 || ds.CurrentNumberScheduled != 3 || ds.NumberReady != 3 || ds.UpdatedNumberScheduled != 3 || ds.NumberAvailable != 3 || ds.NumberMisscheduled != 0 {
			return fmt.Errorf("status %+v", ds)
		}
		if n := len(w.events("SuccessfulCreate")); n != 3 {
			return fmt.Errorf("%d SuccessfulCreate events, want 3", n)
		}
		return nil
	}},
	{"statefulset.yaml", "2m", func(w *world) error {
		pods := w.podsOf("StatefulSet", "web")
		var names []string
		for _, p := range pods {
			names = append(names, p.Name)
			if !ready(p) {
				return fmt.Errorf("pod %s not ready", p.Name)
			}
			claim := ""
			for _, v := range p.Spec.Volumes {
				if v.PersistentVolumeClaim != nil {
					claim = v.PersistentVolumeClaim.ClaimName
				}
			}
			if claim != "www-"+p.Name {
				return fmt.Errorf("pod %s mounts claim %q, want www-%s", p.Name, claim, p.Name)
			}
		}
		if strings.Join(names, " ") != "web-0 web-1 web-2" {
			return fmt.Errorf("pods %v, want web-0 web-1 web-2", names)
		}
		// OrderedReady: each pod is created after the one before it is ready.
		for i := 1; i < len(pods); i++ {
			if !pods[i-1].CreationTimestamp.Before(&pods[i].CreationTimestamp) {
				return fmt.Errorf("%s created at %s, not after %s (%s)", pods[i].Name, pods[i].CreationTimestamp, pods[i-1].Name, pods[i-1].CreationTimestamp)
			}
		}
		if len(w.Claims) != 3 || len(w.Volumes) != 3 {
			return fmt.Errorf("%d claims and %d volumes, want 3 and 3", len(w.Claims), len(w.Volumes))
		}
		for _, c := range w.Claims {
			if c.Status.Phase != corev1.ClaimBound || c.Spec.VolumeName == "" || c.Status.Capacity.Storage().String() != "1Gi" {
				return fmt.Errorf("claim %s: %s to %q, capacity %s", c.Name, c.Status.Phase, c.Spec.VolumeName, c.Status.Capacity.Storage())
			}
		}
		for _, v := range w.Volumes {
			if v.Status.Phase != corev1.VolumeBound || v.Spec.ClaimRef == nil || !strings.HasPrefix(v.Spec.ClaimRef.Name, "www-web-") {
				return fmt.Errorf("volume %s: %s, claim %v", v.Name, v.Status.Phase, v.Spec.ClaimRef)
			}
		}
		st := w.StatefulSet[0].Status
		if st.Replicas != 3 || st.ReadyReplicas != 3 || st.AvailableReplicas != 3 || st.CurrentRevision != st.UpdateRevision || st.UpdateRevision == "" {
			return fmt.Errorf("status %+v", st)
		}
		return nil
	}},
	{"cronjob.yaml", "6m30s", func(w *world) error {
		// Jobs at 09:01 … 09:06 (the clock starts at 09:00): six ran, the
		// three latest are kept.
		var names []string
		for _, j := range w.Jobs {
			names = append(names, j.Name)
			if j.Status.Succeeded != 1 {
				return fmt.Errorf("job %s: %d succeeded", j.Name, j.Status.Succeeded)
			}
		}
		sort.Strings(names)
		if strings.Join(names, " ") != "hello-29454304 hello-29454305 hello-29454306" {
			return fmt.Errorf("jobs %v, want the three of 09:04, 09:05 and 09:06", names)
		}
		if n := len(w.events("SuccessfulCreate")); n < 6 {
			return fmt.Errorf("%d SuccessfulCreate events, want 6 Jobs created", n)
		}
		deleted := w.events("SuccessfulDelete")
		if len(deleted) != 3 {
			return fmt.Errorf("%d SuccessfulDelete events, want 3 (history limit)", len(deleted))
		}
		cj := w.CronJobs[0]
		if cj.Status.LastScheduleTime == nil || cj.Status.LastScheduleTime.UTC().Format("15:04:05") != "09:06:00" || len(cj.Status.Active) != 0 {
			return fmt.Errorf("status %+v", cj.Status)
		}
		if len(w.podsOf("Job", "hello-29454301")) != 0 {
			return fmt.Errorf("the pods of a deleted Job remain")
		}
		return nil
	}},
	{"job.yaml", "1m", func(w *world) error {
		if len(w.Jobs) != 1 {
			return fmt.Errorf("%d jobs", len(w.Jobs))
		}
		j := w.Jobs[0]
		complete := false
		for _, c := range j.Status.Conditions {
			complete = complete || (c.Type == batchv1.JobComplete && c.Status == corev1.ConditionTrue)
		}
		if !complete || j.Status.Succeeded != 1 || j.Status.CompletionTime == nil {
			return fmt.Errorf("job pi: succeeded %d, conditions %+v", j.Status.Succeeded, j.Status.Conditions)
		}
		return nil
	}},
}

// TestExamples runs each example through `reconcile run -o json` and
// checks that it ends as a real cluster would. Each manifest is first
// decoded strictly into the k8s.io/api types: the examples are real
// Kubernetes.
func TestExamples(t *testing.T) {
	files, _ := filepath.Glob("testdata/examples/*.yaml")
	if len(files) != len(examples) {
		t.Errorf("%d files in testdata/examples, %d examples: give each file a row", len(files), len(examples))
	}
	for _, ex := range examples {
		t.Run(ex.file, func(t *testing.T) {
			path := filepath.Join("testdata/examples", ex.file)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, doc := range strings.Split(string(data), "\n---\n") {
				if err := decodeStrict([]byte(doc)); err != nil {
					t.Fatalf("not real Kubernetes: %v", err)
				}
			}
			code, stdout, stderr := runCLI("run", path, "--until", ex.until, "-o", "json")
			if code != 0 || !onlyNotes(stderr) {
				t.Fatalf("exit %d, stderr:\n%s", code, stderr)
			}
			// Deterministic: the same file and seed give the same digest.
			if _, again, _ := runCLI("run", path, "--until", ex.until, "-o", "json"); digestOf(again) != digestOf(stdout) || digestOf(stdout) == "" {
				t.Errorf("two runs, two digests: %q and %q", digestOf(stdout), digestOf(again))
			}
			w, err := readWorld([]byte(stdout))
			if err != nil {
				t.Fatal(err)
			}
			if err := ex.check(w); err != nil {
				t.Error(err)
			}
		})
	}
}

var strictKinds = map[string]func() any{
	"apps/v1/DaemonSet":   func() any { return &appsv1.DaemonSet{} },
	"apps/v1/StatefulSet": func() any { return &appsv1.StatefulSet{} },
	"apps/v1/Deployment":  func() any { return &appsv1.Deployment{} },
	"batch/v1/CronJob":    func() any { return &batchv1.CronJob{} },
	"batch/v1/Job":        func() any { return &batchv1.Job{} },
	"v1/Service":          func() any { return &corev1.Service{} },
}

func decodeStrict(doc []byte) error {
	js, err := k8syaml.YAMLToJSONStrict(doc)
	if err != nil {
		return err
	}
	var tm metav1.TypeMeta
	if err := json.Unmarshal(js, &tm); err != nil {
		return err
	}
	mk, ok := strictKinds[tm.APIVersion+"/"+tm.Kind]
	if !ok {
		return fmt.Errorf("%s %s: add its type to strictKinds", tm.APIVersion, tm.Kind)
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	return dec.Decode(mk())
}

// readWorld reads the -o json document's objects and events into the
// k8s.io/api types (leniently: the simulation adds nothing they lack).
func readWorld(doc []byte) (*world, error) {
	var out struct {
		Objects []json.RawMessage `json:"objects"`
		Events  []json.RawMessage `json:"events"`
	}
	if err := json.Unmarshal(doc, &out); err != nil {
		return nil, err
	}
	w := &world{}
	for _, raw := range out.Objects {
		var tm metav1.TypeMeta
		if err := json.Unmarshal(raw, &tm); err != nil {
			return nil, err
		}
		var err error
		switch tm.Kind {
		case "Pod":
			err = appendAs(raw, &w.Pods)
		case "Node":
			err = appendAs(raw, &w.Nodes)
		case "DaemonSet":
			err = appendAs(raw, &w.DaemonSets)
		case "StatefulSet":
			err = appendAs(raw, &w.StatefulSet)
		case "PersistentVolumeClaim":
			err = appendAs(raw, &w.Claims)
		case "PersistentVolume":
			err = appendAs(raw, &w.Volumes)
		case "CronJob":
			err = appendAs(raw, &w.CronJobs)
		case "Job":
			err = appendAs(raw, &w.Jobs)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", tm.Kind, err)
		}
	}
	for _, raw := range out.Events {
		if err := appendAs(raw, &w.Events); err != nil {
			return nil, err
		}
	}
	return w, nil
}

func appendAs[T any](raw json.RawMessage, list *[]T) error {
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		return err
	}
	*list = append(*list, v)
	return nil
}

func digestOf(doc string) string {
	var out struct {
		Digest string `json:"digest"`
	}
	json.Unmarshal([]byte(doc), &out)
	return out.Digest
}

// onlyNotes reports whether stderr holds nothing but the loader's notes
// (what is stored and not simulated).
func onlyNotes(stderr string) bool {
	for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if l != "" && !strings.Contains(l, ": Note: ") {
			return false
		}
	}
	return true
}
