package controller

import "testing"

// TestRuntimeCloneApart checks that a runtime's clone changes apart from
// it through each method that changes it, and that the source (a
// checkpoint's) reads as it was.
func TestRuntimeCloneApart(t *testing.T) {
	src := NewRuntime()
	src.SetImage("web:1", "sha256:a")
	src.Add("default/a/c", &Container{PodUID: "a", State: "running"})
	src.Add("default/b/c", &Container{PodUID: "b", State: "running"})

	c := src.Clone()
	if c.Images["web:1"] != "sha256:a" || c.Get("default/a/c") != src.Get("default/a/c") {
		t.Fatal("a clone does not read what its source holds")
	}
	c.Container("default/a/c").State = "exited"
	c.Remove("default/b/c")
	c.Add("default/d/c", &Container{PodUID: "d"})
	c.SetImage("web:2", "sha256:b")

	if got := src.Get("default/a/c").State; got != "running" {
		t.Errorf("source's container changed with its clone's: %s", got)
	}
	if src.Get("default/b/c") == nil || src.Get("default/d/c") != nil || src.Containers.Len() != 2 {
		t.Errorf("source's containers changed with its clone's: %v", src.Containers.Keys())
	}
	if len(src.Images) != 1 {
		t.Errorf("source's images changed with its clone's: %v", src.Images)
	}
	if c.Get("default/a/c").State != "exited" || c.Get("default/b/c") != nil || c.Get("default/d/c") == nil || c.Images["web:2"] != "sha256:b" {
		t.Errorf("the clone lost its own changes: %v %v", c.Containers.Keys(), c.Images)
	}

	// A clone of the clone: a container the clone owns is copied again.
	cc := c.Clone()
	cc.Container("default/a/c").Restarts = 3
	if c.Get("default/a/c").Restarts != 0 {
		t.Error("a clone's clone changed the clone's container")
	}
	// A runtime changes its own container in place.
	own := cc.Container("default/a/c")
	if cc.Container("default/a/c") != own {
		t.Error("a runtime copied a container it owns")
	}
}
