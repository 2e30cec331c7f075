package validation

import (
	"strings"

	"reconcile/engine/api"
)

// Defaults the API server fills in (Kubernetes' SetDefaults_* functions and
// the DefaultTolerationSeconds admission plugin).
const (
	DefaultNamespace                     = "default"
	DefaultSchedulerName                 = "default-scheduler"
	DefaultRevisionHistoryLimit          = 10
	DefaultProgressDeadlineSeconds       = 600
	DefaultTerminationGracePeriodSeconds = 30
	// DefaultTolerationSeconds is how long a pod stays on a node that is
	// not-ready or unreachable before it is evicted.
	DefaultTolerationSeconds = 300
	TaintNodeNotReady        = "node.kubernetes.io/not-ready"
	TaintNodeUnreachable     = "node.kubernetes.io/unreachable"
)

// DefaultMaxSurge and DefaultMaxUnavailable are a RollingUpdate's defaults.
var (
	DefaultMaxSurge       = api.FromString("25%")
	DefaultMaxUnavailable = api.FromString("25%")
)

// clusterScoped lists the kinds that live outside namespaces.
var clusterScoped = map[string]bool{
	"Node": true, "Namespace": true, "PersistentVolume": true, "StorageClass": true,
	"ClusterRole": true, "ClusterRoleBinding": true, "CustomResourceDefinition": true,
	"ValidatingWebhookConfiguration": true, "MutatingWebhookConfiguration": true,
	"ValidatingAdmissionPolicy": true, "ValidatingAdmissionPolicyBinding": true,
	"PriorityClass": true, "IngressClass": true, "RuntimeClass": true, "APIService": true,
	"CSIDriver": true, "CSINode": true, "VolumeAttachment": true,
}

// Namespaced reports whether objects of kind live in a namespace.
func Namespaced(kind string) bool { return !clusterScoped[kind] }

// Default fills in what a client may leave out, in place, as the API server
// does before it validates: the namespace, and for workloads and pods the
// defaults of apps/v1 and core/v1. Fields already set are kept (so a stored
// imagePullPolicy survives a later change of tag). Default is idempotent.
func Default(obj api.Object) {
	m := obj.Meta()
	if Namespaced(obj.GetTypeMeta().Kind) {
		if m.Namespace == "" {
			m.Namespace = DefaultNamespace
		}
	} else {
		m.Namespace = ""
	}
	switch o := obj.(type) {
	case *api.Deployment:
		defaultDeployment(o)
	case *api.ReplicaSet:
		if o.Spec.Replicas == nil {
			o.Spec.Replicas = api.Int32(1)
		}
		defaultPodSpec(&o.Spec.Template.Spec)
	case *api.Pod:
		defaultPodSpec(&o.Spec)
		defaultTolerations(&o.Spec)
		if o.Status.Phase == "" {
			o.Status.Phase = api.PodPending // as the API server creates a pod
		}
		if o.Status.QOSClass == "" {
			o.Status.QOSClass = api.PodQOSClass(&o.Spec)
		}
	case *api.Job:
		defaultJob(o)
	case *api.DaemonSet:
		defaultDaemonSet(o)
	case *api.StatefulSet:
		defaultStatefulSet(o)
	case *api.CronJob:
		defaultCronJob(o)
	case *api.PersistentVolumeClaim:
		defaultClaim(o)
	case *api.PersistentVolume:
		defaultVolume(o)
	case *api.Service:
		defaultService(o)
	case *api.EndpointSlice:
		defaultEndpointSlice(o)
	}
}

