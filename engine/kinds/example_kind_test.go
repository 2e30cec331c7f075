package kinds_test

// A kind added from outside the engine's own packages: a Gizmo, namespaced,
// with a spec, a status, two printer columns, a describer and a
// convergence check. Its type,
// its entry in the kind registry and its strategy are this one file; in
// the engine they are
// three (api/gizmo.go, a line in api/kinds.go, kinds/gizmo.go), and nothing
// else changes: the store, kubectl, the scenario loader and the
// simulation's convergence check learn it through api.KindOf and kinds.Of.

import (
	"fmt"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/kinds"
	"reconcile/engine/kubectl"
	"reconcile/engine/sim"
	"reconcile/engine/store"
	"reconcile/engine/validation"
)

type Gizmo struct {
	api.TypeMeta   `json:",inline" yaml:",inline"`
	api.ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec           GizmoSpec   `json:"spec" yaml:"spec"`
	Status         GizmoStatus `json:"status" yaml:"status,omitempty"`
}

type GizmoSpec struct {
	Size  int32  `json:"size" yaml:"size"`
	Color string `json:"color,omitempty" yaml:"color,omitempty"`
}

type GizmoStatus struct {
	Painted int32 `json:"painted" yaml:"painted"`
}

func (g *Gizmo) Meta() *api.ObjectMeta      { return &g.ObjectMeta }
func (g *Gizmo) GetTypeMeta() *api.TypeMeta { return &g.TypeMeta }
func (g *Gizmo) DeepCopyObject() api.Object {
	c := *g
	c.ObjectMeta = g.ObjectMeta.DeepCopy()
	return &c
}

func init() {
	api.Register(api.Kind{Name: "Gizmo", Group: "example.reconcile.dev", Version: "v1", Resource: "gizmos", Short: []string{"gz"},
		Namespaced: true, New: func() api.Object { return &Gizmo{} }})
	kinds.Define(kinds.Def[*Gizmo]{
		Kind: "Gizmo",
		Default: func(g *Gizmo) {
			if g.Spec.Color == "" {
				g.Spec.Color = "grey"
			}
		},
		Validate: func(g *Gizmo) validation.ErrorList {
			errs := validation.ValidateObjectMeta(&g.ObjectMeta, "Gizmo")
			if g.Spec.Size < 1 {
				errs = append(errs, validation.Invalid(validation.Path("spec.size"), g.Spec.Size, "must be greater than 0"))
			}
			return errs
		},
		BumpsGeneration: func(old, new *Gizmo) bool { return old.Spec != new.Spec },
		KeepStatus:      func(obj, old *Gizmo) { obj.Status = old.Status },
		KeepSpec:        func(obj, old *Gizmo) { obj.Spec = old.Spec },
		Columns: []kinds.TypedColumn[*Gizmo]{kinds.Name[*Gizmo](),
			{Name: "SIZE", Cell: func(g *Gizmo, _ api.Time) string { return itoa(g.Spec.Size) }},
			{Name: "PAINTED", Cell: func(g *Gizmo, _ api.Time) string { return itoa(g.Status.Painted) }},
			kinds.Age[*Gizmo](),
		},
		// Settled when every gizmo asked for is painted.
		Moving: func(g *Gizmo, _ kinds.Progress) string {
			if g.Status.Painted < g.Spec.Size {
				return fmt.Sprintf("gizmo %s: %d of %d painted", g.Name, g.Status.Painted, g.Spec.Size)
			}
			return ""
		},
		Describe: func(w *kinds.Describer, g *Gizmo) {
			w.Meta(&g.ObjectMeta)
			w.Line(0, "Size:\t%d\n", g.Spec.Size)
			w.Line(0, "Color:\t%s\n", g.Spec.Color)
			w.Line(0, "Painted:\t%d\n", g.Status.Painted)
			w.Events()
		},
	})
}

func itoa(n int32) string { return fmt.Sprint(n) }

func gizmo(name string, size int32) *Gizmo {
	return &Gizmo{TypeMeta: api.TypeMeta{APIVersion: "example.reconcile.dev/v1", Kind: "Gizmo"},
		ObjectMeta: api.ObjectMeta{Name: name}, Spec: GizmoSpec{Size: size}}
}

