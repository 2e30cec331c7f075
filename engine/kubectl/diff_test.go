package kubectl_test

import (
	"strings"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/kubectl"
	"reconcile/engine/manifest"
)

// stdinOf decodes manifests as kubectl diff -f - reads them.
func stdinOf(t testing.TB, text string) []kubectl.Stdin {
	t.Helper()
	ms, err := manifest.Decode("stdin.yaml", text, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]kubectl.Stdin, len(ms))
	for i, m := range ms {
		out[i] = kubectl.Stdin{Object: m.Object, Config: m.Config, Refused: m.Refused}
	}
	return out
}

const webScaled = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, labels: {app: web}}
spec:
  replicas: 5
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: shop/web:1.0}]}
`

// TestDiffFlags: -l keeps the manifests' objects whose labels match; -n
// given refuses an object of another namespace, in kubectl's words; and
// diff writes nothing.
func TestDiffFlags(t *testing.T) {
	st := world(t)
	rv := st.ResourceVersion()
	for _, c := range []struct {
		line, want string
		code       int
	}{
		{"diff -f -", "+  replicas: 5\n", 1},
		{"diff -f - -l app=web", "+  replicas: 5\n", 1},
		{"diff -f - -l app=other", "", 0},
		{"diff -f - -l 'app in (web'", "error: ", 2},
		{"diff -f - -n prod", "", 2},
		{"diff -f - -n default", "+  replicas: 5\n", 1},
	} {
		text := webScaled
		if strings.HasSuffix(c.line, "-n prod") {
			// the manifests are decoded for the namespace default
			c.want = "error: the namespace from the provided object \"default\" does not match the namespace \"prod\". You must pass '--namespace=default' to perform this operation.\n"
		}
		r := kubectl.ExecStdin(st, 90*api.Second, c.line, stdinOf(t, text))
		if r.Code != c.code || !strings.Contains(r.Output, c.want) || c.want == "" && r.Output != "" {
			t.Errorf("%s: got exit %d:\n%s\nwant exit %d and %q", c.line, r.Code, r.Output, c.code, c.want)
		}
	}
	if st.ResourceVersion() != rv {
		t.Errorf("kubectl diff wrote to the store: resourceVersion %d, was %d", st.ResourceVersion(), rv)
	}
}
