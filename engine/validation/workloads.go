package validation

import (
	"reconcile/engine/api"
	"reconcile/engine/cron"
)

// DefaultStorageClass is the cluster's default StorageClass, as the
// DefaultStorageClass admission plugin fills it into a claim that names
// none. The simulated cluster provisions its volumes (see the
// persistentvolume-controller).
const DefaultStorageClass = "standard"

func defaultDaemonSet(d *api.DaemonSet) {
	s := &d.Spec
	if s.UpdateStrategy.Type == "" {
		s.UpdateStrategy.Type = api.RollingUpdateStrategy
	}
	if s.UpdateStrategy.Type == api.RollingUpdateStrategy {
		if s.UpdateStrategy.RollingUpdate == nil {
			s.UpdateStrategy.RollingUpdate = &api.RollingUpdateDaemonSet{}
		}
		ru := s.UpdateStrategy.RollingUpdate
		if ru.MaxUnavailable == nil {
			v := api.FromInt(1)
			ru.MaxUnavailable = &v
		}
		if ru.MaxSurge == nil {
			v := api.FromInt(0)
			ru.MaxSurge = &v
		}
	}
	if s.RevisionHistoryLimit == nil {
		s.RevisionHistoryLimit = api.Int32(DefaultRevisionHistoryLimit)
	}
	defaultPodSpec(&s.Template.Spec)
}

func defaultStatefulSet(st *api.StatefulSet) {
	s := &st.Spec
	if s.Replicas == nil {
		s.Replicas = api.Int32(1)
	}
	if s.PodManagementPolicy == "" {
		s.PodManagementPolicy = api.OrderedReadyPodManagement
	}
	if s.UpdateStrategy.Type == "" {
		s.UpdateStrategy.Type = api.RollingUpdateStrategy
	}
	if s.UpdateStrategy.Type == api.RollingUpdateStrategy {
		if s.UpdateStrategy.RollingUpdate == nil {
			s.UpdateStrategy.RollingUpdate = &api.RollingUpdateStatefulSetStrategy{}
		}
		if s.UpdateStrategy.RollingUpdate.Partition == nil {
			s.UpdateStrategy.RollingUpdate.Partition = api.Int32(0)
		}
	}
	if s.RevisionHistoryLimit == nil {
		s.RevisionHistoryLimit = api.Int32(DefaultRevisionHistoryLimit)
	}
	if s.PersistentVolumeClaimRetentionPolicy == nil {
		s.PersistentVolumeClaimRetentionPolicy = &api.StatefulSetPersistentVolumeClaimRetentionPolicy{}
	}
	if p := s.PersistentVolumeClaimRetentionPolicy; true {
		if p.WhenDeleted == "" {
			p.WhenDeleted = "Retain"
		}
		if p.WhenScaled == "" {
			p.WhenScaled = "Retain"
		}
	}
	for i := range s.VolumeClaimTemplates {
		c := &s.VolumeClaimTemplates[i]
		if c.Spec.VolumeMode == nil {
			c.Spec.VolumeMode = api.String("Filesystem")
		}
		if c.Status.Phase == "" {
			c.Status.Phase = api.ClaimPending
		}
	}
	defaultPodSpec(&s.Template.Spec)
}

func defaultCronJob(c *api.CronJob) {
	s := &c.Spec
	if s.ConcurrencyPolicy == "" {
		s.ConcurrencyPolicy = api.AllowConcurrent
	}
	if s.Suspend == nil {
		s.Suspend = api.Bool(false)
	}
	if s.SuccessfulJobsHistoryLimit == nil {
		s.SuccessfulJobsHistoryLimit = api.Int32(3)
	}
	if s.FailedJobsHistoryLimit == nil {
		s.FailedJobsHistoryLimit = api.Int32(1)
	}
	defaultPodSpec(&s.JobTemplate.Spec.Template.Spec)
}

