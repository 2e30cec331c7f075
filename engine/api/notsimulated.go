package api

// What the engine does not do with the kinds it stores but does not
// simulate, in one place: the loader notes it when a scenario declares
// one, and kubectl get says it under their table.

// notSimulated says, per kind, what a learner might expect that does not
// happen.
var notSimulated = map[string]string{
	"Service":                          "no cluster IP or endpoints: no traffic reaches pods through them",
	"Endpoints":                        "nothing keeps them in step with pods",
	"Ingress":                          "no ingress controller routes traffic by them",
	"IngressClass":                     "no ingress controller reads them",
	"NetworkPolicy":                    "no traffic is allowed or denied by them: every pod can reach every pod",
	"ConfigMap":                        "the kubelet checks that those a pod names exist, with the keys it names; no container reads their data",
	"Secret":                           "the kubelet checks that those a pod names exist, with the keys it names; no container reads their data",
	"StatefulSet":                      "no controller creates their pods",
	"DaemonSet":                        "no controller creates their pods",
	"CronJob":                          "no controller starts their Jobs",
	"ReplicationController":            "no controller creates their pods",
	"PersistentVolumeClaim":            "no volume is provisioned, bound or mounted",
	"PersistentVolume":                 "no volume is bound or mounted",
	"StorageClass":                     "no volume is provisioned",
	"CSIDriver":                        "no volume is provisioned or attached",
	"CSINode":                          "no volume is attached",
	"VolumeAttachment":                 "no volume is attached",
	"Role":                             "there is no authorization: every request is allowed",
	"RoleBinding":                      "there is no authorization: every request is allowed",
	"ClusterRole":                      "there is no authorization: every request is allowed",
	"ClusterRoleBinding":               "there is no authorization: every request is allowed",
	"ServiceAccount":                   "no token is issued and no request is authenticated by them",
	"CustomResourceDefinition":         "no new resource is served",
	"MutatingWebhookConfiguration":     "no mutating webhook is called",
	"ValidatingAdmissionPolicy":        "no policy is evaluated on requests",
	"ValidatingAdmissionPolicyBinding": "no policy is evaluated on requests",
	"PriorityClass":                    "pods are not ordered or preempted by priority",
	"RuntimeClass":                     "every pod runs on the one simulated runtime",
	"APIService":                       "no API is aggregated",
}

// NotSimulatedNote says that objects of a kind the engine does not
// simulate are stored, and what does not happen: "NetworkPolicy objects
// are stored, not simulated: no traffic is allowed or denied by them:
// every pod can reach every pod". It is "" for simulated kinds.
func NotSimulatedNote(kind string) string {
	k, _ := KindOf(kind)
	if k.Simulated() {
		return ""
	}
	what, ok := notSimulated[kind]
	if !ok {
		what = "no controller acts on them"
	}
	return kind + " objects are stored, not simulated: " + what
}
