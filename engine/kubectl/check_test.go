package kubectl

import "testing"

func TestCheck(t *testing.T) {
	for _, ok := range []string{"get pods", "set image deployment/web web=shop/web:2.0", "rollout undo deployment/web",
		`patch deployment web -p '{"spec":{"replicas":3}}'`, "drain worker-1 --ignore-daemonsets", "scale deployment/web --replicas=5"} {
		if err := Check(ok); err != nil {
			t.Errorf("Check(%q): %v", ok, err)
		}
	}
	for line, want := range map[string]string{
		"   ":              `empty command: want a kubectl command such as "get pods"`,
		"kubectl get pods": `write the command without "kubectl": "get pods"`,
		"logs web-1":       "unknown kubectl command \"logs\": want one of apply, create, delete, scale, set, patch, label, annotate, cordon, uncordon, drain, rollout, get, describe",
		"rollout":          "kubectl rollout needs a subcommand: one of status, undo, pause, resume, history, restart",
		"set --image=x":    "kubectl set needs a subcommand, e.g. set image deployment/web web=shop/web:2.0",
	} {
		if err := Check(line); err == nil || err.Error() != want {
			t.Errorf("Check(%q): got %v\nwant %s", line, err, want)
		}
	}
}
