package app

import (
	"fmt"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/engine/api"
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
	// The now box says the pass it shows, not the quiet pass the run is at.
	if what := p.view.Explained.What; !strings.HasPrefix(what, "deployment-controller") {
		t.Errorf("at the symptom the now box says %q, want the deployment-controller's pass in words", what)
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

// TestResponseTwice: the second press of Apply the response does not run
// rollout undo again (which would roll forward to the broken template):
// the button says the response was applied and is disabled, and a press
// anyway is refused with a sentence, the world unchanged.
func TestResponseTwice(t *testing.T) {
	sc, err := scenarios.Load("stuck-rollout")
	if err != nil {
		t.Fatal(err)
	}
	p := playerOf(t, sc)
	p.host = p
	var ctx app.Context
	p.playToSymptom(ctx, false)
	p.applyResponse(ctx)
	if !p.responded || p.alert != "" {
		t.Fatalf("the response: alert %q", p.alert)
	}
	at := p.responseAfter
	for range 30 {
		p.next(ctx)
	}
	image := func() string {
		for _, o := range p.ses.Objects() {
			if d, ok := o.(*api.Deployment); ok && d.Namespace == "default" && d.Name == "web" {
				return d.Spec.Template.Spec.Containers[0].Image
			}
		}
		t.Fatal("no Deployment default/web")
		return ""
	}
	html := app.HTMLString(p.Render())
	want := "disabled"
	if i := strings.Index(html, fmt.Sprintf("Response applied at pass %d</button>", at)); i < 0 || !strings.Contains(html[strings.LastIndex(html[:i], "<button"):i], want) {
		t.Errorf("after the response the button does not say it was applied at pass %d, disabled", at)
	}
	inputs := len(p.ses.Inputs())
	p.applyResponse(ctx)
	if got := image(); got != "shop/web:1.0" || len(p.ses.Inputs()) != inputs {
		t.Errorf("a second response changed the world: image %s, %d inputs (was %d)", got, len(p.ses.Inputs()), inputs)
	}
	if !strings.Contains(p.notice, fmt.Sprintf("The response was applied after pass %d", at)) || p.alert != "" {
		t.Errorf("a second response says %q (alert %q)", p.notice, p.alert)
	}
	if html := app.HTMLString(p.Render()); !strings.Contains(html, "The response was applied after pass") {
		t.Errorf("the page does not say why the response was not applied again")
	}
}
