package sim

import (
	"reconcile/engine/api"
	"reconcile/engine/scenario"
)

func deployment(name string, replicas int32, image string) *api.Deployment {
	labels := map[string]string{"app": name}
	return &api.Deployment{
		TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: labels},
		Spec: api.DeploymentSpec{
			Replicas: api.Int32(replicas), Selector: &api.LabelSelector{MatchLabels: labels},
			Strategy:                api.DeploymentStrategy{Type: "RollingUpdate"},
			ProgressDeadlineSeconds: api.Int32(600), RevisionHistoryLimit: api.Int32(10),
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec: api.PodSpec{Containers: []api.Container{{Name: name, Image: image, ImagePullPolicy: "IfNotPresent",
					Resources: api.ResourceRequirements{Requests: map[string]api.Quantity{"cpu": "100m", "memory": "64Mi"}}}}}},
		},
	}
}

func simpleScenario(objs ...api.Object) *scenario.Scenario {
	sc := &scenario.Scenario{File: "test.yaml", ID: "test", Seed: 1}
	for _, o := range objs {
		sc.Manifests = append(sc.Manifests, scenario.Manifest{Pos: scenario.Pos{File: "test.yaml", Line: 1}, Object: o})
	}
	return sc
}
