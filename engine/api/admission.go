package api

// ValidatingWebhookConfiguration registers admission webhooks the API server
// calls before it stores an object (admissionregistration.k8s.io/v1).
type ValidatingWebhookConfiguration struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Webhooks   []ValidatingWebhook `json:"webhooks,omitempty" yaml:"webhooks,omitempty"`
}

// ValidatingWebhook is one webhook: what it intercepts, where it is served
// and what happens when it cannot be reached.
type ValidatingWebhook struct {
	Name                    string                   `json:"name" yaml:"name"`
	ClientConfig            WebhookClientConfig      `json:"clientConfig" yaml:"clientConfig"`
	Rules                   []RuleWithOperations     `json:"rules,omitempty" yaml:"rules,omitempty"`
	FailurePolicy           string                   `json:"failurePolicy,omitempty" yaml:"failurePolicy,omitempty"`
	TimeoutSeconds          *int32                   `json:"timeoutSeconds,omitempty" yaml:"timeoutSeconds,omitempty"`
	SideEffects             string                   `json:"sideEffects,omitempty" yaml:"sideEffects,omitempty"`
	AdmissionReviewVersions []string                 `json:"admissionReviewVersions,omitempty" yaml:"admissionReviewVersions,omitempty"`
	NamespaceSelector       *LabelSelector           `json:"namespaceSelector,omitempty" yaml:"namespaceSelector,omitempty"`
	ObjectSelector          *LabelSelector           `json:"objectSelector,omitempty" yaml:"objectSelector,omitempty"`
	MatchPolicy             string                   `json:"matchPolicy,omitempty" yaml:"matchPolicy,omitempty"`
	MatchConditions         []map[string]interface{} `json:"matchConditions,omitempty" yaml:"matchConditions,omitempty"`
}

// WebhookClientConfig says where a webhook is served.
type WebhookClientConfig struct {
	Service  *ServiceReference `json:"service,omitempty" yaml:"service,omitempty"`
	URL      string            `json:"url,omitempty" yaml:"url,omitempty"`
	CABundle string            `json:"caBundle,omitempty" yaml:"caBundle,omitempty"`
}

// ServiceReference names the Service in front of a webhook.
type ServiceReference struct {
	Namespace string `json:"namespace" yaml:"namespace"`
	Name      string `json:"name" yaml:"name"`
	Path      string `json:"path,omitempty" yaml:"path,omitempty"`
	Port      *int32 `json:"port,omitempty" yaml:"port,omitempty"`
}

// RuleWithOperations selects the requests a webhook intercepts.
type RuleWithOperations struct {
	Operations  []string `json:"operations,omitempty" yaml:"operations,omitempty"`
	APIGroups   []string `json:"apiGroups,omitempty" yaml:"apiGroups,omitempty"`
	APIVersions []string `json:"apiVersions,omitempty" yaml:"apiVersions,omitempty"`
	Resources   []string `json:"resources,omitempty" yaml:"resources,omitempty"`
	Scope       string   `json:"scope,omitempty" yaml:"scope,omitempty"`
}

// ResourceQuota caps what a namespace may consume (core/v1).
type ResourceQuota struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       ResourceQuotaSpec   `json:"spec" yaml:"spec"`
	Status     ResourceQuotaStatus `json:"status" yaml:"status,omitempty"`
}

// ResourceQuotaSpec holds the hard limits, e.g. pods, requests.cpu.
type ResourceQuotaSpec struct {
	Hard map[string]Quantity `json:"hard,omitempty" yaml:"hard,omitempty"`
}

// ResourceQuotaStatus is what is used against the limits.
type ResourceQuotaStatus struct {
	Hard map[string]Quantity `json:"hard,omitempty" yaml:"hard,omitempty"`
	Used map[string]Quantity `json:"used,omitempty" yaml:"used,omitempty"`
}

// Job runs pods to completion (batch/v1).
type Job struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       JobSpec   `json:"spec" yaml:"spec"`
	Status     JobStatus `json:"status" yaml:"status,omitempty"`
}

