package kubectl

import (
	"strings"
	"testing"

	"reconcile/engine/limits"
)

// A patch's payload written in YAML is held to the same depth as one in
// JSON, whichever way it nests: compact lists, flow lists behind a quote
// JSON would read as a string, or block mappings.
func TestPatchYAMLDepth(t *testing.T) {
	for name, payload := range map[string]string{
		"compact": strings.Repeat("- ", 1500) + "x",
		"flow":    "['\"', " + strings.Repeat("[", 1500) + strings.Repeat("]", 1500) + "]",
		"shallow": strings.Repeat("- ", limits.MaxDepth+5) + "x",
	} {
		_, err := parsePatchPayload(payload)
		if err == nil || !strings.Contains(err.Error(), "nested too deeply") {
			t.Errorf("%s: err = %v, want the depth refusal", name, err)
		}
	}
	if _, err := parsePatchPayload("spec: {replicas: 3}"); err != nil {
		t.Errorf("a shallow patch: %v", err)
	}
}
