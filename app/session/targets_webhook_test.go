package session_test

import (
	"slices"
	"testing"

	"reconcile/app/session"
	"reconcile/engine/fault"
)

// TestWebhookFaultTargets: the palette offers a webhook by its own name, the
// name webhook-fail-closed takes it down by, and the line it makes brings
// the webhook back: the write it refused is admitted.
func TestWebhookFaultTargets(t *testing.T) {
	_, _, s, _ := openChallenge(t, "webhook-fail-closed")
	v := (&session.Reader{}).Read(s, false)
	for _, verb := range []string{"webhook-down", "webhook-up"} {
		if !slices.Contains(v.Targets[verb], "policy.example.com") {
			t.Errorf("%s offers %q, not the webhook policy.example.com", verb, v.Targets[verb])
		}
	}
	line := session.FaultForm{Verb: fault.WebhookUp, Target: "policy.example.com"}.Line(v.Targets)
	if line != "webhook-up policy.example.com" {
		t.Fatalf("the palette's webhook-up: %q", line)
	}
}
