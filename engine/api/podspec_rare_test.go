package api

import (
	"reflect"
	"testing"
)

// TestRareFieldsOutOfLine checks the pointer that holds a pod's rare
// fields: nil-safe reads, writes that make it, defaulting's NormalizeRare
// dropping an empty one, and the reflection that decoders and expect
// paths use reaching through it.
func TestRareFieldsOutOfLine(t *testing.T) {
	var s PodSpec
	s.Containers = []Container{{Name: "a"}}
	if len(s.More().InitContainers) != 0 || s.Containers[0].More().StartupProbe != nil || s.Containers[0].IsSidecar() {
		t.Fatal("a spec without rare fields reads them as set")
	}
	s.SetMore().DNSPolicy = ""
	s.Containers[0].SetMore().WorkingDir = ""
	s.NormalizeRare()
	if s.PodSpecMore != nil || s.Containers[0].ContainerMore != nil {
		t.Fatal("NormalizeRare kept empty rare fields")
	}
	s.SetMore().SchedulingGates = []PodSchedulingGate{{Name: "g"}}
	s.NormalizeRare()
	if s.PodSpecMore == nil || len(s.More().SchedulingGates) != 1 {
		t.Fatal("NormalizeRare dropped a set field")
	}

	for _, tag := range []string{"json", "yaml"} {
		fields, _ := TaggedFields(reflect.TypeOf(PodSpec{}), tag)
		f, ok := fields["initContainers"]
		if !ok {
			t.Fatalf("%s: TaggedFields does not reach initContainers", tag)
		}
		var empty PodSpec
		if v := FieldByIndex(reflect.ValueOf(&empty).Elem(), f.Index, false); !v.IsZero() || empty.PodSpecMore != nil {
			t.Fatalf("%s: reading initContainers of a spec without rare fields: %v", tag, v)
		}
		v := FieldByIndex(reflect.ValueOf(&empty).Elem(), f.Index, true)
		v.Set(reflect.ValueOf([]Container{{Name: "init"}}))
		if len(empty.More().InitContainers) != 1 {
			t.Fatalf("%s: writing initContainers through FieldByIndex did not reach the spec", tag)
		}
	}
}
