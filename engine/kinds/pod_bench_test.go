package kinds

import "testing"

// BenchmarkValidatePodCreate validates a defaulted pod of one container
// (with the two default tolerations), as a ReplicaSet creates thousands.
func BenchmarkValidatePodCreate(b *testing.B) {
	p := pod()
	Default(p)
	if len(p.Spec.Tolerations) == 0 {
		b.Fatal("the defaulted pod has no tolerations")
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := ValidateCreate(p); err != nil {
			b.Fatal(err)
		}
	}
}
