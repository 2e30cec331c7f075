package api

import "strings"

// Kind is one entry of the kind registry: what the API server and kubectl
// know of a kind. It is the one table every package reads a kind's names
// from: its API group and version, its resource, the short names kubectl
// accepts, whether it lives in a namespace, and the Go type it is stored
// as.
type Kind struct {
	// Name is the kind, e.g. "Deployment".
	Name string
	// Group is the API group, "" for the core group.
	Group string
	// Version is the API version within the group, e.g. "v1".
	Version string
	// Resource is the plural, lower-case resource, e.g. "deployments".
	Resource string
	// Short are the short names kubectl accepts, e.g. "deploy".
	Short []string
	// Namespaced is false for kinds that live outside namespaces (nodes).
	Namespaced bool
	// New returns an empty object of the kind. Nil for kinds the engine
	// does not simulate: those are stored as *Unstructured, listed, and
	// marked "not simulated".
	New func() Object
}

// kinds is the registry. A new kind is one entry here plus its type.
var kinds = []Kind{
	{Name: "Deployment", Group: "apps", Version: "v1", Resource: "deployments", Short: []string{"deploy"}, Namespaced: true, New: func() Object { return &Deployment{} }},
	{Name: "ReplicaSet", Group: "apps", Version: "v1", Resource: "replicasets", Short: []string{"rs"}, Namespaced: true, New: func() Object { return &ReplicaSet{} }},
	{Name: "Pod", Version: "v1", Resource: "pods", Short: []string{"po"}, Namespaced: true, New: func() Object { return &Pod{} }},
	{Name: "Node", Version: "v1", Resource: "nodes", Short: []string{"no"}, New: func() Object { return &Node{} }},
	{Name: "Event", Version: "v1", Resource: "events", Short: []string{"ev"}, Namespaced: true, New: func() Object { return &Event{} }},
	{Name: "Lease", Group: "coordination.k8s.io", Version: "v1", Resource: "leases", Namespaced: true, New: func() Object { return &Lease{} }},
	{Name: "Job", Group: "batch", Version: "v1", Resource: "jobs", Namespaced: true, New: func() Object { return &Job{} }},
	{Name: "ResourceQuota", Version: "v1", Resource: "resourcequotas", Short: []string{"quota"}, Namespaced: true, New: func() Object { return &ResourceQuota{} }},
	{Name: "ValidatingWebhookConfiguration", Group: "admissionregistration.k8s.io", Version: "v1", Resource: "validatingwebhookconfigurations",
		New: func() Object { return &ValidatingWebhookConfiguration{} }},
	{Name: "Service", Version: "v1", Resource: "services", Short: []string{"svc"}, Namespaced: true, New: func() Object { return &Service{} }},
	{Name: "EndpointSlice", Group: "discovery.k8s.io", Version: "v1", Resource: "endpointslices", Namespaced: true, New: func() Object { return &EndpointSlice{} }},
	{Name: "Endpoints", Version: "v1", Resource: "endpoints", Short: []string{"ep"}, Namespaced: true, New: func() Object { return &Endpoints{} }},

	// Kinds stored and listed, not simulated (but those with New).
	{Name: "StatefulSet", Group: "apps", Version: "v1", Resource: "statefulsets", Short: []string{"sts"}, Namespaced: true, New: func() Object { return &StatefulSet{} }},
	{Name: "DaemonSet", Group: "apps", Version: "v1", Resource: "daemonsets", Short: []string{"ds"}, Namespaced: true, New: func() Object { return &DaemonSet{} }},
	{Name: "CronJob", Group: "batch", Version: "v1", Resource: "cronjobs", Short: []string{"cj"}, Namespaced: true, New: func() Object { return &CronJob{} }},
	{Name: "ControllerRevision", Group: "apps", Version: "v1", Resource: "controllerrevisions", Namespaced: true, New: func() Object { return &ControllerRevision{} }},
	{Name: "ReplicationController", Version: "v1", Resource: "replicationcontrollers", Short: []string{"rc"}, Namespaced: true},
	{Name: "PersistentVolumeClaim", Version: "v1", Resource: "persistentvolumeclaims", Short: []string{"pvc"}, Namespaced: true, New: func() Object { return &PersistentVolumeClaim{} }},
	{Name: "LimitRange", Version: "v1", Resource: "limitranges", Short: []string{"limits"}, Namespaced: true, New: func() Object { return &LimitRange{} }},
	{Name: "PodDisruptionBudget", Group: "policy", Version: "v1", Resource: "poddisruptionbudgets", Short: []string{"pdb"}, Namespaced: true, New: func() Object { return &PodDisruptionBudget{} }},
	{Name: "NetworkPolicy", Group: "networking.k8s.io", Version: "v1", Resource: "networkpolicies", Short: []string{"netpol"}, Namespaced: true},
	{Name: "Role", Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "roles", Namespaced: true},
	{Name: "RoleBinding", Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "rolebindings", Namespaced: true},
	{Name: "ConfigMap", Version: "v1", Resource: "configmaps", Short: []string{"cm"}, Namespaced: true},
	{Name: "Secret", Version: "v1", Resource: "secrets", Namespaced: true},
	{Name: "Namespace", Version: "v1", Resource: "namespaces", Short: []string{"ns"}, New: func() Object { return &Namespace{} }},
	{Name: "ServiceAccount", Version: "v1", Resource: "serviceaccounts", Short: []string{"sa"}, Namespaced: true},
	{Name: "Ingress", Group: "networking.k8s.io", Version: "v1", Resource: "ingresses", Short: []string{"ing"}, Namespaced: true},
	{Name: "HorizontalPodAutoscaler", Group: "autoscaling", Version: "v2", Resource: "horizontalpodautoscalers", Short: []string{"hpa"}, Namespaced: true, New: func() Object { return &HorizontalPodAutoscaler{} }},
	{Name: "PersistentVolume", Version: "v1", Resource: "persistentvolumes", Short: []string{"pv"}, New: func() Object { return &PersistentVolume{} }},
	{Name: "StorageClass", Group: "storage.k8s.io", Version: "v1", Resource: "storageclasses", Short: []string{"sc"}},
	{Name: "ClusterRole", Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterroles"},
	{Name: "ClusterRoleBinding", Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterrolebindings"},
	{Name: "CustomResourceDefinition", Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions", Short: []string{"crd", "crds"}},
	{Name: "MutatingWebhookConfiguration", Group: "admissionregistration.k8s.io", Version: "v1", Resource: "mutatingwebhookconfigurations"},
	{Name: "ValidatingAdmissionPolicy", Group: "admissionregistration.k8s.io", Version: "v1", Resource: "validatingadmissionpolicies"},
	{Name: "ValidatingAdmissionPolicyBinding", Group: "admissionregistration.k8s.io", Version: "v1", Resource: "validatingadmissionpolicybindings"},
	{Name: "PriorityClass", Group: "scheduling.k8s.io", Version: "v1", Resource: "priorityclasses", Short: []string{"pc"}},
	{Name: "IngressClass", Group: "networking.k8s.io", Version: "v1", Resource: "ingressclasses"},
	{Name: "RuntimeClass", Group: "node.k8s.io", Version: "v1", Resource: "runtimeclasses"},
	{Name: "APIService", Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"},
	{Name: "CSIDriver", Group: "storage.k8s.io", Version: "v1", Resource: "csidrivers"},
	{Name: "CSINode", Group: "storage.k8s.io", Version: "v1", Resource: "csinodes"},
	{Name: "VolumeAttachment", Group: "storage.k8s.io", Version: "v1", Resource: "volumeattachments"},
}

// byName and byWord index the registry: by kind, and by every word kubectl
// accepts for one (singular, plural, short, group-qualified), lower case.
var byName, byWord = func() (map[string]int, map[string]int) {
	names, words := map[string]int{}, map[string]int{}
	for i, k := range kinds {
		names[k.Name] = i
		singular := strings.ToLower(k.Name)
		for _, w := range append([]string{singular, k.Resource}, k.Short...) {
			words[w] = i
		}
		if k.Group != "" {
			words[singular+"."+k.Group] = i
			words[k.Resource+"."+k.Group] = i
		}
	}
	return names, words
}()

// Register adds a kind defined outside this package to the registry (as a
// test adds an example kind). It panics when the kind, or a word kubectl
// would read as it, is taken. The engine's own kinds are listed above.
func Register(k Kind) {
	singular := strings.ToLower(k.Name)
	words := append([]string{singular, k.Resource}, k.Short...)
	if k.Group != "" {
		words = append(words, singular+"."+k.Group, k.Resource+"."+k.Group)
	}
	if _, taken := byName[k.Name]; taken {
		panic("api: kind " + k.Name + " is registered twice")
	}
	for _, w := range words {
		if _, taken := byWord[w]; taken {
			panic("api: " + w + " already names a kind")
		}
	}
	kinds = append(kinds, k)
	byName[k.Name] = len(kinds) - 1
	for _, w := range words {
		byWord[w] = len(kinds) - 1
	}
}

// KindOf returns the registry's entry for a kind. A kind the registry does
// not list (a custom resource, say) gets a namespaced entry in the core
// group whose resource is its lower-case plural; ok is false then.
func KindOf(name string) (k Kind, ok bool) {
	if i, found := byName[name]; found {
		return kinds[i], true
	}
	return Kind{Name: name, Version: "v1", Resource: LowerKind(name) + "s", Namespaced: true}, false
}

// KindNamed returns the kind a kubectl resource word names ("rs",
// "deployments.apps", "Pods"), in any case.
func KindNamed(word string) (Kind, bool) {
	w := strings.ToLower(word)
	if i, ok := byWord[w]; ok {
		return kinds[i], true
	}
	if i := strings.IndexByte(w, '.'); i > 0 {
		if j, ok := byWord[w[:i]]; ok {
			return kinds[j], true
		}
	}
	return Kind{}, false
}

// Kinds returns the registry, in its order. The slice is shared: do not
// change it.
func Kinds() []Kind { return kinds }

// Simulated reports whether the engine simulates the kind (decodes it into
// its own type; controllers act on it).
func (k Kind) Simulated() bool { return k.New != nil }

// APIVersion is the kind's apiVersion: "apps/v1", or "v1" for the core group.
func (k Kind) APIVersion() string {
	if k.Group == "" {
		return k.Version
	}
	return k.Group + "/" + k.Version
}

// GroupResource names the resource as the API server does in messages:
// "deployments.apps", "pods".
func (k Kind) GroupResource() string {
	if k.Group == "" {
		return k.Resource
	}
	return k.Resource + "." + k.Group
}

// Qualified names the kind as kubectl does in what it prints about an
// object: "deployment.apps" (as in deployment.apps/web created), "pod".
func (k Kind) Qualified() string {
	if k.Group == "" {
		return LowerKind(k.Name)
	}
	return LowerKind(k.Name) + "." + k.Group
}
