package informer

import (
	"fmt"
	"slices"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/store"
)

func pod(name, node, owner string) *api.Pod {
	p := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}}
	p.Name, p.Namespace, p.Spec.NodeName = name, "default", node
	if owner != "" {
		p.OwnerReferences = []api.OwnerReference{{Kind: "ReplicaSet", Name: owner, UID: "uid-" + owner, Controller: true}}
	}
	return p
}

func names[T api.Object](objs []T) []string {
	out := []string{}
	for _, o := range objs {
		out = append(out, o.Meta().Name)
	}
	return out
}

// scan answers Owned and PodsOnNode by reading every cached pod: what
// the indexes must answer.
func scan(c *Cache, owner, node string) (owned, onNode []string) {
	owned, onNode = []string{}, []string{}
	for _, o := range c.List("Pod") {
		p := o.(*api.Pod)
		if ref := p.ControllerOf(); ref != nil && ref.UID == "uid-"+owner {
			owned = append(owned, p.Name)
		}
		if p.Spec.NodeName == node {
			onNode = append(onNode, p.Name)
		}
	}
	return owned, onNode
}

func check(t *testing.T, what string, c *Cache) {
	t.Helper()
	for _, owner := range []string{"a", "b", "c"} {
		for _, node := range []string{"n1", "n2"} {
			wantOwned, wantOn := scan(c, owner, node)
			if got := names(c.Owned("Pod", "uid-"+owner)); !slices.Equal(got, wantOwned) {
				t.Errorf("%s: Owned(%s) = %v, want %v", what, owner, got, wantOwned)
			}
			if got := names(c.PodsOnNode(node)); !slices.Equal(got, wantOn) {
				t.Errorf("%s: PodsOnNode(%s) = %v, want %v", what, node, got, wantOn)
			}
		}
	}
}

// change moves pods between owners and nodes, deletes some and adds
// some, step by step.
func change(c *Cache, step int) {
	owners := []string{"a", "b", "", "c"}
	nodes := []string{"n1", "", "n2"}
	for i := range 12 {
		name := fmt.Sprintf("p%02d", i)
		switch (i + step) % 5 {
		case 0:
			if old := c.Get("Pod", "default/"+name); old != nil {
				c.Apply(store.WatchEvent{Type: store.Deleted, Object: old})
			}
		default:
			c.Apply(store.WatchEvent{Type: store.Modified, Object: pod(name, nodes[(i+step)%3], owners[(i*step)%4])})
		}
	}
}

// TestIndexesBuiltOnUse checks that the owner and node indexes, built on
// their first use and kept after, answer what a scan of the cached pods
// answers: used before any change, after changes, and in clones that
// change apart from their source.
func TestIndexesBuiltOnUse(t *testing.T) {
	c := NewCache()
	change(c, 1)
	if c.idx != nil {
		t.Fatal("indexes built before any use")
	}
	check(t, "first use", c)
	if c.idx == nil || !c.idx.hasOwned || !c.idx.hasOnNode {
		t.Fatal("indexes not kept after their first use")
	}
	never := c.Clone()
	for step := 2; step < 7; step++ {
		change(c, step)
		check(t, fmt.Sprintf("step %d", step), c)
	}
	// A clone made before those changes still answers for its own pods.
	check(t, "clone of step 1", never)

	// A cache cloned before any use builds its own, apart from its source.
	d := NewCache()
	change(d, 3)
	e := d.Clone()
	change(e, 4)
	check(t, "clone, built", e)
	change(d, 5)
	check(t, "source, built after its clone", d)
	check(t, "clone again", e)
}