// JobSpec is the desired state of a Job.
type JobSpec struct {
	Parallelism    *int32          `json:"parallelism,omitempty" yaml:"parallelism,omitempty"`
	Completions    *int32          `json:"completions,omitempty" yaml:"completions,omitempty"`
	BackoffLimit   *int32          `json:"backoffLimit,omitempty" yaml:"backoffLimit,omitempty"`
	Selector       *LabelSelector  `json:"selector,omitempty" yaml:"selector,omitempty"`
	Template       PodTemplateSpec `json:"template" yaml:"template"`
	ManualSelector *bool           `json:"manualSelector,omitempty" yaml:"manualSelector,omitempty"`
	JobSpecMore    `json:",inline" yaml:",inline"`
}

// JobStatus counts the Job's pods.
type JobStatus struct {
	Active         int32          `json:"active,omitempty" yaml:"active,omitempty"`
	Succeeded      int32          `json:"succeeded,omitempty" yaml:"succeeded,omitempty"`
	Failed         int32          `json:"failed,omitempty" yaml:"failed,omitempty"`
	StartTime      *Time          `json:"startTime,omitempty" yaml:"-"`
	CompletionTime *Time          `json:"completionTime,omitempty" yaml:"-"`
	Conditions     []JobCondition `json:"conditions,omitempty" yaml:"conditions,omitempty"`
	// Ready counts the active pods that are ready; Terminating the pods
	// being deleted (set by the job controller on every sync).
	Ready       *int32 `json:"ready,omitempty" yaml:"ready,omitempty"`
	Terminating *int32 `json:"terminating,omitempty" yaml:"terminating,omitempty"`
	// CompletedIndexes are an Indexed Job's succeeded indexes, as
	// intervals ("0-2,4").
	CompletedIndexes string `json:"completedIndexes,omitempty" yaml:"completedIndexes,omitempty"`
	// FailedIndexes are the indexes of an Indexed Job with a backoff
	// limit per index that failed, as intervals ("" while none has).
	FailedIndexes *string `json:"failedIndexes,omitempty" yaml:"failedIndexes,omitempty"`
	// UncountedTerminatedPods are the pods that have ended and that the
	// job controller has noted but not counted yet: empty (not nil) once
	// the controller has synced the Job.
	UncountedTerminatedPods *UncountedTerminatedPods `json:"uncountedTerminatedPods,omitempty" yaml:"uncountedTerminatedPods,omitempty"`
}

// UncountedTerminatedPods lists pods by uid.
type UncountedTerminatedPods struct {
	Succeeded []string `json:"succeeded,omitempty" yaml:"succeeded,omitempty"`
	Failed    []string `json:"failed,omitempty" yaml:"failed,omitempty"`
}

// JobCondition is Complete or Failed.
type JobCondition struct {
	Type   string `json:"type" yaml:"type"`
	Status string `json:"status" yaml:"status"`
	// LastProbeTime is when the job controller added the condition.
	LastProbeTime      Time   `json:"lastProbeTime" yaml:"-"`
	LastTransitionTime Time   `json:"lastTransitionTime" yaml:"-"`
	Reason             string `json:"reason,omitempty" yaml:"reason,omitempty"`
	Message            string `json:"message,omitempty" yaml:"message,omitempty"`
}

