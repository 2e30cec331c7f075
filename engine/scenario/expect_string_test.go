package scenario

import "testing"

// TestExpectEventString: an event expectation in words, each way of
// bounding the count; check's failures and the lesson's evidence both say it.
func TestExpectEventString(t *testing.T) {
	for _, c := range []struct {
		e    ExpectEvent
		want string
	}{
		{ExpectEvent{Reason: "BackOff", Min: 1, Max: -1}, "event reason BackOff, at least 1"},
		{ExpectEvent{Reason: "ScalingReplicaSet", Object: "deployment/web", Message: "Scaled down", Min: 1, Max: 1},
			`event reason ScalingReplicaSet, on deployment/web, message containing "Scaled down", exactly 1`},
		{ExpectEvent{Object: "pod/web-*", Min: 0, Max: 0}, "event on pod/web-*, exactly 0"},
		{ExpectEvent{Reason: "Killing", Min: 0, Max: 3}, "event reason Killing, at most 3"},
		{ExpectEvent{Reason: "Killing", Min: 2, Max: 4}, "event reason Killing, 2 to 4"},
	} {
		if got := c.e.String(); got != c.want {
			t.Errorf("%+v.String() = %q, want %q", c.e, got, c.want)
		}
	}
}
