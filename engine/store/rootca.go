package store

import "reconcile/engine/api"

// What every namespace holds from its start, kept there by two controllers
// of kube-controller-manager: the ServiceAccount "default" (the
// serviceaccount-controller) and the ConfigMap "kube-root-ca.crt" with the
// cluster's CA (the root-ca-certificate-publisher). The store makes them
// for the system namespaces at bootstrap; the controllers make them the
// same way for every namespace created later.

const (
	// DefaultServiceAccount is the name of the ServiceAccount every
	// namespace has, the one a pod naming none runs as.
	DefaultServiceAccount = "default"
	// RootCAConfigMap is the name of the ConfigMap that holds the
	// cluster's CA in every namespace (the token volume projects it).
	RootCAConfigMap = "kube-root-ca.crt"
	// RootCAKey is its data key.
	RootCAKey = "ca.crt"
	// RootCADescription is its kubernetes.io/description annotation, as
	// the publisher writes it.
	RootCADescription = "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters."
	// DescriptionAnnotation is the annotation a describable object says
	// what it is for in.
	DescriptionAnnotation = "kubernetes.io/description"
)

// ClusterCA is the simulated cluster's CA certificate (PEM): self-signed,
// CN=kubernetes, valid from 2026-01-01T00:00:00Z for ten years, made once
// with crypto/x509 and kept as data. No key signs anything with it: no
// request is authenticated here.
const ClusterCA = `-----BEGIN CERTIFICATE-----
MIIC7jCCAdagAwIBAgIIPm38lnCNIBYwDQYJKoZIhvcNAQELBQAwFTETMBEGA1UE
AxMKa3ViZXJuZXRlczAeFw0yNjAxMDEwMDAwMDBaFw0zNjAxMDEwMDAwMDBaMBUx
EzARBgNVBAMTCmt1YmVybmV0ZXMwggEiMA0GCSqGSIb3DQEBAQUAA4IBDwAwggEK
AoIBAQDdRRbfH7jM/+RAHdNdioWGavMs9za62wUGGRAtlyjAWY0lwNRPHEoCgupF
ee8udrI6jd9wWnUWZC8wSHEro3k0Epz4SvaAlJVgDgKpc6jeFPXjRUjM6urPqKWe
r1PBjThozw5Db7NgboFMTOInGg7f+F6mGxpL1AzHzKzHQUTwjyufbTeUxtC/+8Qj
OBe+Tei8bzagVYaedvc37aiVpizqhW5p04J0CGTFrOp1ffsHAjNVROLgbL+hYfRY
u6pbwHXXNeyUG5ibpgBH7tmjhSHQ3POZic/mEe+mbCx/gQFPliMqTRsyd2NIdY5s
9a/xXitK0NZPP/gIRyoQ7rMTRqa9AgMBAAGjQjBAMA4GA1UdDwEB/wQEAwICpDAP
BgNVHRMBAf8EBTADAQH/MB0GA1UdDgQWBBRIvQns+xlp/71Dexv6NEwMmHlQmDAN
BgkqhkiG9w0BAQsFAAOCAQEAct6lrhoaKRdz29VT6w3pO1eAGHkxLybbePZsMII7
Nne2W5OcPc3nvHPPkvhYSWjmwdgPioLjr3dPU2AcowJAXCyNN6Y1j9zya3GECeKy
3d0PoToTckKNBK2CQaiunc4TwXFmf98iRdABSIeqGV537nxmD+pMLRCeLk2g1hGT
H9yfL5iLL2eKEHzorLX9hImpg0NN7O86zA4nn4TlQ/GrC+FGggFYEaoZGjVl9C90
+VNRQ4T7thqBCWnEpbiuMwG6IxiOI1ypR/s2AslBgqGsIFdcG3moa6AHkEHTr5qM
JFT7e42DfZypTx1+ZRsU3xwh0D1+CQMNVyG5FIAdH5N1kA==
-----END CERTIFICATE-----
`

// KeptInEveryNamespace reports whether kind/name is one of the objects the
// controllers keep in every namespace: the ServiceAccount default, the
// ConfigMap kube-root-ca.crt.
func KeptInEveryNamespace(kind, name string) bool {
	return kind == "ServiceAccount" && name == DefaultServiceAccount || kind == "ConfigMap" && name == RootCAConfigMap
}

// NewDefaultServiceAccount returns the ServiceAccount "default" of
// namespace ns, as the serviceaccount-controller creates it: since v1.24
// it has no secrets.
func NewDefaultServiceAccount(ns string) *api.Unstructured {
	return &api.Unstructured{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "ServiceAccount"},
		ObjectMeta: api.ObjectMeta{Name: DefaultServiceAccount, Namespace: ns}}
}

// NewRootCAConfigMap returns the ConfigMap "kube-root-ca.crt" of namespace
// ns, as the root-ca-certificate-publisher creates it.
func NewRootCAConfigMap(ns string) *api.Unstructured {
	return &api.Unstructured{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: api.ObjectMeta{Name: RootCAConfigMap, Namespace: ns,
			Annotations: map[string]string{DescriptionAnnotation: RootCADescription}},
		Data: map[string]any{RootCAKey: ClusterCA}}
}

// RootCAPublished reports whether the ConfigMap cm holds what the
// publisher keeps there, as its sync compares: data that is the cluster's
// CA under ca.crt and nothing else, and a description annotation (any).
func RootCAPublished(cm *api.Unstructured) bool {
	return len(cm.Data) == 1 && cm.Data[RootCAKey] == ClusterCA && cm.Annotations[DescriptionAnnotation] != ""
}
