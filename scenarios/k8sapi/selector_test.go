package k8sapi_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"

	"reconcile/engine/api"
	"reconcile/engine/selector"
)

// selectorCorpus is label selectors written by hand, then many made of
// random pieces of the language: valid and invalid, in the same proportion
// a typing learner produces them.
func selectorCorpus(n int) []string {
	out := []string{"", "app", "!app", "app=web", "app==web", "app!=web", "app=", "app in (web,api)", "app notin (web)",
		"app in ()", "app in (,)", "app in (a,,b)", "app in (web", "app in web", "x in (in,notin)", "in=1", "notin=2", "a,b,c",
		"a=b,c!=d,!e,f in (g)", " a = b , c ", "a=b=c", "a>1", "a<2", "a>x", "a<", "!", "!a=b", "a,,b", ",a", "a,", "Foo!",
		"x/y/z", "/x", "example.com/app=web", "Example.com/app=web", "app.kubernetes.io/name in (web)", "-bad", "bad-", "a=-b",
		"a=" + strings.Repeat("v", 64), strings.Repeat("k", 64) + "=v", "a==b==c", "a!=!b", "(a)", "a in (b) c", "a b", "a=b c",
		"a in (b c)", "a=(b)", "a notin ()", "!a,!b", "a=b,a=c", "tier in (front, back)", "app in (web),tier"}
	pieces := []string{"app", "tier", "a", "b", "x.y/z", "-bad", "Foo", "=", "==", "!=", "in", "notin", "(", ")", ",", "!", " ",
		"web", "1", ">", "<", "ab_c", "a..b", "example.com/", "v-1", "_x"}
	r := rand.New(rand.NewPCG(1, 2))
	for len(out) < n {
		var b strings.Builder
		for i, k := 0, 1+r.IntN(7); i < k; i++ {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		out = append(out, b.String())
	}
	return out
}

// labelSets are the label sets a selector is matched against.
var labelSets = []map[string]string{
	{}, {"app": "web"}, {"app": "api"}, {"app": "web", "tier": "front"}, {"a": "1"}, {"a": "5", "b": ""}, {"app": ""},
	{"in": "1", "notin": "2"}, {"app.kubernetes.io/name": "web"}, {"x.y/z": "v-1", "ab_c": "web"}, {"e": "x", "a": "b", "c": "e"},
}

// TestLabelSelectorsAgreeWithApimachinery parses every selector of the
// corpus with ours and with apimachinery's labels.Parse (what the API
// server reads -l with): the same verdict, the same error text, the same
// rendering, the same matches.
func TestLabelSelectorsAgreeWithApimachinery(t *testing.T) {
	valid := 0
	for _, s := range selectorCorpus(3000) {
		ours, err := selector.ParseLabels(s)
		theirs, terr := labels.Parse(s)
		if (err == nil) != (terr == nil) {
			t.Errorf("%q: ours %v, apimachinery %v", s, err, terr)
			continue
		}
		if err != nil {
			if err.Error() != terr.Error() {
				t.Errorf("%q: error\n ours %s\n apim %s", s, err, terr)
			}
			continue
		}
		valid++
		if ours.String() != theirs.String() {
			t.Errorf("%q: renders as %q, apimachinery %q", s, ours.String(), theirs.String())
		}
		for _, set := range labelSets {
			if ours.Matches(set) != theirs.Matches(labels.Set(set)) {
				t.Errorf("%q on %v: ours %v, apimachinery %v", s, set, ours.Matches(set), theirs.Matches(labels.Set(set)))
			}
		}
	}
	if valid < 200 {
		t.Errorf("only %d valid selectors in the corpus: it tests too little", valid)
	}
}

// TestFieldSelectorsAgreeWithApimachinery does the same for field
// selectors (fields.ParseSelector), matched against pods' fields.
func TestFieldSelectorsAgreeWithApimachinery(t *testing.T) {
	corpus := []string{"", "status.phase=Running", "status.phase==Running", "status.phase!=Running", "spec.nodeName=worker-1,status.phase=Running",
		"metadata.name=web", "a", "a=b=c", `a=b\,c`, `a=b\=c`, `a=b\\c`, `a=b\c`, `a=b\`, ",", "a=b,", ",a=b", "a!b", "a!=", "=a", "a==",
		"status.phase!=Running,status.phase!=Pending", "spec.nodeName="}
	pieces := []string{"status.phase", "spec.nodeName", "=", "==", "!=", ",", "Running", `\`, "!", "worker-1", "a"}
	r := rand.New(rand.NewPCG(3, 4))
	for len(corpus) < 2000 {
		var b strings.Builder
		for i, k := 0, 1+r.IntN(6); i < k; i++ {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		corpus = append(corpus, b.String())
	}
	pods := []*api.Pod{
		{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"}, Spec: api.PodSpec{NodeName: "worker-1"}, Status: api.PodStatus{Phase: "Running"}},
		{ObjectMeta: api.ObjectMeta{Name: "a", Namespace: "default"}, Status: api.PodStatus{Phase: "Pending"}},
	}
	for _, s := range corpus {
		ours, err := selector.ParseFields(s)
		theirs, terr := fields.ParseSelector(s)
		if (err == nil) != (terr == nil) {
			t.Errorf("%q: ours %v, apimachinery %v", s, err, terr)
			continue
		}
		if err != nil {
			if err.Error() != terr.Error() {
				t.Errorf("%q: error\n ours %s\n apim %s", s, err, terr)
			}
			continue
		}
		if ours.String() != theirs.String() {
			t.Errorf("%q: renders as %q, apimachinery %q", s, ours.String(), theirs.String())
		}
		for _, p := range pods {
			set := fields.Set{"metadata.name": p.Name, "metadata.namespace": p.Namespace, "spec.nodeName": p.Spec.NodeName, "status.phase": p.Status.Phase}
			for _, term := range ours {
				if _, ok := set[term.Field]; !ok {
					set[term.Field] = selector.FieldValue(p, term.Field)
				}
			}
			if ours.Matches(p) != theirs.Matches(set) {
				t.Errorf("%q on pod %s: ours %v, apimachinery %v", s, p.Name, ours.Matches(p), theirs.Matches(set))
			}
		}
	}
}
