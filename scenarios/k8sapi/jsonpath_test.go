package k8sapi_test

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"k8s.io/client-go/util/jsonpath"

	"reconcile/engine/kubectl"
)

// jsonpathTemplates are the templates the differential test runs: fields,
// indexes and slices, wildcards, filters, ranges, unions, quoted text,
// recursive descent, and broken ones. unordered marks those whose results
// come from a map's keys, in an order client-go leaves to Go's maps.
var jsonpathTemplates = []struct {
	tmpl      string
	unordered bool
}{
	{tmpl: "{.metadata.name}"},
	{tmpl: "{.kind} {.apiVersion}"},
	{tmpl: "{.metadata.labels}"},
	{tmpl: "{.metadata.labels.app}"},
	{tmpl: "{.metadata.ownerReferences[0].kind}/{.metadata.ownerReferences[0].name}"},
	{tmpl: "{.spec.replicas}"},
	{tmpl: "{.status.replicas}"},
	{tmpl: "{.spec.template.spec.containers[*].image}"},
	{tmpl: "{.spec.containers[*].name}"},
	{tmpl: "{.spec.containers[0].resources.requests.cpu}"},
	{tmpl: "{.status.conditions[?(@.type==\"Ready\")].status}"},
	{tmpl: "{.status.conditions[?(@.status!=\"True\")].type}"},
	{tmpl: "{.status.conditions[-1:].type}"},
	{tmpl: "{.status.conditions[0:2].type}"},
	{tmpl: "{.status.conditions[::2].reason}"},
	{tmpl: "{range .status.conditions[*]}{.type}={.status}{\"\\n\"}{end}"},
	{tmpl: "{range .status.containerStatuses[*]}{.name}{'\\t'}{.restartCount}{'\\n'}{end}"},
	{tmpl: "{.status.containerStatuses[?(@.restartCount>0)].name}"},
	{tmpl: "{.spec.taints[*].key}"},
	{tmpl: "{.spec.tolerations[?(@.tolerationSeconds>=300)].key}"},
	{tmpl: "{.metadata['name','namespace']}"},
	{tmpl: "{.status.capacity.cpu} {.status.allocatable.memory}"},
	{tmpl: "{.nothing.here}"},
	{tmpl: "{.spec}"},
	{tmpl: "{.metadata.annotations.deployment\\.kubernetes\\.io/revision}"},
	{tmpl: "{..image}", unordered: true},
	{tmpl: "{.metadata.labels.*}", unordered: true},
	{tmpl: "{.spec.containers[5].name}"},
	{tmpl: "{.metadata.name[0]}"},
	{tmpl: "{.metadata.name"},
	{tmpl: "{.spec.containers[?(@.name==\"x\"]}"},
	{tmpl: "{.a[x]}"},
	{tmpl: "{end}"},
	{tmpl: "{.metadata.name}{\"unterminated}"},
	{tmpl: "{#}"},
	{tmpl: "{.spec.template.spec.containers[*]['name','image']}"},
	{tmpl: "{range .spec.template.spec.containers[*]}{.name}{end}"},
	{tmpl: "{.status.conditions[?(@.reason)].type}"},
	{tmpl: "{.spec.paused} {.status.containerStatuses[0].ready}"},
	{tmpl: "{.status.containerStatuses[?(@.ready==true)].name}"},
	{tmpl: "{range .status.conditions[*]}[{range .type}{@}{end}]{end}"},
	{tmpl: "{.items[*].metadata.name}"},
	{tmpl: "{range .items[*]}{.metadata.name}{\"\\t\"}{.status.phase}{\"\\n\"}{end}"},
	{tmpl: "{.items[?(@.status.phase==\"Running\")].metadata.name}"},
	{tmpl: "{.items[-1:].metadata.name}"},
	{tmpl: "{.items[0].spec.nodeName}"},
}

