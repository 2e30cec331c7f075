package k8sapi_test

import (
	"crypto/x509"
	"encoding/pem"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"reconcile/engine/api"
	"reconcile/engine/store"
)

// TestNamespaceObjectsAreWhatTheAPIServerStores holds the ServiceAccounts
// and ConfigMaps of every bundled lesson, at three moments, to k8s.io/api's
// types (read into them and written again, the JSON is ours), and checks
// that every namespace holds its ServiceAccount default and its
// kube-root-ca.crt, whose ca.crt is the cluster's CA: self-signed,
// CN=kubernetes, valid from 2026-01-01T00:00:00Z for ten years.
func TestNamespaceObjectsAreWhatTheAPIServerStores(t *testing.T) {
	for _, k := range []struct {
		kind     string
		newTyped func() any
	}{
		{"ServiceAccount", func() any { return &corev1.ServiceAccount{} }},
		{"ConfigMap", func() any { return &corev1.ConfigMap{} }},
	} {
		kind := k.kind
		n := roundTrips(t, kind, k.newTyped)
		if n == 0 {
			t.Errorf("no %s in the lessons' worlds to compare", kind)
		}
		t.Logf("%s: %d compared", kind, n)
	}
	for _, m := range moments(t) {
		for _, o := range m.store.List("Namespace") {
			ns := o.Meta().Name
			if m.store.Get("ServiceAccount", ns, "default") == nil {
				t.Errorf("%s at %v: namespace %s has no ServiceAccount default", m.lesson, m.at, ns)
			}
			cm, _ := m.store.Get("ConfigMap", ns, "kube-root-ca.crt").(*api.Unstructured)
			if cm == nil || !store.RootCAPublished(cm) || cm.Annotations["kubernetes.io/description"] != store.RootCADescription {
				t.Errorf("%s at %v: namespace %s has no kube-root-ca.crt as the publisher writes it: %v", m.lesson, m.at, ns, cm)
			}
		}
	}
	block, rest := pem.Decode([]byte(store.ClusterCA))
	if block == nil || block.Type != "CERTIFICATE" || len(rest) != 0 {
		t.Fatalf("the cluster's CA is not one PEM certificate: %q", store.ClusterCA)
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	from := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if cert.Subject.CommonName != "kubernetes" || !cert.IsCA || !cert.NotBefore.Equal(from) || !cert.NotAfter.Equal(from.AddDate(10, 0, 0)) {
		t.Errorf("the cluster's CA: CN %q, CA %v, valid %v to %v", cert.Subject.CommonName, cert.IsCA, cert.NotBefore, cert.NotAfter)
	}
	if err := cert.CheckSignatureFrom(cert); err != nil {
		t.Errorf("the cluster's CA is not self-signed: %v", err)
	}
}