// DeepCopy returns an independent copy of c.
func (c *ValidatingWebhookConfiguration) DeepCopy() *ValidatingWebhookConfiguration {
	out := *c
	out.ObjectMeta = c.ObjectMeta.DeepCopy()
	out.Webhooks = make([]ValidatingWebhook, len(c.Webhooks))
	for i, w := range c.Webhooks {
		if w.TimeoutSeconds != nil {
			w.TimeoutSeconds = copyInt32(w.TimeoutSeconds)
		}
		if w.ClientConfig.Service != nil {
			s := *w.ClientConfig.Service
			s.Port = copyInt32(s.Port)
			w.ClientConfig.Service = &s
		}
		rules := make([]RuleWithOperations, len(w.Rules))
		for j, r := range w.Rules {
			r.Operations = append([]string(nil), r.Operations...)
			r.APIGroups = append([]string(nil), r.APIGroups...)
			r.APIVersions = append([]string(nil), r.APIVersions...)
			r.Resources = append([]string(nil), r.Resources...)
			rules[j] = r
		}
		w.Rules = rules
		w.AdmissionReviewVersions = append([]string(nil), w.AdmissionReviewVersions...)
		w.NamespaceSelector = w.NamespaceSelector.DeepCopy()
		w.ObjectSelector = w.ObjectSelector.DeepCopy()
		if w.MatchConditions != nil {
			mc := make([]map[string]interface{}, len(w.MatchConditions))
			for j, m := range w.MatchConditions {
				mc[j] = deepCopyMap(m)
			}
			w.MatchConditions = mc
		}
		out.Webhooks[i] = w
	}
	return &out
}

// DeepCopy returns an independent copy of q.
func (q *ResourceQuota) DeepCopy() *ResourceQuota {
	out := *q
	out.ObjectMeta = q.ObjectMeta.DeepCopy()
	out.Spec.Hard = cloneQuantities(q.Spec.Hard)
	out.Status.Hard = cloneQuantities(q.Status.Hard)
	out.Status.Used = cloneQuantities(q.Status.Used)
	return &out
}

// DeepCopy returns an independent copy of j.
func (j *Job) DeepCopy() *Job {
	out := *j
	out.ObjectMeta = j.ObjectMeta.DeepCopy()
	out.Spec.Parallelism = copyInt32(j.Spec.Parallelism)
	out.Spec.Completions = copyInt32(j.Spec.Completions)
	out.Spec.BackoffLimit = copyInt32(j.Spec.BackoffLimit)
	out.Spec.Selector = j.Spec.Selector.DeepCopy()
	out.Spec.Template = j.Spec.Template.DeepCopy()
	out.Spec.JobSpecMore = j.Spec.JobSpecMore.DeepCopy()
	if j.Spec.ManualSelector != nil {
		v := *j.Spec.ManualSelector
		out.Spec.ManualSelector = &v
	}
	if j.Status.StartTime != nil {
		v := *j.Status.StartTime
		out.Status.StartTime = &v
	}
	if j.Status.CompletionTime != nil {
		v := *j.Status.CompletionTime
		out.Status.CompletionTime = &v
	}
	out.Status.Conditions = append([]JobCondition(nil), j.Status.Conditions...)
	out.Status.Ready, out.Status.Terminating = copyInt32(j.Status.Ready), copyInt32(j.Status.Terminating)
	if u := j.Status.UncountedTerminatedPods; u != nil {
		out.Status.UncountedTerminatedPods = &UncountedTerminatedPods{Succeeded: append([]string(nil), u.Succeeded...), Failed: append([]string(nil), u.Failed...)}
	}
	if f := j.Status.FailedIndexes; f != nil {
		v := *f
		out.Status.FailedIndexes = &v
	}
	return &out
}

func (c *ValidatingWebhookConfiguration) Meta() *ObjectMeta      { return &c.ObjectMeta }
func (q *ResourceQuota) Meta() *ObjectMeta                       { return &q.ObjectMeta }
func (j *Job) Meta() *ObjectMeta                                 { return &j.ObjectMeta }
func (c *ValidatingWebhookConfiguration) GetTypeMeta() *TypeMeta { return &c.TypeMeta }
func (q *ResourceQuota) GetTypeMeta() *TypeMeta                  { return &q.TypeMeta }
func (j *Job) GetTypeMeta() *TypeMeta                            { return &j.TypeMeta }
func (c *ValidatingWebhookConfiguration) DeepCopyObject() Object { return c.DeepCopy() }
func (q *ResourceQuota) DeepCopyObject() Object                  { return q.DeepCopy() }
func (j *Job) DeepCopyObject() Object                            { return j.DeepCopy() }
