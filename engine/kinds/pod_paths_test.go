package kinds

import (
	"strings"
	"testing"

	"reconcile/engine/api"
)

// TestPodErrorPaths: the fields whose paths validatePodSpec builds only
// once they are found wrong still name their full path.
func TestPodErrorPaths(t *testing.T) {
	neg := int64(-1)
	secs := int64(5)
	tests := []struct {
		name   string
		change func(p *api.Pod)
		want   string
	}{
		{"toleration operator", func(p *api.Pod) {
			p.Spec.Tolerations = append(p.Spec.Tolerations, api.Toleration{Key: "k", Operator: "Maybe"})
		}, "spec.tolerations[2].operator: Unsupported value"},
		{"toleration key", func(p *api.Pod) {
			p.Spec.Tolerations = append([]api.Toleration{{Key: "-k", Operator: "Exists"}}, p.Spec.Tolerations...)
		}, "spec.tolerations[0].key: Invalid value"},
		{"toleration effect", func(p *api.Pod) {
			p.Spec.Tolerations = append(p.Spec.Tolerations, api.Toleration{Key: "k", Operator: "Exists", Effect: "Sometimes"})
		}, "spec.tolerations[2].effect: Unsupported value"},
		{"toleration seconds", func(p *api.Pod) {
			p.Spec.Tolerations = append(p.Spec.Tolerations, api.Toleration{Key: "k", Operator: "Exists", Effect: "NoSchedule", TolerationSeconds: &secs})
		}, "spec.tolerations[2].effect: Invalid value"},
		{"grace period", func(p *api.Pod) { p.Spec.TerminationGracePeriodSeconds = &neg }, "spec.terminationGracePeriodSeconds: Invalid value"},
		{"node selector", func(p *api.Pod) { p.Spec.NodeSelector = map[string]string{"-x": "y"} }, "spec.nodeSelector: Invalid value"},
		{"probe", func(p *api.Pod) { p.Spec.Containers[0].ReadinessProbe = &api.Probe{} }, "spec.containers[0].readinessProbe: Required value"},
		{"pull policy", func(p *api.Pod) { p.Spec.Containers[0].ImagePullPolicy = "Sometimes" }, "spec.containers[0].imagePullPolicy: Unsupported value"},
		{"port", func(p *api.Pod) { p.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 0}} }, "spec.containers[0].ports[0].containerPort: Required value"},
	}
	for _, tt := range tests {
		p := pod()
		Default(p)
		tt.change(p)
		err := ValidateCreate(p)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error with %q", tt.name, err, tt.want)
		}
	}
}
