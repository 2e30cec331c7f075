package k8sapi_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8syaml "sigs.k8s.io/yaml"

	"reconcile/scenarios"
)

// kinds are the Kubernetes types a bundled manifest may be, by apiVersion
// and kind. A scenario that uses another kind adds it here.
var kinds = map[string]func() any{
	"apps/v1/Deployment": func() any { return &appsv1.Deployment{} },
	"apps/v1/ReplicaSet": func() any { return &appsv1.ReplicaSet{} },
	"v1/Pod":             func() any { return &corev1.Pod{} },
	"v1/Service":         func() any { return &corev1.Service{} },
	"v1/ConfigMap":       func() any { return &corev1.ConfigMap{} },
	"v1/Namespace":       func() any { return &corev1.Namespace{} },
	"v1/ResourceQuota":   func() any { return &corev1.ResourceQuota{} },
	"batch/v1/Job":       func() any { return &batchv1.Job{} },
	"admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration": func() any {
		return &admissionregistrationv1.ValidatingWebhookConfiguration{}
	},

	"v1/LimitRange":                          func() any { return &corev1.LimitRange{} },
	"autoscaling/v2/HorizontalPodAutoscaler": func() any { return &autoscalingv2.HorizontalPodAutoscaler{} },
	"policy/v1/PodDisruptionBudget":          func() any { return &policyv1.PodDisruptionBudget{} },
}

// manifestText is one block of Kubernetes YAML in a scenario file: the
// manifests applied at t=0, or what a step or the response applies or
// commits.
type manifestText struct {
	where string // e.g. "steps[2].apply"
	line  int    // where the block starts in the scenario file
	text  string
}

// scenarioFile is the part of the scenario format that holds manifests.
type scenarioFile struct {
	Manifests yaml.Node
	Steps     []inputs
	Response  []inputs
}

type inputs struct {
	Apply yaml.Node
	Git   yaml.Node
}

func manifestTexts(t *testing.T, name string, data []byte) []manifestText {
	t.Helper()
	var f scenarioFile
	if err := yaml.Unmarshal(data, &f); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var out []manifestText
	add := func(where string, n yaml.Node) {
		if n.Kind == yaml.ScalarNode && strings.TrimSpace(n.Value) != "" {
			out = append(out, manifestText{where: where, line: n.Line, text: n.Value})
		}
	}
	add("manifests", f.Manifests)
	for i, st := range f.Steps {
		add(fmt.Sprintf("steps[%d].apply", i), st.Apply)
		add(fmt.Sprintf("steps[%d].git", i), st.Git)
	}
	for i, st := range f.Response {
		add(fmt.Sprintf("response[%d].apply", i), st.Apply)
		add(fmt.Sprintf("response[%d].git", i), st.Git)
	}
	return out
}

// documents splits multi-document YAML into one YAML text per document.
func documents(text string) ([][]byte, error) {
	dec := yaml.NewDecoder(strings.NewReader(text))
	var docs [][]byte
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return nil, err
		}
		if len(n.Content) == 0 || n.Content[0].Tag == "!!null" {
			continue
		}
		b, err := yaml.Marshal(&n)
		if err != nil {
			return nil, err
		}
		docs = append(docs, b)
	}
}

// decodeStrict decodes one document into its k8s.io/api type, refusing
// unknown or duplicate fields, and returns the object's kind and name.
func decodeStrict(doc []byte) (string, error) {
	js, err := k8syaml.YAMLToJSONStrict(doc)
	if err != nil {
		return "", err
	}
	var tm metav1.TypeMeta
	if err := json.Unmarshal(js, &tm); err != nil {
		return "", err
	}
	mk, ok := kinds[tm.APIVersion+"/"+tm.Kind]
	if !ok {
		return "", fmt.Errorf("apiVersion %q kind %q is not a type this test knows: add it to kinds", tm.APIVersion, tm.Kind)
	}
	obj := mk()
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(obj); err != nil {
		return "", fmt.Errorf("%s: %v", tm.Kind, err)
	}
	name := obj.(metav1.Object).GetName()
	if name == "" {
		return "", fmt.Errorf("%s without metadata.name", tm.Kind)
	}
	return tm.Kind + "/" + name, nil
}

// TestBundledManifestsAreRealKubernetes decodes every manifest of every
// bundled scenario (the t=0 manifests, and what steps and responses apply
// or commit) strictly into the k8s.io/api types.
func TestBundledManifestsAreRealKubernetes(t *testing.T) {
	total := 0
	for _, id := range scenarios.IDs() {
		name, data, _ := scenarios.File(id)
		for _, m := range manifestTexts(t, name, data) {
			docs, err := documents(m.text)
			if err != nil {
				t.Errorf("%s:%d: %s: %v", name, m.line, m.where, err)
				continue
			}
			for i, doc := range docs {
				if _, err := decodeStrict(doc); err != nil {
					t.Errorf("%s:%d: %s, document %d: %v", name, m.line, m.where, i+1, err)
				}
				total++
			}
		}
	}
	if total == 0 {
		t.Fatal("no manifest found in the bundled scenarios")
	}
	t.Logf("%d manifests decoded", total)
}

// TestStrictDecodingRefusesMistakes shows that the decoding above would
// catch a mistake: an unknown field, a misplaced one, a wrong type.
func TestStrictDecodingRefusesMistakes(t *testing.T) {
	for _, doc := range []string{
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replica: 3}\n",
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {template: {spec: {containers: [{name: web, image: x, requests: {cpu: 1}}]}}}\n",
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: three}\n",
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 1, replicas: 2}\n",
		"apiVersion: v1\nkind: Deployment\nmetadata: {name: web}\n",
	} {
		if _, err := decodeStrict([]byte(doc)); err == nil {
			t.Errorf("decodeStrict accepted:\n%s", doc)
		}
	}
	if got, err := decodeStrict([]byte("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 3}\n")); err != nil || got != "Deployment/web" {
		t.Errorf("decodeStrict(valid) = %q, %v", got, err)
	}
}
