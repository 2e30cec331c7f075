package scenario_test

import (
	"fmt"

	"reconcile/engine/scenario"
)

func ExampleLoad() {
	file := `id: scale-up
title: Scale up
manifests: |
  apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: web
  spec:
    replicas: 2
    selector:
      matchLabels: {app: web}
    template:
      metadata:
        labels: {app: web}
      spec:
        containers:
        - name: web
          image: shop/web:1.0
steps:
- {at: 30s, kubectl: "scale deployment/web --replicas=5"}
expect:
- {at: 2m, that: "deployment/web status.availableReplicas == 5"}
`
	sc, err := scenario.Load("scale-up.yaml", []byte(file))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sc.ID, "on", len(sc.Cluster.Nodes), "nodes")
	for _, m := range sc.Manifests {
		fmt.Println(m.Pos, m.Object.GetTypeMeta().Kind, m.Object.Meta().Name)
	}
	for _, s := range sc.Steps {
		fmt.Println(s.Pos, "at", s.At, s.Input.Text())
	}
	for _, e := range sc.Expect {
		fmt.Println(e.Pos, "at", e.At, "that", e.Assertion.Kind, e.Assertion.Name, e.Assertion.Path, e.Assertion.Op, e.Assertion.Value.Text)
	}

	_, err = scenario.Load("scale-up.yaml", []byte("id: scale-up\nsteps:\n- {at: 3x, kubectl: \"scale deployment/web --replicas=5\"}\n"))
	fmt.Println(err)
	// Output:
	// scale-up on 3 nodes
	// scale-up.yaml:4:3 Deployment web
	// scale-up.yaml:20:3 at 30s kubectl scale deployment/web --replicas=5
	// scale-up.yaml:22:3 at 2m0s that Deployment web status.availableReplicas == 5
	// scale-up.yaml:3:8: steps[0].at: invalid duration "3x": want a number of seconds or a Go duration such as 30s, 2m, 1h30m
}
