package sim

import (
	"strings"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/registry"
)

// quietConfig is a Deployment of n pods of image ref on the default nodes.
func quietConfig(n int32, images ...registry.Image) Config {
	labels := map[string]string{"app": "web"}
	return Config{Seed: 1, Until: 24 * api.Hour, Images: images,
		Objects: []Object{{Object: &api.Deployment{
			TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
			ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
			Spec: api.DeploymentSpec{Replicas: api.Int32(n), Selector: &api.LabelSelector{MatchLabels: labels},
				Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels},
					Spec: api.PodSpec{Containers: []api.Container{{Name: "web", Image: "shop/web:1.0"}}}}},
		}}}}
}

// probed gives the pod template a readiness probe: a container without one
// is ready once it runs.
func probed(cfg Config) Config {
	d := cfg.Objects[0].Object.(*api.Deployment)
	d.Spec.Template.Spec.Containers[0].ReadinessProbe = &api.Probe{HTTPGet: map[string]any{"path": "/", "port": 80}}
	return cfg
}

// TestRunStopsWhenQuiet: a bounded run stops at the moment nothing would
// change the world: converged; or not converged with nothing left that
// would act (pods that cannot be scheduled, a pod never ready); a
// crash-looping pod keeps the world moving until a bound stops it.
func TestRunStopsWhenQuiet(t *testing.T) {
	tests := []struct {
		name      string
		cfg       Config
		reason    StopReason
		converged bool
		text      string
	}{
		{"converged", quietConfig(3), StopQuiet, true, "converged at t="},
		{"no room", quietConfig(400), StopQuiet, false, "70 pods are Pending"},
		{"never ready", probed(quietConfig(2, registry.Image{Ref: "shop/web:1.0", Pull: api.Second, Start: api.Second, Ready: false, Healthy: true})), StopQuiet, false, "2 pods are not ready (Running)"},
		{"crash loop", quietConfig(1, registry.Image{Ref: "shop/web:1.0", Pull: api.Second, Start: api.Second, Ready: true, Healthy: true, Crash: true}), StopPasses, false, "the pass bound is reached"},
	}
	for _, tt := range tests {
		s, err := New(tt.cfg)
		if err != nil {
			t.Fatal(err)
		}
		bound := 5000
		if tt.reason == StopPasses {
			bound = 400
		}
		st := s.Run(Bounds{Until: 24 * api.Hour, Quiet: true, MaxPasses: bound})
		if st.Reason != tt.reason || st.Converged != tt.converged || !strings.Contains(st.Text, tt.text) {
			t.Errorf("%s: stopped %+v", tt.name, st)
			continue
		}
		quiet, why := s.Quiet()
		if quiet != (tt.reason == StopQuiet) || quiet != (why == "") {
			t.Errorf("%s: Quiet() = %v, %q at the stop", tt.name, quiet, why)
		}
		if st.Reason != StopQuiet {
			continue
		}
		// Going on changes no object: what Quiet promised.
		objects := len(s.Objects())
		before := s.PassCount()
		s.RunUntil(st.At+api.Hour, 0)
		changed := 0
		for _, p := range s.PassesFrom(before) {
			changed += len(p.Changed)
			for _, c := range p.Changed {
				t.Logf("%s: pass %d %s %s at %s changed %v; trigger %s", tt.name, p.N, p.Controller, p.Key, p.AtText, c, p.Trigger)
			}
		}
		if changed != 0 || len(s.Objects()) != objects {
			t.Errorf("%s: quiet at t=%s, yet the hour after it changed %d objects", tt.name, st.AtText, changed)
		}
	}
}
