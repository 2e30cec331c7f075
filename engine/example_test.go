package engine_test

import (
	"fmt"

	"reconcile/engine/api"
	"reconcile/engine/sim"
)

func web(replicas int32) *api.Deployment {
	labels := map[string]string{"app": "web"}
	return &api.Deployment{
		TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.DeploymentSpec{Replicas: api.Int32(replicas), Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "web", Image: "shop/web:1.0"}}}}},
	}
}

// A run is stepped pass by pass; each pass says what was desired, what was
// observed, and what the difference made the controller do.
func Example() {
	s, err := sim.New(sim.Config{Seed: 1, Objects: []sim.Object{{Object: web(3)}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := 0; i < 3; i++ {
		p, _ := s.Next()
		fmt.Printf("%s: desired %s · observed %s → %s\n", p.Controller, p.Desired, p.Observed, sim.SummarizeActions(p))
	}
	// Output:
	// deployment-controller: desired 3 replicas of template 747747988b (generation 1) · observed no ReplicaSet for the current template → create ReplicaSet web-747747988b with 3 replicas
	// deployment-controller: desired 3 replicas of template 747747988b (generation 1) · observed new web-747747988b 0/3 available → nothing to do
	// replicaset-controller: desired spec.replicas = 3 · observed 0 active pods → create 3 pods
}

// Seek steps back: the run is restored from a checkpoint and replayed, so
// the world after pass 2 is the same however it was reached.
func Example_seek() {
	s, _ := sim.New(sim.Config{Seed: 1, Objects: []sim.Object{{Object: web(3)}}})
	s.Next()
	s.Next()
	at2 := s.Digest()
	for i := 0; i < 10; i++ {
		s.Next()
	}
	s.Seek(2)
	fmt.Println(s.PassCount(), s.Digest() == at2)
	// Output: 2 true
}
