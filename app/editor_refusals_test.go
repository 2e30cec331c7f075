package app

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"reconcile/engine/scenario"
	"reconcile/engine/yamlpos"
)

// The editor places the API server's refusal of an applied object at the
// field it names: the line and column the CLI gives the same text in a
// file (reconcile check), not the document's first line.
func TestPlaygroundRefusalsWhereTheCLIPlacesThem(t *testing.T) {
	p := playground(t, "")
	var ctx app.Context
	base := p.editor.desired
	before := p.view.Digest
	hpa := "---\napiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: web\nspec:\n" +
		"  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  minReplicas: 5\n  maxReplicas: 2\n"
	for _, c := range []struct {
		name, text, want, says string
		// update: the refusal is of a change to the live object, which a
		// file alone cannot hold: want is where the field is.
		update bool
	}{
		{name: "bad replicas", text: strings.Replace(base, "replicas: 3", "replicas: -1", 1), want: "6:13", says: "spec.replicas: Invalid value: -1"},
		{name: "invalid container name", text: strings.Replace(base, "- name: web", "- name: Web_1", 1), want: "14:15", says: `spec.template.spec.containers[0].name: Invalid value: "Web_1"`},
		{name: "minReplicas above maxReplicas", text: base + hpa, want: "25:16", says: "spec.maxReplicas: Invalid value: 2"},
		{name: "immutable selector", text: strings.ReplaceAll(base, "{app: web}", "{app: shop}"), want: "8:5", says: "field is immutable", update: true},
	} {
		p.editor.desired = c.text
		p.apply(ctx)
		if len(p.editor.problems) == 0 {
			t.Errorf("%s: no problem marked; alert %q", c.name, p.editor.alert)
			continue
		}
		pr := p.editor.problems[0]
		got := fmt.Sprintf("%d:%d", pr.line, pr.col)
		if got != c.want || !strings.Contains(pr.msg, c.says) {
			t.Errorf("%s: the editor marks %s %q, want %s saying %q", c.name, got, pr.msg, c.want, c.says)
		}
		if !strings.Contains(p.editor.alert, "refused it. Desired state:"+c.want+": ") {
			t.Errorf("%s: alert = %q, want it at Desired state:%s", c.name, p.editor.alert, c.want)
		}
		if !c.update {
			_, err := scenario.Load(editorFile, []byte(c.text))
			var list yamlpos.ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("%s: the CLI takes the text: %v", c.name, err)
			}
			if cli := fmt.Sprintf("%d:%d", list[0].Pos.Line, list[0].Pos.Col); cli != got || list[0].Msg != pr.msg {
				t.Errorf("%s: the CLI says %s %q, the editor %s %q", c.name, cli, list[0].Msg, got, pr.msg)
			}
		}
		if p.view.Digest != before {
			t.Errorf("%s: a refused apply changed the world", c.name)
		}
	}
	html := app.HTMLString(p.Render())
	if !strings.Contains(html, "Go to line 8, column 5") {
		t.Error("the page offers no way to the immutable selector")
	}
}

// A refusal that names no field (the object's namespace does not exist) is
// marked at the document of the object the API server refused, as the
// apply's output says which (sim.Output.Refused), not by finding a name in
// its words.
func TestPlaygroundRefusalAtTheRefusedDocument(t *testing.T) {
	p := playground(t, "")
	var ctx app.Context
	base := p.editor.desired
	lines := strings.Count(strings.TrimRight(base, "\n"), "\n") + 1
	p.editor.desired = strings.TrimRight(base, "\n") + "\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: front\n  namespace: ghost\n" +
		"spec:\n  selector: {app: web}\n  ports: [{port: 80}]\n"
	p.apply(ctx)
	want := fmt.Sprintf("Desired state:%d:1: ", lines+2)
	if len(p.editor.problems) != 1 || p.editor.problems[0].line != lines+2 || !strings.Contains(p.editor.alert, want) {
		t.Errorf("problems %+v, alert %q; want one at line %d (%q)", p.editor.problems, p.editor.alert, lines+2, want)
	}
}
