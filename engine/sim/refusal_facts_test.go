package sim

import (
	"slices"
	"testing"
)

// TestRefusalFacts: a command's and an apply's refusals come with typed
// facts beside their words, for the UI to read without parsing them:
// kubectl's MaxReplicas refusal (Output.Limit) and the objects an apply's
// API server refused (Output.Refused, by place in the applied text).
func TestRefusalFacts(t *testing.T) {
	s := churnWorld(t, 1, 1)
	out, err := s.Inject(Kubectl{Line: "scale deployment/web --replicas=20000"})
	if err != nil {
		t.Fatal(err)
	}
	if out.ExitCode != 1 || out.Limit == nil || out.Limit.Replicas != 20000 || "error: "+out.Limit.Plain()+"\n" != out.Output {
		t.Errorf("scale past MaxReplicas: exit %d, limit %+v, output %q", out.ExitCode, out.Limit, out.Output)
	}
	if out, _ := s.Inject(Kubectl{Line: "scale deployment/web --replicas=2"}); out.Limit != nil {
		t.Errorf("a scale within the bound carries a limit refusal: %+v", out.Limit)
	}
	out, err = s.Inject(Apply{Manifests: `apiVersion: v1
kind: Namespace
metadata:
  name: fine
---
apiVersion: v1
kind: Namespace
metadata:
  name: Not_A_Name
`})
	if err != nil {
		t.Fatal(err)
	}
	if out.ExitCode != 1 || !slices.Equal(out.Refused, []int{1}) {
		t.Errorf("apply with its second object refused: exit %d, refused %v, output %q", out.ExitCode, out.Refused, out.Output)
	}
}
