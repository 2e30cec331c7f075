package kinds

import (
	"testing"

	"reconcile/engine/api"
)

// An autoscaler whose maxReplicas is below its minReplicas is refused, in
// the API server's words.
func TestHPABoundsRefused(t *testing.T) {
	h := &api.HorizontalPodAutoscaler{TypeMeta: api.TypeMeta{APIVersion: "autoscaling/v2", Kind: "HorizontalPodAutoscaler"},
		ObjectMeta: api.ObjectMeta{Name: "web"},
		Spec: api.HPASpec{ScaleTargetRef: api.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web"},
			MinReplicas: api.Int32(5), MaxReplicas: 2}}
	if got, want := createError(h), "The HorizontalPodAutoscaler \"web\" is invalid: spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`"; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	h.Spec.MaxReplicas = 5
	if got := createError(h); got != "" {
		t.Errorf("a valid autoscaler is refused: %s", got)
	}
	if h.Spec.Metrics[0].Resource.Target.AverageUtilization == nil {
		t.Errorf("Default gave no cpu target: %+v", h.Spec.Metrics)
	}
}
