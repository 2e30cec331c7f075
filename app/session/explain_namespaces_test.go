package session

import (
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// TestExplainNamespaceObjects: a namespace created by a lesson gets its
// ServiceAccount default and its ConfigMap kube-root-ca.crt, each in a
// pass whose sentence says so; the publisher's other passes are read from
// their facts.
func TestExplainNamespaceObjects(t *testing.T) {
	sc, err := scenario.Load("shop.yaml", []byte("id: shop\ntitle: shop\nmanifests: |\n  apiVersion: v1\n  kind: Namespace\n  metadata: {name: shop}\n"))
	if err != nil {
		t.Fatal(err)
	}
	run, err := sim.New(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	run.RunUntil(api.Second, 0)
	want := map[string]string{
		controller.ServiceAccountController: "serviceaccount-controller found no serviceaccount default in namespace shop and created serviceaccount default.",
		controller.RootCAPublisher:          "root-ca-certificate-publisher-controller found no configmap kube-root-ca.crt in namespace shop and created configmap kube-root-ca.crt.",
	}
	for _, p := range run.Passes() {
		if w, ok := want[p.Controller]; ok {
			if got := Explain(p).What; got != w {
				t.Errorf("%s pass #%d:\n got %s\nwant %s", p.Controller, p.N, got, w)
			}
			delete(want, p.Controller)
		}
	}
	for name := range want {
		t.Errorf("no pass of %s", name)
	}

	cm := "configmap kube-root-ca.crt"
	for _, tt := range []struct {
		p    sim.Pass
		want string
	}{
		{sim.Pass{Desired: controller.Statement{Fact: controller.Fact{Is: controller.NamespaceHolds, Name: cm}},
			Observed: controller.Statement{Fact: controller.Fact{Is: controller.Altered, Name: "data"}},
			Actions:  []controller.Action{controller.On(controller.Update, "configmap", "kube-root-ca.crt", "")}},
			"root-ca-certificate-publisher-controller found the data of configmap kube-root-ca.crt in namespace shop changed and put it back: updated configmap kube-root-ca.crt."},
		{sim.Pass{Desired: controller.Statement{Fact: controller.Fact{Is: controller.NamespaceHolds, Name: cm}},
			Observed: controller.Statement{Fact: controller.Fact{Is: controller.Present, Name: cm}}},
			"root-ca-certificate-publisher-controller found configmap kube-root-ca.crt in namespace shop as it should be: nothing to do."},
		{sim.Pass{Desired: controller.Statement{Fact: controller.Fact{Is: controller.NamespaceTerminating}}},
			"root-ca-certificate-publisher-controller found namespace shop being deleted: nothing new is created in it."},
	} {
		p := tt.p
		p.Controller, p.Key, p.Object, p.Result = controller.RootCAPublisher, "shop", api.Ref{Kind: "Namespace", Name: "shop"}, controller.Acted
		if got := Explain(p).What; got != tt.want {
			t.Errorf("got  %s\nwant %s", got, tt.want)
		}
	}
}
