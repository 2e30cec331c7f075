package informer

import (
	"fmt"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/store"
)

// BenchmarkApply folds status updates of the pods of a 10,000-pod cache
// into it, as the watch of scale-10000 does: the cost of a delivery.
func BenchmarkApply(b *testing.B) {
	c := NewCache()
	var pods []*api.Pod
	for i := range 10000 {
		p := pod(fmt.Sprintf("web-7d9c8b6f4-%05d", i), fmt.Sprintf("node-%04d", i%1000), "web-7d9c8b6f4")
		pods = append(pods, p)
		c.Apply(store.WatchEvent{Type: store.Added, Object: p})
	}
	c.Owned("Pod", "uid-web-7d9c8b6f4") // the index built, as the ReplicaSet controller builds it
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		p := pods[(i*7919)%len(pods)]
		c.Apply(store.WatchEvent{Type: store.Modified, Object: p, Old: p})
		if c.Replaced() != p {
			b.Fatal("the replaced version is not the pod's")
		}
		i++
	}
}
