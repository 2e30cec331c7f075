package kinds

import (
	"strings"
	"testing"

	"reconcile/engine/api"
)

func TestValidatePodSpecMore(t *testing.T) {
	str := func(s string) *string { return &s }
	pod := func(mutate func(s *api.PodSpec)) *api.Pod {
		p := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}, ObjectMeta: api.ObjectMeta{Name: "p"},
			Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: "shop/app:1.0"}}}}
		mutate(&p.Spec)
		return p
	}
	sel := &api.LabelSelector{MatchLabels: map[string]string{"app": "a"}}
	tests := []struct {
		name string
		pod  *api.Pod
		want string
	}{
		{"valid", pod(func(s *api.PodSpec) {
			s.SetMore().Volumes = []api.Volume{{Name: "c", EmptyDir: &api.EmptyDirVolumeSource{}}}
			s.Containers[0].SetMore().VolumeMounts = []api.VolumeMount{{Name: "c", MountPath: "/c"}}
			s.Containers[0].SetMore().StartupProbe = &api.Probe{ProbeMore: api.ProbeMore{GRPC: &api.GRPCAction{Port: 9090}}}
			s.SetMore().InitContainers = []api.Container{{Name: "init", Image: "busybox"}}
			s.SetMore().SchedulingGates = []api.PodSchedulingGate{{Name: "example.com/g"}}
			s.SetMore().TopologySpreadConstraints = []api.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: "DoNotSchedule", LabelSelector: sel}}
		}), ""},
		{"spread", pod(func(s *api.PodSpec) {
			s.SetMore().TopologySpreadConstraints = []api.TopologySpreadConstraint{{MaxSkew: 0, WhenUnsatisfiable: "Never"}}
		}), "The Pod \"p\" is invalid: \n" +
			"* spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero\n" +
			"* spec.topologySpreadConstraints[0].topologyKey: Required value: can not be empty\n" +
			`* spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "Never": supported values: "DoNotSchedule", "ScheduleAnyway"`},
		{"affinity", pod(func(s *api.PodSpec) {
			s.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAffinity{
				RequiredDuringSchedulingIgnoredDuringExecution:  []api.PodAffinityTerm{{LabelSelector: sel}},
				PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{Weight: 0, PodAffinityTerm: api.PodAffinityTerm{TopologyKey: "zone"}}},
			}}
		}), "The Pod \"p\" is invalid: \n" +
			"* spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: can not be empty\n" +
			"* spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100"},
		{"init container probe", pod(func(s *api.PodSpec) {
			s.SetMore().InitContainers = []api.Container{{Name: "app", Image: "busybox", ReadinessProbe: &api.Probe{Exec: map[string]any{"command": []any{"true"}}}}}
		}), "The Pod \"p\" is invalid: \n" +
			"* spec.initContainers[0].name: Duplicate value: \"app\"\n" +
			"* spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always"},
		{"sidecar may have probes", pod(func(s *api.PodSpec) {
			s.SetMore().InitContainers = []api.Container{{Name: "proxy", Image: "envoy", ContainerMore: &api.ContainerMore{RestartPolicy: str("Always")},
				ReadinessProbe: &api.Probe{TCPSocket: map[string]any{"port": int64(9901)}}}}
		}), ""},
		{"gates", pod(func(s *api.PodSpec) {
			s.SetMore().SchedulingGates = []api.PodSchedulingGate{{Name: "g"}, {Name: "g"}}
		}), `The Pod "p" is invalid: spec.schedulingGates[1].name: Duplicate value: "g"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := createError(tt.pod); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestSchedulingGatesMayOnlyBeRemoved(t *testing.T) {
	old := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}, ObjectMeta: api.ObjectMeta{Name: "p"},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: "shop/app:1.0"}}}}
	old.Spec.SetMore().SchedulingGates = []api.PodSchedulingGate{{Name: "a"}, {Name: "b"}}
	Default(old)
	removed := old.DeepCopy()
	removed.Spec.SetMore().SchedulingGates = removed.Spec.More().SchedulingGates[:1]
	if err := ValidateUpdate(old, removed); err != nil {
		t.Errorf("removing a gate: %v", err)
	}
	if removed.Spec.More().SchedulingGates[0] != old.Spec.More().SchedulingGates[0] || len(old.Spec.More().SchedulingGates) != 2 {
		t.Errorf("DeepCopy shares the gates: %v %v", old.Spec.More().SchedulingGates, removed.Spec.More().SchedulingGates)
	}
	added := old.DeepCopy()
	added.Spec.SetMore().SchedulingGates = append(added.Spec.More().SchedulingGates, api.PodSchedulingGate{Name: "c"})
	if err := ValidateUpdate(old, added); err == nil || !strings.Contains(err.Error(), "only deletion is allowed, but found new scheduling gate 'c'") {
		t.Errorf("adding a gate: %v", err)
	}
}

func TestJobSpecMore(t *testing.T) {
	mode := "Indexed"
	j := &api.Job{TypeMeta: api.TypeMeta{APIVersion: "batch/v1", Kind: "Job"}, ObjectMeta: api.ObjectMeta{Name: "j"},
		Spec: api.JobSpec{Template: api.PodTemplateSpec{Spec: api.PodSpec{RestartPolicy: "OnFailure",
			Containers: []api.Container{{Name: "j", Image: "busybox"}}}}}}
	j.Spec.CompletionMode = &mode
	j.Spec.PodFailurePolicy = &api.PodFailurePolicy{Rules: []api.PodFailurePolicyRule{{Action: "Retry"}}}
	want := "The Job \"j\" is invalid: \n" +
		"* spec.podFailurePolicy.rules[0].action: Unsupported value: \"Retry\": supported values: \"Count\", \"FailIndex\", \"FailJob\", \"Ignore\"\n" +
		"* spec.podFailurePolicy.rules[0]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required\n" +
		`* spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified`
	if got := createError(j); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