// TestJSONPathAgreesWithClientGo runs kubectl's template language, ours
// and client-go's util/jsonpath (what kubectl -o jsonpath runs), on every
// simulated object of the bundled lessons at several moments, converted
// to the k8s.io/api types and read as kubectl reads them: the same text,
// or the same error.
func TestJSONPathAgreesWithClientGo(t *testing.T) {
	checked := 0
	for _, m := range moments(t) {
		for _, kind := range simulatedKinds {
			for _, o := range m.store.List(kind) {
				k8s := toK8s(t, o)
				raw, err := json.Marshal(k8s)
				if err != nil {
					t.Fatal(err)
				}
				d := json.NewDecoder(bytes.NewReader(raw))
				d.UseNumber()
				var oursDoc any
				d.Decode(&oursDoc)
				theirsDoc := unstructuredNumbers(oursDoc)
				for _, c := range jsonpathTemplates {
					want, werr := clientGoJSONPath(c.tmpl, theirsDoc)
					got, gerr := oursJSONPath(c.tmpl, oursDoc)
					if (werr == nil) != (gerr == nil) || (werr != nil && werr.Error() != gerr.Error()) {
						t.Errorf("%s at %s, %s %s, %s: error\n ours %v\n client-go %v", m.lesson, m.at, kind, o.Meta().Name, c.tmpl, gerr, werr)
						continue
					}
					if c.unordered {
						got, want = sortedWords(got), sortedWords(want)
					}
					if got != want {
						t.Errorf("%s at %s, %s %s, %s:\n ours      %q\n client-go %q", m.lesson, m.at, kind, o.Meta().Name, c.tmpl, got, want)
					}
					checked++
				}
			}
		}
	}
	for _, m := range moments(t)[:6] {
		for _, kind := range simulatedKinds {
			var items []any
			for _, o := range m.store.List(kind) {
				items = append(items, toK8s(t, o))
			}
			raw, _ := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": items, "metadata": map[string]string{"resourceVersion": ""}})
			d := json.NewDecoder(bytes.NewReader(raw))
			d.UseNumber()
			var oursDoc any
			d.Decode(&oursDoc)
			for _, c := range jsonpathTemplates {
				want, werr := clientGoJSONPath(c.tmpl, unstructuredNumbers(oursDoc))
				got, gerr := oursJSONPath(c.tmpl, oursDoc)
				if (werr == nil) != (gerr == nil) || (werr != nil && werr.Error() != gerr.Error()) || (werr == nil && got != want && !c.unordered) {
					t.Errorf("%s at %s, list of %s, %s:\n ours      %q %v\n client-go %q %v", m.lesson, m.at, kind, c.tmpl, got, gerr, want, werr)
				}
				checked++
			}
		}
	}
	if checked < 1000 {
		t.Errorf("only %d template runs: the lessons' worlds are too small to test with", checked)
	}
}

// unstructuredNumbers turns JSON numbers into int64 (or float64), as
// kubectl's unstructured objects hold them.
func unstructuredNumbers(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range t {
			out[k] = unstructuredNumbers(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = unstructuredNumbers(x)
		}
		return out
	case json.Number:
		if n, err := t.Int64(); err == nil {
			return n
		}
		f, _ := t.Float64()
		return f
	}
	return v
}

func clientGoJSONPath(tmpl string, doc any) (string, error) {
	j := jsonpath.New("out").AllowMissingKeys(true)
	if err := j.Parse(tmpl); err != nil {
		return "", err
	}
	var b bytes.Buffer
	err := j.Execute(&b, doc)
	return b.String(), err
}

func oursJSONPath(tmpl string, doc any) (string, error) {
	j, err := kubectl.ParseJSONPath(tmpl)
	if err != nil {
		return "", err
	}
	return j.Execute(doc, false)
}

func sortedWords(s string) string {
	f := strings.Fields(s)
	sort.Strings(f)
	return strings.Join(f, " ")
}