func defaultDeployment(d *api.Deployment) {
	s := &d.Spec
	if s.Replicas == nil {
		s.Replicas = api.Int32(1)
	}
	if s.Strategy.Type == "" {
		s.Strategy.Type = api.RollingUpdateStrategy
	}
	if s.Strategy.Type == api.RollingUpdateStrategy {
		if s.Strategy.RollingUpdate == nil {
			s.Strategy.RollingUpdate = &api.RollingUpdateDeployment{}
		}
		ru := s.Strategy.RollingUpdate
		if ru.MaxUnavailable == nil {
			v := DefaultMaxUnavailable
			ru.MaxUnavailable = &v
		}
		if ru.MaxSurge == nil {
			v := DefaultMaxSurge
			ru.MaxSurge = &v
		}
	}
	if s.RevisionHistoryLimit == nil {
		s.RevisionHistoryLimit = api.Int32(DefaultRevisionHistoryLimit)
	}
	if s.ProgressDeadlineSeconds == nil {
		s.ProgressDeadlineSeconds = api.Int32(DefaultProgressDeadlineSeconds)
	}
	defaultPodSpec(&s.Template.Spec)
}

func defaultPodSpec(s *api.PodSpec) {
	if s.RestartPolicy == "" {
		s.RestartPolicy = "Always"
	}
	if s.TerminationGracePeriodSeconds == nil {
		v := int64(DefaultTerminationGracePeriodSeconds)
		s.TerminationGracePeriodSeconds = &v
	}
	if s.SchedulerName == "" {
		s.SchedulerName = DefaultSchedulerName
	}
	for i := range s.Containers {
		defaultContainer(&s.Containers[i])
	}
	defaultPodSpecMore(s)
	s.NormalizeRare()
}

func defaultProbe(p *api.Probe) {
	if p == nil {
		return
	}
	p.HTTPGet = defaultHTTPGet(p.HTTPGet)
	if p.TimeoutSeconds == 0 {
		p.TimeoutSeconds = 1
	}
	if p.PeriodSeconds == 0 {
		p.PeriodSeconds = 10
	}
	if p.SuccessThreshold == 0 {
		p.SuccessThreshold = 1
	}
	if p.FailureThreshold == 0 {
		p.FailureThreshold = 3
	}
	if p.GRPC != nil && p.GRPC.Service == nil {
		empty := "" // the API server defaults grpc.service to ""
		p.GRPC.Service = &empty
	}
}

// DefaultPullPolicy returns the imagePullPolicy Kubernetes gives a container
// that sets none: Always for the tag "latest" or for an image with neither a
// tag nor a digest ("nginx"), IfNotPresent otherwise ("nginx:1.25",
// "nginx@sha256:...").
func DefaultPullPolicy(image string) string {
	if tag, digest := ImageTag(image); tag == "latest" || (tag == "" && !digest) {
		return "Always"
	}
	return "IfNotPresent"
}

// ImageTag returns the tag of an image reference ("" when it has none) and
// whether it names a digest. "registry:5000/shop/web:1.0" has the tag "1.0";
// "registry:5000/shop/web" has none.
func ImageTag(image string) (tag string, digest bool) {
	if i := strings.Index(image, "@"); i >= 0 {
		image, digest = image[:i], true
	}
	slash := strings.LastIndex(image, "/")
	if colon := strings.LastIndex(image, ":"); colon > slash {
		tag = image[colon+1:]
	}
	return tag, digest
}

// defaultTolerations adds the tolerations the DefaultTolerationSeconds
// admission plugin gives every pod: 300 seconds on a not-ready or
// unreachable node before eviction, unless the pod already tolerates it.
func defaultTolerations(s *api.PodSpec) {
	for _, key := range []string{TaintNodeNotReady, TaintNodeUnreachable} {
		taint := api.Taint{Key: key, Effect: "NoExecute"}
		tolerated := false
		for _, t := range s.Tolerations {
			if t.Tolerates(taint) {
				tolerated = true
			}
		}
		if !tolerated {
			secs := int64(DefaultTolerationSeconds)
			s.Tolerations = append(s.Tolerations, api.Toleration{
				Key: key, Operator: "Exists", Effect: "NoExecute", TolerationSeconds: &secs})
		}
	}
}
