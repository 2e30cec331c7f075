package api

import "strings"

// kindNames maps the words kubectl accepts for a kind — singular, plural,
// short name, group-qualified — to the kind.
var kindNames = map[string]string{
	"deployment": "Deployment", "deployments": "Deployment", "deploy": "Deployment", "deployment.apps": "Deployment",
	"replicaset": "ReplicaSet", "replicasets": "ReplicaSet", "rs": "ReplicaSet", "replicaset.apps": "ReplicaSet",
	"pod": "Pod", "pods": "Pod", "po": "Pod",
	"node": "Node", "nodes": "Node", "no": "Node",
	"event": "Event", "events": "Event", "ev": "Event",
	"lease": "Lease", "leases": "Lease",
	"job": "Job", "jobs": "Job", "job.batch": "Job",
	"resourcequota": "ResourceQuota", "resourcequotas": "ResourceQuota", "quota": "ResourceQuota",
	"validatingwebhookconfiguration": "ValidatingWebhookConfiguration", "validatingwebhookconfigurations": "ValidatingWebhookConfiguration",
	"service": "Service", "services": "Service", "svc": "Service",
	"configmap": "ConfigMap", "configmaps": "ConfigMap", "cm": "ConfigMap",
	"secret": "Secret", "secrets": "Secret",
	"ingress": "Ingress", "ingresses": "Ingress", "ing": "Ingress",
	"namespace": "Namespace", "namespaces": "Namespace", "ns": "Namespace",
	"serviceaccount": "ServiceAccount", "serviceaccounts": "ServiceAccount", "sa": "ServiceAccount",
	"horizontalpodautoscaler": "HorizontalPodAutoscaler", "horizontalpodautoscalers": "HorizontalPodAutoscaler", "hpa": "HorizontalPodAutoscaler",
}

// KindNamed returns the kind a kubectl resource word names ("rs" →
// "ReplicaSet", "deployments.apps" → "Deployment"), in any case.
func KindNamed(word string) (string, bool) {
	w := strings.ToLower(word)
	if k, ok := kindNames[w]; ok {
		return k, true
	}
	if i := strings.IndexByte(w, '.'); i > 0 {
		k, ok := kindNames[w[:i]]
		return k, ok
	}
	return "", false
}