func defaultClaim(c *api.PersistentVolumeClaim) {
	c.Spec.Resources.Requests = api.CanonicalList(c.Spec.Resources.Requests)
	c.Spec.Resources.Limits = api.CanonicalList(c.Spec.Resources.Limits)
	if c.Spec.VolumeMode == nil {
		c.Spec.VolumeMode = api.String("Filesystem")
	}
	if c.Spec.StorageClassName == nil && c.Spec.VolumeName == "" {
		c.Spec.StorageClassName = api.String(DefaultStorageClass)
	}
	if c.Status.Phase == "" {
		c.Status.Phase = api.ClaimPending
	}
}

func defaultVolume(v *api.PersistentVolume) {
	if v.Spec.VolumeMode == nil {
		v.Spec.VolumeMode = api.String("Filesystem")
	}
	if v.Spec.PersistentVolumeReclaimPolicy == "" {
		v.Spec.PersistentVolumeReclaimPolicy = "Retain"
	}
	if v.Status.Phase == "" {
		v.Status.Phase = api.VolumeAvailable
	}
}

func validateDaemonSetSpec(s *api.DaemonSetSpec, p Path) ErrorList {
	errs := validateSelectorAndTemplate(s.Selector, &s.Template, p)
	errs = append(errs, nonNegative(int64(s.MinReadySeconds), p.Child("minReadySeconds"))...)
	sp := p.Child("updateStrategy")
	switch s.UpdateStrategy.Type {
	case api.OnDeleteStrategy:
	case api.RollingUpdateStrategy:
		if ru := s.UpdateStrategy.RollingUpdate; ru != nil {
			rp := sp.Child("rollingUpdate")
			unavailable, surge := intOrZero(ru.MaxUnavailable), intOrZero(ru.MaxSurge)
			errs = append(errs, validateIntOrPercent(unavailable, rp.Child("maxUnavailable"))...)
			errs = append(errs, validateIntOrPercent(surge, rp.Child("maxSurge"))...)
			switch {
			case intOrPercentValue(unavailable) == 0 && intOrPercentValue(surge) == 0:
				errs = append(errs, Invalid(rp.Child("maxUnavailable"), unavailable, "may not be 0 when `maxSurge` is 0"))
			case intOrPercentValue(unavailable) != 0 && intOrPercentValue(surge) != 0:
				errs = append(errs, Invalid(rp.Child("maxSurge"), surge, "may not be set when maxUnavailable is non-zero"))
			}
		}
	default:
		errs = append(errs, NotSupported(sp.Child("type"), s.UpdateStrategy.Type, api.OnDeleteStrategy, api.RollingUpdateStrategy))
	}
	return errs
}

func validateStatefulSetSpec(s *api.StatefulSetSpec, p Path) ErrorList {
	var errs ErrorList
	switch s.PodManagementPolicy {
	case api.OrderedReadyPodManagement, api.ParallelPodManagement:
	default:
		errs = append(errs, NotSupported(p.Child("podManagementPolicy"), s.PodManagementPolicy, api.OrderedReadyPodManagement, api.ParallelPodManagement))
	}
	sp := p.Child("updateStrategy")
	switch s.UpdateStrategy.Type {
	case api.OnDeleteStrategy:
		if s.UpdateStrategy.RollingUpdate != nil {
			errs = append(errs, Invalid(sp.Child("rollingUpdate"), s.UpdateStrategy.RollingUpdate, "only allowed for updateStrategy 'RollingUpdate'"))
		}
	case api.RollingUpdateStrategy:
		if ru := s.UpdateStrategy.RollingUpdate; ru != nil && ru.Partition != nil {
			errs = append(errs, nonNegative(int64(*ru.Partition), sp.Child("rollingUpdate", "partition"))...)
		}
	default:
		errs = append(errs, NotSupported(sp.Child("type"), s.UpdateStrategy.Type, api.OnDeleteStrategy, api.RollingUpdateStrategy))
	}
	errs = append(errs, nonNegative(int64(api.Deref(s.Replicas, 1)), p.Child("replicas"))...)
	errs = append(errs, nonNegative(int64(s.MinReadySeconds), p.Child("minReadySeconds"))...)
	// The pods get a volume per claim template: their mounts may name them.
	t := s.Template.DeepCopy()
	for _, c := range s.VolumeClaimTemplates {
		if !hasVolume(t.Spec.More().Volumes, c.Name) {
			t.Spec.SetMore().Volumes = append(t.Spec.More().Volumes, api.Volume{Name: c.Name, PersistentVolumeClaim: &api.PersistentVolumeClaimReference{ClaimName: c.Name}})
		}
	}
	errs = append(errs, validateSelectorAndTemplate(s.Selector, &t, p)...)
	for i, c := range s.VolumeClaimTemplates {
		cp := p.Child("volumeClaimTemplates").Index(i)
		errs = append(errs, validateClaimSpec(&c.Spec, cp.Child("spec"))...)
	}
	return errs
}

