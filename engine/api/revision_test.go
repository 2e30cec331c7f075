package api

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestControllerRevisionCopyIsWholeAndIndependent fills every field of a
// ControllerRevision (its data's template down to the pod's rare fields)
// and checks its deep copy: equal, and sharing nothing with the original.
func TestControllerRevisionCopyIsWholeAndIndependent(t *testing.T) {
	orig := &ControllerRevision{}
	fill(reflect.ValueOf(orig).Elem(), 0)
	cp := orig.DeepCopy()
	if !reflect.DeepEqual(orig, cp) {
		t.Fatalf("the copy differs from the original:\n%+v\n%+v", orig, cp)
	}
	if p := shared(reflect.ValueOf(orig), reflect.ValueOf(cp), "ControllerRevision"); p != "" {
		t.Fatalf("the copy shares %s with the original", p)
	}
}

// TestRevisionDataJSON checks the data's JSON: "$patch" first, the
// template's metadata without a creationTimestamp, and read back whole.
func TestRevisionDataJSON(t *testing.T) {
	tmpl := PodTemplateSpec{ObjectMeta: ObjectMeta{Labels: map[string]string{"app": "agent"}, Annotations: map[string]string{"team": "a"}},
		Spec: PodSpec{Containers: []Container{{Name: "agent", Image: "agent:v1"}}}}
	d := RevisionOf(&tmpl)
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	const head = `{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"app":"agent"},"annotations":{"team":"a"}},"spec":{"containers":[{"name":"agent","image":"agent:v1"`
	if !strings.HasPrefix(string(b), head) {
		t.Fatalf("data renders as\n%s\nwant it to start\n%s", b, head)
	}
	var back RevisionData
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Spec.Template.Patch != "replace" || !reflect.DeepEqual(*back.Template(), tmpl) {
		t.Fatalf("read back as %+v", back.Spec.Template)
	}
	tmpl.Labels["app"] = "changed"
	if d.Template().Labels["app"] != "agent" {
		t.Fatal("RevisionOf shares the template's labels")
	}
	var empty RevisionData
	if empty.Template() != nil {
		t.Fatal("empty data has a template")
	}
}
