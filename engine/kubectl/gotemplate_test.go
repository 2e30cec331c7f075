package kubectl

import (
	"strings"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/store"
)

// TestGoTemplateRefusedInTheBrowser: where text/template is not linked (the
// browser's build), a Go template is refused with words that say so and
// point to jsonpath; natively it runs.
func TestGoTemplateRefusedInTheBrowser(t *testing.T) {
	st := store.New(0)
	st.Create(&api.Namespace{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Namespace"}, ObjectMeta: api.ObjectMeta{Name: "default"}})
	line := "get ns default -o go-template={{.metadata.name}}"
	if out, code := Run(st, 0, line); code != 0 || out != "default" {
		t.Fatalf("natively: %q, exit %d", out, code)
	}
	saved := goTemplate
	goTemplate = nil
	defer func() { goTemplate = saved }()
	for _, l := range []string{line, "get ns default --template={{.metadata.name}}"} {
		out, code := Run(st, 0, l)
		if code != 1 || !strings.Contains(out, "not simulated in the browser: use -o jsonpath") {
			t.Errorf("%s: %q, exit %d", l, out, code)
		}
		if err := Check(l); err == nil || !strings.Contains(err.Error(), "not simulated in the browser") {
			t.Errorf("Check(%s): %v", l, err)
		}
	}
}