func validateClaimSpec(s *api.PersistentVolumeClaimSpec, p Path) ErrorList {
	var errs ErrorList
	if len(s.AccessModes) == 0 {
		errs = append(errs, Required(p.Child("accessModes"), "at least 1 access mode is required"))
	}
	for _, m := range s.AccessModes {
		switch m {
		case "ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod":
		default:
			errs = append(errs, NotSupported(p.Child("accessModes"), m, "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"))
		}
	}
	if _, ok := s.Resources.Requests["storage"]; !ok {
		errs = append(errs, Required(p.Child("resources").Key("storage"), ""))
	}
	return errs
}

func validateCronJobSpec(s *api.CronJobSpec, p Path) ErrorList {
	var errs ErrorList
	if s.Schedule == "" {
		errs = append(errs, Required(p.Child("schedule"), ""))
	} else if _, err := cron.Parse(s.Schedule); err != nil {
		errs = append(errs, Invalid(p.Child("schedule"), s.Schedule, err.Error()))
	}
	if s.StartingDeadlineSeconds != nil {
		errs = append(errs, nonNegative(*s.StartingDeadlineSeconds, p.Child("startingDeadlineSeconds"))...)
	}
	switch s.ConcurrencyPolicy {
	case api.AllowConcurrent, api.ForbidConcurrent, api.ReplaceConcurrent:
	default:
		errs = append(errs, NotSupported(p.Child("concurrencyPolicy"), s.ConcurrencyPolicy, api.AllowConcurrent, api.ForbidConcurrent, api.ReplaceConcurrent))
	}
	if s.SuccessfulJobsHistoryLimit != nil {
		errs = append(errs, nonNegative(int64(*s.SuccessfulJobsHistoryLimit), p.Child("successfulJobsHistoryLimit"))...)
	}
	if s.FailedJobsHistoryLimit != nil {
		errs = append(errs, nonNegative(int64(*s.FailedJobsHistoryLimit), p.Child("failedJobsHistoryLimit"))...)
	}
	return append(errs, validateJobTemplate(&s.JobTemplate.Spec.Template, p.Child("jobTemplate", "spec", "template"))...)
}

func validateStatefulSetUpdate(old, new *api.StatefulSet) ErrorList {
	var errs ErrorList
	if !selectorsEqual(old.Spec.Selector, new.Spec.Selector) {
		errs = append(errs, Immutable(Path("spec.selector"), new.Spec.Selector))
	}
	// Only replicas, ordinals, template, updateStrategy,
	// persistentVolumeClaimRetentionPolicy and minReadySeconds may change.
	o, n := old.Spec, new.Spec
	if o.ServiceName != n.ServiceName || o.PodManagementPolicy != n.PodManagementPolicy || len(o.VolumeClaimTemplates) != len(n.VolumeClaimTemplates) {
		errs = append(errs, Forbidden(Path("spec"), "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"))
	}
	return errs
}

func hasVolume(vs []api.Volume, name string) bool {
	for _, v := range vs {
		if v.Name == name {
			return true
		}
	}
	return false
}
