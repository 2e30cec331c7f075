package assertion

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"reconcile/engine/api"
)

func TestParse(t *testing.T) {
	tests := []struct {
		text  string
		extra []string
		check func(a *Assertion) bool
	}{
		{"deployment/web status.availableReplicas == 5", nil, func(a *Assertion) bool {
			return a.Kind == "Deployment" && a.Name == "web" && a.Path.String() == "status.availableReplicas" && a.Op == "==" && a.Value.Text == "5"
		}},
		{"rs/web-* status.replicas >= 0", nil, func(a *Assertion) bool { return a.Kind == "ReplicaSet" && a.Name == "web-*" }},
		{"deploy/web status.observedGeneration == metadata.generation", nil, func(a *Assertion) bool {
			return a.Value.Path.String() == "metadata.generation"
		}},
		{`deployment/web status.conditions[type=Progressing].reason == "NewReplicaSetAvailable"`, nil, func(a *Assertion) bool {
			return a.Path.String() == "status.conditions[type=Progressing].reason" && a.Value.Quoted && a.Value.Text == "NewReplicaSetAvailable"
		}},
		{`deployment/web status.conditions[type=Progressing].message contains "has timed out"`, nil, func(a *Assertion) bool {
			return a.Op == "contains" && a.Value.Text == "has timed out"
		}},
		{"deployment/web metadata.annotations[deployment.kubernetes.io/revision] == 2", nil, func(a *Assertion) bool {
			return a.Path[2].Field == "deployment.kubernetes.io/revision"
		}},
		{"pod/web-1 metadata.creationTimestamp < 2m", nil, func(a *Assertion) bool { return a.Kind == "Pod" }},
		{"node/worker-1 status.capacity.cpu >= 500m", nil, func(a *Assertion) bool { return a.Kind == "Node" }},
		{"deployment/web spec.strategy.rollingUpdate.maxSurge == 25%", nil, func(a *Assertion) bool { return a.Value.Text == "25%" }},
		{"pods{app=web,phase=Running,ready} == 5", nil, func(a *Assertion) bool {
			return a.Count && a.Kind == "Pod" && reflect.DeepEqual(a.Terms, []Term{
				{Key: "app", Value: "web", Label: true}, {Key: "phase", Value: "Running"}, {Key: "ready", Flag: true}})
		}},
		{"pods{ node=worker-2, !terminating, tier!=db, canary, labels.node=x } > 0", nil, func(a *Assertion) bool {
			return reflect.DeepEqual(a.Terms, []Term{
				{Key: "node", Value: "worker-2"}, {Key: "terminating", Not: true, Flag: true}, {Key: "tier", Value: "db", Not: true, Label: true},
				{Key: "canary", Label: true, Flag: true}, {Key: "node", Value: "x", Label: true}})
		}},
		{"nodes == 3", nil, func(a *Assertion) bool { return a.Count && a.Kind == "Node" && len(a.Terms) == 0 }},
		{"services{app=web} == 1", []string{"Service"}, func(a *Assertion) bool { return a.Kind == "Service" }},
		{"configmap/settings data.mode == fast", []string{"ConfigMap"}, func(a *Assertion) bool { return a.Path.String() == "data.mode" }},
	}
	for _, tt := range tests {
		a, err := Parse(tt.text, tt.extra)
		if err != nil {
			t.Errorf("%s: %v", tt.text, err)
			continue
		}
		if !tt.check(a) {
			t.Errorf("%s: parsed as %+v", tt.text, a)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		text   string
		offset int
		want   string
	}{
		{"", 0, "empty expect: want KIND/NAME PATH OP VALUE or KIND{FILTERS} OP NUMBER"},
		{"deployment/web status.replicas ==", 33, "incomplete expect: want KIND/NAME PATH OP VALUE, e.g. deployment/web status.availableReplicas == 5"},
		{"deployment/web status.replicas == 5 6", 36, `unexpected "6" after the value: quote a value that has spaces`},
		{"deployment/ status.replicas == 5", 11, `bad object "deployment/": want KIND/NAME, e.g. deployment/web or replicaset/web-*`},
		{"configmap/web data.x == y", 0, `unknown kind "configmap": want deployment, replicaset (rs), pod, node, lease`},
		{"deployment/web spec..replicas == 5", 20, `bad path "spec..replicas": a field name is missing`},
		{"deployment/web status.conditions[type=Progressing.reason == x", 15, `a bracket in "status.conditions[type=Progressing.reason == x" is not closed`},
		{"deployment/web spec.replicas.value == 5", 15, "deployment has no field spec.replicas.value: spec.replicas is a single value; it has no value"},
		{"deployment/web status.conditions[kind=x].reason == y", 15, "deployment has no field status.conditions[kind=x].reason: unknown field \"kind\" in the elements of status.conditions; expected one of lastTransitionTime, lastUpdateTime, message, reason, status, type"},
		{"deployment/web status.replicas == \"5\"", 34, "status.replicas is a number; write the value without quotes"},
		{"deployment/web spec.paused == maybe", 30, `spec.paused is a boolean: want true or false, got "maybe"`},
		{"pod/p metadata.creationTimestamp > soon", 35, `metadata.creationTimestamp is a time: want a duration such as 30s or 2m, got "soon"`},
		{"deployment/web spec.replicas == metadata.name", 32, "spec.replicas is a number but metadata.name is text: they cannot be compared"},
		{"deployment/web metadata.labels > 3", 33, "> compares numbers, times or quantities, but metadata.labels is a list or an object"},
		{"pods{phase=Sleeping} == 1", 5, `unknown pod phase "Sleeping": want Pending, Running, Succeeded, Failed or Unknown`},
		{"deployments{phase=Running} == 1", 12, "phase= filters pods only"},
		{"pods{ready} contains 1", 12, "a count compares with ==, !=, <, <=, > or >="},
		{"pods{ready} == -1", 15, `a count compares with a whole number, got "-1"`},
		{`deployment/web metadata.name == "web`, 32, "the quote \" at offset 32 is not closed"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.text, nil)
		ae, ok := err.(*Error)
		if !ok {
			t.Errorf("%q: got %v, want an *Error", tt.text, err)
			continue
		}
		if ae.Msg != tt.want || ae.Offset != tt.offset {
			t.Errorf("%q:\n got %d %s\nwant %d %s", tt.text, ae.Offset, ae.Msg, tt.offset, tt.want)
		}
	}
}

func TestPathLookup(t *testing.T) {
	d := &api.Deployment{
		TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: api.ObjectMeta{Name: "web", Generation: 3, Annotations: map[string]string{"deployment.kubernetes.io/revision": "2"}},
		Status: api.DeploymentStatus{ObservedGeneration: 2, Conditions: []api.DeploymentCondition{
			{Type: "Available", Status: "True"}, {Type: "Progressing", Status: "True", Reason: "NewReplicaSetAvailable", LastUpdateTime: 90 * api.Second}}},
	}
	d.Spec.Template.Spec.Containers = []api.Container{{Name: "web", Image: "shop/web:1.0"}}
	tests := []struct{ path, want, err string }{
		{"kind", "Deployment", ""},
		{"metadata.generation", "3", ""},
		{"status.observedGeneration", "2", ""},
		{"status.availableReplicas", "0", ""},
		{"status.conditions[type=Progressing].reason", "NewReplicaSetAvailable", ""},
		{"status.conditions[1].lastUpdateTime", "1m30s", ""},
		{"metadata.annotations[deployment.kubernetes.io/revision]", "2", ""},
		{"spec.template.spec.containers[0]", `{"name":"web","image":"shop/web:1.0","resources":{}}`, ""},
		{"spec.replicas", "", "spec.replicas is not set"},
		{"status.conditions[type=ReplicaFailure].reason", "", "status.conditions has no element with type=ReplicaFailure"},
		{"status.conditions[5]", "", "status.conditions has 2 elements; there is no [5]"},
		{"metadata.labels.app", "", "metadata.labels has no key \"app\""},
	}
	for _, tt := range tests {
		p, err := ParsePath(tt.path)
		if err != nil {
			t.Fatalf("%s: %v", tt.path, err)
		}
		v, err := p.Lookup(d)
		switch {
		case tt.err != "":
			if err == nil || err.Error() != tt.err {
				t.Errorf("%s: got %v, want error %q", tt.path, err, tt.err)
			}
		case err != nil:
			t.Errorf("%s: %v", tt.path, err)
		case Render(v) != tt.want:
			t.Errorf("%s = %s, want %s", tt.path, Render(v), tt.want)
		}
	}
	u := &api.Unstructured{Spec: map[string]any{"ports": []any{map[string]any{"name": "http", "port": int64(80)}}}}
	p, _ := ParsePath("spec.ports[name=http].port")
	if v, err := p.Lookup(u); err != nil || Render(v) != "80" {
		t.Errorf("unstructured lookup: %v %v", Render(v), err)
	}
}

func TestMatchName(t *testing.T) {
	for _, tt := range []struct {
		pattern, name string
		want          bool
	}{
		{"web", "web", true}, {"web", "web-1", false}, {"web-*", "web-7d9c", true}, {"web-*", "web-", true},
		{"*-x2kq9", "web-7d9c-x2kq9", true}, {"web-*-x*", "web-7d9c-x2kq9", true}, {"web-*", "api-7d9c", false}, {"*", "", true},
	} {
		if got := MatchName(tt.pattern, tt.name); got != tt.want {
			t.Errorf("MatchName(%q, %q) = %v", tt.pattern, tt.name, got)
		}
	}
}

func TestKindFor(t *testing.T) {
	for word, want := range map[string]string{"deploy": "Deployment", "RS": "ReplicaSet", "pods": "Pod", "no": "Node",
		"ingresses": "Ingress", "configmap": "ConfigMap", "job": "Job", "widget": ""} {
		got, ok := KindFor(word, []string{"Ingress", "ConfigMap"})
		if got != want || ok != (want != "") {
			t.Errorf("KindFor(%q) = %q, %v", word, got, ok)
		}
	}
}

// sampleObjects are one object of each simulated kind, partly filled, for
// lookups.
func sampleObjects() []api.Object {
	d := &api.Deployment{TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"}, ObjectMeta: api.ObjectMeta{Name: "web"}}
	d.Status.Conditions = []api.DeploymentCondition{{Type: "Available", Status: "True"}}
	p := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}, ObjectMeta: api.ObjectMeta{Name: "p", Labels: map[string]string{"app": "web"}}}
	p.Spec.Containers = []api.Container{{Name: "app", Image: "nginx"}}
	return []api.Object{d, p,
		&api.ReplicaSet{TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"}},
		&api.Node{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Node"}, ObjectMeta: api.ObjectMeta{Name: "worker-1"}},
		&api.Unstructured{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Service"}, Spec: map[string]any{"ports": []any{map[string]any{"port": int64(80)}}}},
	}
}

// Many stars match in linear time: 3,000 of them against a name that
// does not match (the backtracking matcher took 58 s at 22 stars).
func TestMatchNameManyStars(t *testing.T) {
	name := strings.Repeat("a", 253)
	for _, stars := range []int{22, 3000} {
		pattern := strings.Repeat("*a", stars) + "b"
		start := time.Now()
		if MatchName(pattern, name) {
			t.Errorf("%d stars matched", stars)
		}
		if !MatchName(strings.Repeat("*", stars)+"a", name) {
			t.Errorf("%d stars and a did not match", stars)
		}
		if d := time.Since(start); d > 100*time.Millisecond {
			t.Errorf("%d stars took %v", stars, d)
		}
	}
	// Against a reference: every pattern of a, b and * up to 6 long,
	// every name of a and b up to 5 long.
	var ref func(p, n string) bool
	ref = func(p, n string) bool {
		if p == "" {
			return n == ""
		}
		if p[0] == '*' {
			return ref(p[1:], n) || (n != "" && ref(p, n[1:]))
		}
		return n != "" && p[0] == n[0] && ref(p[1:], n[1:])
	}
	var all func(alphabet string, max int) []string
	all = func(alphabet string, max int) []string {
		out := []string{""}
		for i := 0; i < len(out); i++ {
			if len(out[i]) < max {
				for _, c := range alphabet {
					out = append(out, out[i]+string(c))
				}
			}
		}
		return out
	}
	for _, p := range all("ab*", 6) {
		for _, n := range all("ab", 5) {
			if got, want := MatchName(p, n), ref(p, n); got != want {
				t.Fatalf("MatchName(%q, %q) = %v, want %v", p, n, got, want)
			}
		}
	}
}

// FuzzMatchName: any pattern against any name answers within bounded
// time, as the recursive definition answers when both are short.
func FuzzMatchName(f *testing.F) {
	f.Add("web-*-*", "web-7d4f-abcde")
	f.Add(strings.Repeat("*a", 3000)+"b", strings.Repeat("a", 253))
	f.Add("**", "")
	f.Fuzz(func(t *testing.T, pattern, name string) {
		start := time.Now()
		got := MatchName(pattern, name)
		if d := time.Since(start); d > time.Second {
			t.Fatalf("%d-byte pattern against a %d-byte name took %v", len(pattern), len(name), d)
		}
		if len(pattern) <= 8 && len(name) <= 8 {
			var ref func(p, n string) bool
			ref = func(p, n string) bool {
				if p == "" {
					return n == ""
				}
				if p[0] == '*' {
					return ref(p[1:], n) || (n != "" && ref(p, n[1:]))
				}
				return n != "" && p[0] == n[0] && ref(p[1:], n[1:])
			}
			if want := ref(pattern, name); got != want {
				t.Fatalf("MatchName(%q, %q) = %v, want %v", pattern, name, got, want)
			}
		}
	})
}