func TestExampleKind(t *testing.T) {
	st := store.New(1)
	// Defaulting, validation, generation.
	obj, err := st.Create(gizmo("small", 2))
	if err != nil {
		t.Fatal(err)
	}
	g := obj.(*Gizmo)
	if g.Namespace != "default" || g.Spec.Color != "grey" || g.Generation != 1 {
		t.Errorf("created %s/%s color=%s generation=%d, want default/small grey 1", g.Namespace, g.Name, g.Spec.Color, g.Generation)
	}
	if _, err := st.Create(gizmo("none", 0)); err == nil || err.Error() != `The Gizmo "none" is invalid: spec.size: Invalid value: 0: must be greater than 0` {
		t.Errorf("a gizmo of size 0: %v", err)
	}
	// A status write keeps the spec; a spec write keeps the status and
	// bumps the generation.
	w := g.DeepCopyObject().(*Gizmo)
	w.Status.Painted, w.Spec.Size = 1, 9
	obj, err = st.UpdateStatus(w)
	if err != nil {
		t.Fatal(err)
	}
	if g = obj.(*Gizmo); g.Status.Painted != 1 || g.Spec.Size != 2 || g.Generation != 1 {
		t.Errorf("after a status write: painted=%d size=%d generation=%d, want 1 2 1", g.Status.Painted, g.Spec.Size, g.Generation)
	}
	w = g.DeepCopyObject().(*Gizmo)
	w.Status.Painted, w.Spec.Size = 0, 3
	obj, err = st.Update(w)
	if err != nil {
		t.Fatal(err)
	}
	if g = obj.(*Gizmo); g.Status.Painted != 1 || g.Spec.Size != 3 || g.Generation != 2 {
		t.Errorf("after a spec write: painted=%d size=%d generation=%d, want 1 3 2", g.Status.Painted, g.Spec.Size, g.Generation)
	}
	// kubectl: its words, its columns, its updates.
	for _, c := range []struct{ line, want string }{
		{"get gizmos", "NAME    SIZE   PAINTED   AGE\nsmall   3      1         90s\n"},
		{"get gz small -o name", "gizmo.example.reconcile.dev/small\n"},
		{`patch gizmo small --type=merge -p '{"spec":{"size":0}}'`, "The Gizmo \"small\" is invalid: spec.size: Invalid value: 0: must be greater than 0\n"},
		{`patch gizmo small --type=merge -p '{"spec":{"size":4}}'`, "gizmo.example.reconcile.dev/small patched\n"},
		{"get gizmo.example.reconcile.dev", "NAME    SIZE   PAINTED   AGE\nsmall   4      1         90s\n"},
		{"describe gizmo small", "Name:         small\nNamespace:    default\nLabels:       <none>\nAnnotations:  <none>\n" +
			"Size:         4\nColor:        grey\nPainted:      1\nEvents:       <none>\n"},
	} {
		if got, _ := kubectl.Run(st, 90*api.Second, c.line); got != c.want {
			t.Errorf("kubectl %s:\n%s\nwant\n%s", c.line, got, c.want)
		}
	}
	if g := st.Get("Gizmo", "default", "small").(*Gizmo); g.Generation != 3 {
		t.Errorf("generation after kubectl patch: %d, want 3", g.Generation)
	}
}

// TestExampleKindConverges: the simulation's convergence check reads a
// gizmo through its entry's Moving, with no change to the simulation.
func TestExampleKindConverges(t *testing.T) {
	g := gizmo("small", 3)
	g.Namespace = "default"
	s, err := sim.New(sim.Config{Seed: 1, Until: api.Minute, Nodes: []sim.Node{{Name: "node-1", CPU: "4", Memory: "8Gi"}},
		Objects: []sim.Object{{Object: g}}})
	if err != nil {
		t.Fatal(err)
	}
	s.RunUntil(api.Minute, 0)
	if ok, why := s.Converged(); ok || why != "gizmo small: 0 of 3 painted" {
		t.Errorf("converged %v, %q; want false, \"gizmo small: 0 of 3 painted\"", ok, why)
	}
}
