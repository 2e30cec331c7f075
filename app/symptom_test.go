package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/engine/controller"
	"reconcile/scenarios"
)

// TestSymptomShowsTheOpenGap: at stuck-rollout's symptom the stage
// describes the deployment-controller's pass that turned Progressing
// False, not the kubelet's quiet pass before the symptom's moment, and says
// where the world is; the next pass shows itself again.
func TestSymptomShowsTheOpenGap(t *testing.T) {
	sc, err := scenarios.Load("stuck-rollout")
	if err != nil {
		t.Fatal(err)
	}
	p := playerOf(t, sc)
	p.host = p // as OnInit makes it
	var ctx app.Context
	p.playToSymptom(ctx, false)
	if !p.atSymptom {
		t.Fatalf("not at the symptom: %q", p.alert)
	}
	c := p.view.Current
	if c == nil || c.Controller != "deployment-controller" || c.Result != controller.Acted {
		t.Fatalf("at the symptom the stage shows %+v, want the deployment-controller's pass", c)
	}
	if c.N == p.view.N {
		t.Fatalf("the symptom pass is the current pass %d: the test expects a later quiet pass", c.N)
	}
	html := app.HTMLString(p.Render())
	for _, want := range []string{"This is the symptom. It showed in pass", "deployment-controller"} {
		if !strings.Contains(html, want) {
			t.Errorf("the page at the symptom lacks %q", want)
		}
	}
	if strings.Contains(html, "container(s) running and ready") {
		i := strings.Index(html, "container(s) running and ready")
		t.Errorf("the page at the symptom says a kubelet wants its probed pod ready: %s", html[max(0, i-300):i+100])
	}
	n := p.view.N
	p.next(ctx)
	if p.view.N != n+1 || p.view.Current == nil || p.view.Current.N != n+1 {
		t.Errorf("after Next pass: pass %d shown at %d, want %d", p.view.Current.N, p.view.N, n+1)
	}
}
