package session

import (
	"testing"

	"reconcile/engine/controller"
)

// A container the kernel killed for its memory says so: the exit code
// alone (137) reads the same as a kill by the kubelet.
func TestExitSaysOOMKilled(t *testing.T) {
	for _, c := range []struct {
		a    controller.Action
		want string
	}{
		{controller.Action{Verb: controller.Exited, Container: "app", Code: 137, Detail: "OOMKilled"}, "saw container app exit with code 137 (OOMKilled)"},
		{controller.Action{Verb: controller.Exited, Container: "app", Code: 1}, "saw container app exit with code 1"},
	} {
		if got := past(c.a, ""); got != c.want {
			t.Errorf("past(%+v) = %q, want %q", c.a, got, c.want)
		}
	}
}
