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
	DefaultDNSPolicy                     = "ClusterFirst"
	DefaultTerminationMessagePath        = "/dev/termination-log"
	DefaultTerminationMessagePolicy      = "File"
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

// Namespaced reports whether objects of kind live in a namespace, as the
// kind registry says (a kind it does not list does).
func Namespaced(kind string) bool {
	k, _ := api.KindOf(kind)
	return k.Namespaced
}

// DefaultMeta fills in the namespace as the API server does before it
// validates: "default" for a namespaced kind that names none, none for a
// cluster-scoped one. What each kind defaults beyond is its strategy's
// (package kinds), through the functions below. Every default keeps the
// fields already set (a stored imagePullPolicy survives a later change of
// tag) and is idempotent.
func DefaultMeta(obj api.Object) {
	m := obj.Meta()
	if Namespaced(obj.GetTypeMeta().Kind) {
		if m.Namespace == "" {
			m.Namespace = DefaultNamespace
		}
	} else {
		m.Namespace = ""
	}
}

// DefaultDeployment fills in apps/v1's defaults of a Deployment.
func DefaultDeployment(d *api.Deployment) { defaultDeployment(d) }

// DefaultReplicaSet fills in apps/v1's defaults of a ReplicaSet.
func DefaultReplicaSet(r *api.ReplicaSet) {
	if r.Spec.Replicas == nil {
		r.Spec.Replicas = api.Int32(1)
	}
	defaultPodSpec(&r.Spec.Template.Spec)
}

// DefaultPod fills in core/v1's defaults of a Pod, the tolerations of the
// DefaultTolerationSeconds admission plugin, and the phase and QoS class
// the API server gives a pod it creates.
func DefaultPod(o *api.Pod) {
	requestsFromLimits(o.Spec.Containers)
	if o.Spec.PodSpecMore != nil {
		requestsFromLimits(o.Spec.InitContainers)
	}
	defaultSpec(&o.Spec, true)
	defaultTolerations(&o.Spec)
	if o.Status.Phase == "" {
		o.Status.Phase = api.PodPending // as the API server creates a pod
	}
	if o.Status.QOSClass == "" {
		o.Status.QOSClass = api.PodQOSClass(&o.Spec)
	}
}

// requestsFromLimits gives every container that has a limit and no
// request of the same resource the limit as its request, as core/v1's
// SetDefaults_Pod does (a pod's, not a template's: a Deployment's template
// keeps what it says, its pods get the request). It runs before admission,
// so a LimitRange's defaultRequest does not replace it. A container's
// requests are replaced by a new map, never written in place: a template's
// copy may share it.
func requestsFromLimits(cs []api.Container) {
	for i := range cs {
		r := &cs[i].Resources
		var out map[string]api.Quantity
		for _, k := range sortedQuantityKeys(r.Limits) {
			if _, ok := r.Requests[k]; ok {
				continue
			}
			if out == nil {
				out = make(map[string]api.Quantity, len(r.Requests)+len(r.Limits))
				for rk, rv := range r.Requests { // each key copied: order cannot matter
					out[rk] = rv
				}
			}
			out[k] = r.Limits[k]
		}
		if out != nil {
			r.Requests = out
		}
	}
}

// DefaultJob fills in batch/v1's defaults of a Job.
func DefaultJob(j *api.Job) { defaultJob(j) }

// DefaultDaemonSet fills in apps/v1's defaults of a DaemonSet.
func DefaultDaemonSet(d *api.DaemonSet) { defaultDaemonSet(d) }

// DefaultStatefulSet fills in apps/v1's defaults of a StatefulSet.
func DefaultStatefulSet(s *api.StatefulSet) { defaultStatefulSet(s) }

// DefaultCronJob fills in batch/v1's defaults of a CronJob.
func DefaultCronJob(c *api.CronJob) { defaultCronJob(c) }

// DefaultPersistentVolumeClaim fills in core/v1's defaults of a claim.
func DefaultPersistentVolumeClaim(c *api.PersistentVolumeClaim) { defaultClaim(c) }

// DefaultPersistentVolume fills in core/v1's defaults of a volume.
func DefaultPersistentVolume(v *api.PersistentVolume) { defaultVolume(v) }

// DefaultService fills in core/v1's defaults of a Service.
func DefaultService(s *api.Service) { defaultService(s) }

// DefaultEndpointSlice fills in discovery/v1's defaults of an EndpointSlice.
func DefaultEndpointSlice(e *api.EndpointSlice) { defaultEndpointSlice(e) }

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

func defaultPodSpec(s *api.PodSpec) { defaultSpec(s, false) }

// defaultSpec is SetDefaults_PodSpec, and with pod SetDefaults_Pod's
// enableServiceLinks, which a template does not get.
func defaultSpec(s *api.PodSpec, pod bool) {
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
	// The rare fields are written on a copy: a spec's may be shared.
	if w := s.More(); w.DNSPolicy == "" || w.SecurityContext == nil || w.DeprecatedServiceAccount != w.ServiceAccountName ||
		pod && w.EnableServiceLinks == nil {
		if pod && w.EnableServiceLinks == nil {
			w.EnableServiceLinks = api.Bool(true)
		}
		if w.DNSPolicy == "" {
			w.DNSPolicy = DefaultDNSPolicy
		}
		if w.SecurityContext == nil {
			w.SecurityContext = map[string]any{} // an empty PodSecurityContext
		}
		// serviceAccount is the deprecated name of serviceAccountName:
		// core/v1's conversion reads it when serviceAccountName is unset
		// and always writes it back equal.
		if w.ServiceAccountName == "" {
			w.ServiceAccountName = w.DeprecatedServiceAccount
		}
		w.DeprecatedServiceAccount = w.ServiceAccountName
		s.PodSpecMore = &w
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
