package session

import (
	"fmt"
	"slices"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/sim"
)

// A Demonstration is one of the three failures the lesson's pseudocode
// comments name, given to both twins. It acts on the Deployment named
// Deployment when the lesson has one (edge-vs-level has one per failure),
// else on the first, with the lesson's own inputs for that failure.
type Demonstration struct {
	// Name names it in the page (data-demo); Button is its button's text;
	// After is the mishap in a question's words ("after the missed
	// events"). Edge and Level are the lesson's pseudocode comments about
	// it, one under each block.
	Name, Button, After, Edge, Level string
	// Deployment is the Deployment it acts on, when the lesson has it.
	Deployment string
	inputs     func(s *sim.Sim, d *api.Deployment) ([]sim.Input, error)
}

// Demonstrations are the three mishaps of the lesson edge-vs-level, with
// its inputs: two pod deletions whose events are lost, two whose events
// arrive twice, a scale-up the controller crashes half-way through.
var Demonstrations = []Demonstration{
	{
		Name:       "missed",
		Button:     "Miss the event",
		After:      "after the missed events",
		Edge:       "# missed the event -> short forever",
		Level:      "# missed a pass -> next pass fixes it",
		Deployment: "cart",
		inputs: func(s *sim.Sim, d *api.Deployment) ([]sim.Input, error) {
			pods, err := runningPods(s, d, 2)
			return faults("drop-watch replicaset-controller 2", "delete-pod "+pods[0], "delete-pod "+pods[1]), err
		},
	},
	{
		Name:       "twice",
		Button:     "Handle it twice",
		After:      "after the events handled twice",
		Edge:       "# handled it twice -> now running seven",
		Level:      "# ran twice -> second pass is a no-op",
		Deployment: "search",
		inputs: func(s *sim.Sim, d *api.Deployment) ([]sim.Input, error) {
			pods, err := runningPods(s, d, 2)
			return faults("duplicate-watch replicaset-controller 2", "delete-pod "+pods[0], "delete-pod "+pods[1]), err
		},
	},
	{
		Name:       "crash",
		Button:     "Crash mid-way",
		After:      "after the crash mid-way",
		Edge:       "# script crashed mid-way -> unknown state",
		Level:      "# crashed mid-way -> next pass sees the real gap",
		Deployment: "checkout",
		inputs: func(s *sim.Sim, d *api.Deployment) ([]sim.Input, error) {
			scale := fmt.Sprintf("scale deployment/%s --replicas=%d", d.Name, api.Deref(d.Spec.Replicas, 1)+2)
			if d.Namespace != "default" {
				scale += " -n " + d.Namespace
			}
			return append(faults("crash replicaset-controller"), sim.Kubectl{Line: scale}), nil
		},
	},
}

// target is the Deployment a Demonstration acts on in s.
func (d Demonstration) target(s *sim.Sim) (*api.Deployment, error) {
	var first *api.Deployment
	for _, o := range s.Store().List("Deployment") {
		dep := o.(*api.Deployment)
		if dep.Name == d.Deployment {
			return dep, nil
		}
		if first == nil {
			first = dep
		}
	}
	if first == nil {
		return nil, fmt.Errorf("%s: the lesson has no Deployment", d.Button)
	}
	return first, nil
}

// runningPods names n running, ready pods of Deployment d (the first by
// name), as delete-pod takes them.
func runningPods(s *sim.Sim, d *api.Deployment, n int) ([]string, error) {
	var out []string
	for _, o := range s.Store().List("Pod") {
		p := o.(*api.Pod)
		if len(out) < n && p.Namespace == d.Namespace && d.Spec.Selector.Matches(p.Labels) && controller.IsPodActive(p) && controller.IsPodReady(p) {
			name := p.Name
			if p.Namespace != "default" {
				name = p.Namespace + "/" + name
			}
			out = append(out, name)
		}
	}
	if len(out) < n {
		return make([]string, n), fmt.Errorf("deployment/%s has %d running pods, %d are needed", d.Name, len(out), n)
	}
	return out, nil
}

// deploymentNames names the Deployments of s, in the store's order.
func deploymentNames(s *sim.Sim) []string {
	var out []string
	for _, o := range s.Store().List("Deployment") {
		out = append(out, o.(*api.Deployment).Name)
	}
	return out
}

// deploymentPods counts, for each Deployment of deps, its active pods and
// the replicas it asks for (0 and 0 for one that is gone).
func deploymentPods(s *sim.Sim, deps []string) (pods, wanted []int) {
	pods, wanted = make([]int, len(deps)), make([]int, len(deps))
	all := s.Store().List("Pod")
	for _, o := range s.Store().List("Deployment") {
		d := o.(*api.Deployment)
		i := slices.Index(deps, d.Name)
		if i < 0 {
			continue
		}
		wanted[i] = int(api.Deref(d.Spec.Replicas, 1))
		for _, po := range all {
			p := po.(*api.Pod)
			if p.Namespace == d.Namespace && controller.IsPodActive(p) && d.Spec.Selector.Matches(p.Labels) {
				pods[i]++
			}
		}
	}
	return pods, wanted
}

// activePods counts the pods that are not being deleted.
func activePods(s *sim.Sim) int {
	n := 0
	for _, o := range s.Store().List("Pod") {
		if controller.IsPodActive(o.(*api.Pod)) {
			n++
		}
	}
	return n
}

// wantedPods is what the Deployments ask for.
func wantedPods(s *sim.Sim) int {
	n := 0
	for _, o := range s.Store().List("Deployment") {
		n += int(api.Deref(o.(*api.Deployment).Spec.Replicas, 1))
	}
	return n
}

// lastReplicaSetPass finds the latest pass of the ReplicaSet controller,
// looking back at most window passes.
func lastReplicaSetPass(s *sim.Sim, window int) (sim.Pass, bool) {
	passes := s.PassesFrom(max(0, s.PassCount()-window))
	for i := len(passes) - 1; i >= 0; i-- {
		if passes[i].Controller == controller.ReplicaSetController {
			return passes[i], true
		}
	}
	return sim.Pass{}, false
}

// controllerCrashed reports whether the ReplicaSet controller of s is down.
func controllerCrashed(s *sim.Sim) string {
	for _, c := range s.Controllers() {
		if c.Name == controller.ReplicaSetController && c.State != "running" {
			return strings.TrimSpace(c.State)
		}
	}
	return ""
}

// faults parses fault lines the program writes itself.
func faults(lines ...string) []sim.Input {
	var out []sim.Input
	for _, l := range lines {
		f, err := sim.ParseFault(l)
		if err != nil {
			panic("a fault line of the program's own: " + err.Error()) // broken invariant
		}
		out = append(out, f)
	}
	return out
}
