package controller

import "testing"

// Every built-in controller says which process runs it, how prose names
// it, and, for the lesson's pseudocode, blocks whose lines it can light.
func TestEveryBuiltinHasItsFacts(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range Builtin {
		if seen[s.Name] {
			t.Errorf("%s is listed twice", s.Name)
		}
		seen[s.Name] = true
		if s.Runs == 0 {
			t.Errorf("%s: no process runs it (Spec.Runs)", s.Name)
		}
		if s.Display == "" {
			t.Errorf("%s: no display name (Spec.Display)", s.Name)
		}
		if s.Runs.Restarts() == "" {
			t.Errorf("%s: nothing restarts it", s.Name)
		}
		if s.PerNode != (s.Runs == NodeAgent) {
			t.Errorf("%s: PerNode %v but runs in %v", s.Name, s.PerNode, s.Runs.Binary())
		}
		for mode, block := range s.Pseudocode {
			if len(block) == 0 {
				t.Errorf("%s: empty %s pseudocode", s.Name, mode)
			}
		}
	}
}

// What restarts a crashed controller is what restarts its process in a
// real cluster: kube-controller-manager's controllers (the HPA's
// included) come back with the controller-manager, the scheduler as the
// static pod the kubelet runs, a kubelet by systemd.
func TestWhatRestartsACrashedController(t *testing.T) {
	for _, tt := range []struct{ name, binary, restarts string }{
		{ReplicaSetController, "kube-controller-manager", "the controller-manager restarts it"},
		{HPAController, "kube-controller-manager", "the controller-manager restarts it"},
		{NodeIPAMController, "kube-controller-manager", "the controller-manager restarts it"},
		{Scheduler, "kube-scheduler", "the kubelet restarts it, as kube-scheduler runs as a static pod"},
		{Kubelet, "kubelet", "systemd restarts it, as the kubelet runs as a systemd service"},
		{GitOpsController, "", "it is restarted"},
	} {
		s, _ := Lookup(Builtin, tt.name)
		if got := s.Runs.Binary(); got != tt.binary {
			t.Errorf("%s runs in %q, want %q", tt.name, got, tt.binary)
		}
		if got := s.Runs.Restarts(); got != tt.restarts {
			t.Errorf("%s: %q restarts it, want %q", tt.name, got, tt.restarts)
		}
	}
}

// The named lines of the ReplicaSet controllers' blocks are their lines.
func TestPseudocodeLineNames(t *testing.T) {
	if lineDelete != len(LevelLines) || LevelLines[lineDelete-1] != "    delete(observed - desired)" || LevelLines[lineCreate-1] != "    create(desired - observed)" {
		t.Errorf("LevelLines and its line constants disagree")
	}
	if lineStartMore != len(EdgeLines) || EdgeLines[lineCountLost-1] != "  count = pods_lost(node)" {
		t.Errorf("EdgeLines and its line constants disagree")
	}
}
