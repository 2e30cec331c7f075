package k8sapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/kubectl/pkg/describe"

	"reconcile/engine/api"
	"reconcile/engine/kubectl"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

const revisionWorld = `
id: revisions
title: revisions
summary: a DaemonSet and a StatefulSet, each with three templates
manifests: |
  apiVersion: apps/v1
  kind: DaemonSet
  metadata:
    name: agent
  spec:
    selector:
      matchLabels: {app: agent}
    template:
      metadata:
        labels: {app: agent}
      spec:
        containers:
        - name: agent
          image: agent:v1
          env: [{name: MODE, value: fast}]
          ports: [{containerPort: 9100, name: metrics}]
  ---
  apiVersion: apps/v1
  kind: StatefulSet
  metadata:
    name: db
  spec:
    serviceName: db
    replicas: 2
    selector:
      matchLabels: {app: db}
    template:
      metadata:
        labels: {app: db}
        annotations: {team: data}
      spec:
        containers:
        - {name: db, image: "postgres:16", args: ["-c", "fsync=on"]}
`

// TestRevisionsAgreeWithKubectl runs a DaemonSet and a StatefulSet through
// three templates (the StatefulSet's third a rollback, which renumbers its
// first) and checks each revision as kubectl reads it: rollout history
// --revision=N prints what kubectl's describer prints of the template the
// revision's data patches into the set (apimachinery's strategic merge
// patch), and the newest revision's data is, byte for byte once its keys
// are sorted as the controllers' json.Marshal of a map sorts them, the
// patch kubectl makes of the set, so undo to it is skipped.
func TestRevisionsAgreeWithKubectl(t *testing.T) {
	sc, err := scenario.Load("revisions.yaml", []byte(revisionWorld))
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	s.RunUntil(api.Minute, 0)
	for _, line := range []string{"set image ds/agent agent=agent:v2", "set image sts/db db=postgres:17"} {
		if out, err := s.Inject(sim.Kubectl{Line: line}); err != nil {
			t.Fatalf("%s: %v %v", line, out, err)
		}
	}
	s.RunUntil(3*api.Minute, 0)
	for _, line := range []string{"annotate ds/agent kubernetes.io/change-cause=third --overwrite", "set image ds/agent agent=agent:v3",
		"rollout undo sts/db --to-revision=1"} {
		if out, err := s.Inject(sim.Kubectl{Line: line}); err != nil {
			t.Fatalf("%s: %v %v", line, out, err)
		}
	}
	s.RunUntil(6*api.Minute, 0)
	st := s.Store()

	var objs []runtime.Object
	for _, kind := range []string{"DaemonSet", "StatefulSet", "ControllerRevision"} {
		for _, o := range st.List(kind) {
			b, err := json.Marshal(o)
			if err != nil {
				t.Fatal(err)
			}
			var out runtime.Object = &appsv1.DaemonSet{}
			switch kind {
			case "StatefulSet":
				out = &appsv1.StatefulSet{}
			case "ControllerRevision":
				out = &appsv1.ControllerRevision{}
			}
			if err := json.Unmarshal(b, out); err != nil {
				t.Fatalf("%s %s: %v", kind, o.Meta().Name, err)
			}
			if r, ok := out.(*appsv1.ControllerRevision); ok {
				// The controllers store the bytes of json.Marshal of a map:
				// keys sorted.
				var m map[string]any
				if err := json.Unmarshal(r.Data.Raw, &m); err != nil {
					t.Fatal(err)
				}
				r.Data.Raw, _ = json.Marshal(m)
			}
			objs = append(objs, out)
		}
	}
	byName := map[string]runtime.Object{}
	for _, o := range objs {
		m := o.(interface{ GetName() string })
		byName[m.GetName()] = o
	}
	revisions := 0
	for _, set := range []struct {
		kind, name string
		typed      any
	}{{"DaemonSet", "agent", &appsv1.DaemonSet{}}, {"StatefulSet", "db", &appsv1.StatefulSet{}}} {
		ref := strings.ToLower(set.kind) + "/" + set.name
		setJSON, _ := json.Marshal(byName[set.name])
		var newest int64
		var newestData []byte
		for _, o := range st.List("ControllerRevision") {
			r := byName[o.Meta().Name].(*appsv1.ControllerRevision)
			if r.OwnerReferences[0].Name != set.name {
				continue
			}
			if r.Revision > newest {
				newest, newestData = r.Revision, r.Data.Raw
			}
			// kubectl's history viewer applies the revision's data to the
			// set as a strategic merge patch and describes the template.
			patched, err := strategicpatch.StrategicMergePatch(setJSON, r.Data.Raw, set.typed)
			if err != nil {
				t.Fatalf("%s: %v", r.Name, err)
			}
			var applied struct {
				Spec struct {
					Template corev1.PodTemplateSpec `json:"template"`
				} `json:"spec"`
			}
			if err := json.Unmarshal(patched, &applied); err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			describe.DescribePodTemplate(&applied.Spec.Template, describe.NewPrefixWriter(&b))
			want := fmt.Sprintf("%s.apps/%s with revision #%d\n%s\n", strings.ToLower(set.kind), set.name, r.Revision, b.String())
			got, _ := kubectl.Run(st, s.Now(), fmt.Sprintf("rollout history %s --revision=%d", ref, r.Revision))
			// kubectl prints the describer's tabs as they are; ours aligns
			// them, as rollout history of a Deployment does.
			if untab(got) != untab(want) {
				t.Errorf("rollout history %s --revision=%d:\n--- ours\n%s--- kubectl's\n%s", ref, r.Revision, got, want)
			}
			revisions++
		}
		// The newest revision's data is the patch kubectl makes of the set
		// (its template with "$patch": "replace"), byte for byte: kubectl
		// skips a rollback to it.
		var raw map[string]any
		if err := json.Unmarshal(setJSON, &raw); err != nil {
			t.Fatal(err)
		}
		tmpl := raw["spec"].(map[string]any)["template"].(map[string]any)
		tmpl["$patch"] = "replace"
		patch, _ := json.Marshal(map[string]any{"spec": map[string]any{"template": tmpl}})
		if !bytes.Equal(patch, newestData) {
			t.Errorf("%s: newest revision's data\n%s\nkubectl's patch of the set\n%s", ref, newestData, patch)
		}
		got, _ := kubectl.Run(st, s.Now(), fmt.Sprintf("rollout undo %s --to-revision=%d", ref, newest))
		if want := fmt.Sprintf("%s.apps/%s skipped rollback (current template already matches revision %d)\n", strings.ToLower(set.kind), set.name, newest); got != want {
			t.Errorf("rollout undo: got %q, want %q", got, want)
		}
	}
	if revisions != 5 { // the StatefulSet's rollback renumbered its first
		t.Errorf("compared %d revisions, want 3 of the DaemonSet and 2 of the StatefulSet", revisions)
	}
}

var spaces = regexp.MustCompile(`[ \t]+`)

func untab(s string) string { return spaces.ReplaceAllString(s, " ") }
