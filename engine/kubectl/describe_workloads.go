package kubectl

import (
	"cmp"
	"fmt"
	"sort"
	"strings"

	"reconcile/engine/api"
)

// Describers of DaemonSets, StatefulSets, CronJobs, claims and volumes, in
// kubectl's layout.

func (k *cmd) describeWorkload(w *pw, o api.Object) bool {
	switch t := o.(type) {
	case *api.DaemonSet:
		k.describeDaemonSet(w, t)
	case *api.StatefulSet:
		k.describeStatefulSet(w, t)
	case *api.CronJob:
		k.describeCronJob(w, t)
	case *api.PersistentVolumeClaim:
		k.describeClaim(w, t)
	case *api.PersistentVolume:
		describeVolume(w, t)
	default:
		return false
	}
	return true
}

func (k *cmd) describeDaemonSet(w *pw, d *api.DaemonSet) {
	w.line(0, "Name:\t%s\n", d.Name)
	w.line(0, "Namespace:\t%s\n", d.Namespace)
	w.line(0, "Selector:\t%s\n", FormatSelector(d.Spec.Selector))
	w.line(0, "Node-Selector:\t%s\n", formatLabels(d.Spec.Template.Spec.NodeSelector))
	labelsBlock(w, "Labels", d.Labels)
	annotationsBlock(w, "Annotations", d.Annotations)
	s := d.Status
	w.line(0, "Desired Number of Nodes Scheduled: %d\n", s.DesiredNumberScheduled)
	w.line(0, "Current Number of Nodes Scheduled: %d\n", s.CurrentNumberScheduled)
	w.line(0, "Number of Nodes Scheduled with Up-to-date Pods: %d\n", s.UpdatedNumberScheduled)
	w.line(0, "Number of Nodes Scheduled with Available Pods: %d\n", s.NumberAvailable)
	w.line(0, "Number of Nodes Misscheduled: %d\n", s.NumberMisscheduled)
	r, wt, sc, f := k.podCounts(d.UID)
	w.line(0, "Pods Status:\t%d Running / %d Waiting / %d Succeeded / %d Failed\n", r, wt, sc, f)
	describePodTemplate(w, &d.Spec.Template, 0)
}

func (k *cmd) describeStatefulSet(w *pw, s *api.StatefulSet) {
	w.line(0, "Name:\t%s\n", s.Name)
	w.line(0, "Namespace:\t%s\n", s.Namespace)
	w.line(0, "CreationTimestamp:\t%s\n", when(s.CreationTimestamp))
	w.line(0, "Selector:\t%s\n", FormatSelector(s.Spec.Selector))
	labelsBlock(w, "Labels", s.Labels)
	annotationsBlock(w, "Annotations", s.Annotations)
	w.line(0, "Replicas:\t%d desired | %d total\n", api.Deref(s.Spec.Replicas, 1), s.Status.Replicas)
	w.line(0, "Update Strategy:\t%s\n", s.Spec.UpdateStrategy.Type)
	if ru := s.Spec.UpdateStrategy.RollingUpdate; ru != nil && ru.Partition != nil {
		w.line(0, "  Partition:\t%d\n", *ru.Partition)
	}
	r, wt, sc, f := k.podCounts(s.UID)
	w.line(0, "Pods Status:\t%d Running / %d Waiting / %d Succeeded / %d Failed\n", r, wt, sc, f)
	describePodTemplate(w, &s.Spec.Template, 0)
	if len(s.Spec.VolumeClaimTemplates) == 0 {
		w.line(0, "Volume Claims:\t<none>\n")
		return
	}
	w.line(0, "Volume Claims:\n")
	for _, c := range s.Spec.VolumeClaimTemplates {
		w.line(1, "Name:\t%s\n", c.Name)
		w.line(1, "StorageClass:\t%s\n", derefOr(c.Spec.StorageClassName, ""))
		labelsBlock(w, "  Labels", c.Labels)
		annotationsBlock(w, "  Annotations", c.Annotations)
		w.line(1, "Capacity:\t%s\n", c.Spec.Resources.Requests["storage"])
		w.line(1, "Access Modes:\t[%s]\n", strings.Join(c.Spec.AccessModes, " "))
	}
}

func (k *cmd) describeCronJob(w *pw, c *api.CronJob) {
	w.line(0, "Name:\t%s\n", c.Name)
	w.line(0, "Namespace:\t%s\n", c.Namespace)
	labelsBlock(w, "Labels", c.Labels)
	annotationsBlock(w, "Annotations", c.Annotations)
	w.line(0, "Schedule:\t%s\n", c.Spec.Schedule)
	if c.Spec.TimeZone != nil {
		w.line(0, "TimeZone:\t%s\n", *c.Spec.TimeZone)
	}
	w.line(0, "Concurrency Policy:\t%s\n", c.Spec.ConcurrencyPolicy)
	suspend := "<unset>"
	if c.Spec.Suspend != nil {
		suspend = map[bool]string{true: "True", false: "False"}[*c.Spec.Suspend]
	}
	w.line(0, "Suspend:\t%s\n", suspend)
	int32Line := func(title string, p *int32) {
		if p == nil {
			w.line(0, "%s:\t<unset>\n", title)
		} else {
			w.line(0, "%s:\t%d\n", title, *p)
		}
	}
	int32Line("Successful Job History Limit", c.Spec.SuccessfulJobsHistoryLimit)
	int32Line("Failed Job History Limit", c.Spec.FailedJobsHistoryLimit)
	if c.Spec.StartingDeadlineSeconds != nil {
		w.line(0, "Starting Deadline Seconds:\t%ds\n", *c.Spec.StartingDeadlineSeconds)
	} else {
		w.line(0, "Starting Deadline Seconds:\t<unset>\n")
	}
	js := c.Spec.JobTemplate.Spec
	if js.Selector != nil {
		w.line(0, "Selector:\t%s\n", FormatSelector(js.Selector))
	} else {
		w.line(0, "Selector:\t<unset>\n")
	}
	int32Line("Parallelism", js.Parallelism)
	int32Line("Completions", js.Completions)
	describePodTemplate(w, &js.Template, 0)
	if c.Status.LastScheduleTime != nil {
		w.line(0, "Last Schedule Time:\t%s\n", when(*c.Status.LastScheduleTime))
	} else {
		w.line(0, "Last Schedule Time:\t<unset>\n")
	}
	var active []string
	for _, r := range c.Status.Active {
		active = append(active, r.Name)
	}
	w.line(0, "Active Jobs:\t%s\n", orNone(strings.Join(active, ", ")))
}

func (k *cmd) describeClaim(w *pw, c *api.PersistentVolumeClaim) {
	w.line(0, "Name:\t%s\n", c.Name)
	w.line(0, "Namespace:\t%s\n", c.Namespace)
	w.line(0, "StorageClass:\t%s\n", derefOr(c.Spec.StorageClassName, ""))
	w.line(0, "Status:\t%s\n", c.Status.Phase)
	w.line(0, "Volume:\t%s\n", c.Spec.VolumeName)
	labelsBlock(w, "Labels", c.Labels)
	annotationsBlock(w, "Annotations", c.Annotations)
	w.line(0, "Finalizers:\t[]\n") // the simulated API server keeps no finalizers
	w.line(0, "Capacity:\t%s\n", c.Status.Capacity["storage"])
	w.line(0, "Access Modes:\t%s\n", accessModes(c.Status.AccessModes))
	w.line(0, "VolumeMode:\t%s\n", derefOr(c.Spec.VolumeMode, "Filesystem"))
	var users []string
	for _, o := range k.st.List("Pod") {
		p := o.(*api.Pod)
		if p.Namespace != c.Namespace {
			continue
		}
		for _, v := range p.Spec.More().Volumes {
			if v.PersistentVolumeClaim != nil && v.PersistentVolumeClaim.ClaimName == c.Name {
				users = append(users, p.Name)
			}
		}
	}
	sort.Strings(users)
	w.line(0, "Used By:\t%s\n", orNone(strings.Join(users, "\n\t")))
}

func describeVolume(w *pw, v *api.PersistentVolume) {
	w.line(0, "Name:\t%s\n", v.Name)
	labelsBlock(w, "Labels", v.Labels)
	annotationsBlock(w, "Annotations", v.Annotations)
	w.line(0, "Finalizers:\t[]\n")
	w.line(0, "StorageClass:\t%s\n", v.Spec.StorageClassName)
	w.line(0, "Status:\t%s\n", v.Status.Phase)
	claim := ""
	if r := v.Spec.ClaimRef; r != nil {
		claim = r.Namespace + "/" + r.Name
	}
	w.line(0, "Claim:\t%s\n", claim)
	w.line(0, "Reclaim Policy:\t%s\n", v.Spec.PersistentVolumeReclaimPolicy)
	w.line(0, "Access Modes:\t%s\n", accessModes(v.Spec.AccessModes))
	w.line(0, "VolumeMode:\t%s\n", derefOr(v.Spec.VolumeMode, "Filesystem"))
	w.line(0, "Capacity:\t%s\n", v.Spec.Capacity["storage"])
	w.line(0, "Node Affinity:\t<none>\n")
	w.line(0, "Message:\t%s\n", v.Status.Message)
	w.line(0, "Source:\n")
	if v.Spec.HostPath != nil {
		w.line(2, "Type:\tHostPath (bare host directory volume)\n")
		w.line(2, "Path:\t%v\n", v.Spec.HostPath["path"])
		w.line(2, "HostPathType:\t%v\n", v.Spec.HostPath["type"])
	}
}

// describeVolumes prints a pod's (or a template's, with prefix "  ")
// volumes as kubectl does, by source.
func describeVolumes(w *pw, prefix string, vols []api.Volume) {
	if len(vols) == 0 {
		w.line(0, "%sVolumes:\t<none>\n", prefix)
		return
	}
	w.line(0, "%sVolumes:\n", prefix)
	nameIndent := ""
	if prefix != "" {
		nameIndent = " "
	}
	str := func(m map[string]any, key, def string) string {
		if v, ok := m[key]; ok && v != nil {
			return fmt.Sprint(v)
		}
		return def
	}
	for _, v := range vols {
		w.line(1, "%s%s:\n", nameIndent, v.Name)
		switch {
		case v.HostPath != nil:
			w.line(2, "Type:\tHostPath (bare host directory volume)\n    Path:\t%s\n    HostPathType:\t%s\n", str(v.HostPath, "path", ""), str(v.HostPath, "type", "<none>"))
		case v.EmptyDir != nil:
			w.line(2, "Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t%s\n    SizeLimit:\t%s\n", v.EmptyDir.Medium, cmp.Or(string(v.EmptyDir.SizeLimit), "<unset>"))
		case v.PersistentVolumeClaim != nil:
			w.line(2, "Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:\t%s\n    ReadOnly:\t%v\n", v.PersistentVolumeClaim.ClaimName, v.PersistentVolumeClaim.ReadOnly)
		case v.ConfigMap != nil:
			w.line(2, "Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t%s\n    Optional:\t%s\n", v.ConfigMap.Name, optionalText(v.ConfigMap.Optional))
		case v.Secret != nil:
			w.line(2, "Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t%s\n    Optional:\t%s\n", v.Secret.SecretName, optionalText(v.Secret.Optional))
		default:
			w.line(1, "<unknown>\n")
		}
	}
}

// optionalText is a volume source's Optional as kubectl prints it.
func optionalText(b *bool) string { return fmt.Sprint(b != nil && *b) }

// describeMounts prints a container's volume mounts as kubectl does, by
// mount path.
func describeMounts(w *pw, mounts []api.VolumeMount) {
	if len(mounts) == 0 {
		w.line(2, "Mounts:\t<none>\n")
		return
	}
	ms := append([]api.VolumeMount(nil), mounts...)
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].MountPath < ms[j].MountPath })
	w.line(2, "Mounts:\n")
	for _, m := range ms {
		flags := []string{"rw"}
		if m.ReadOnly {
			flags[0] = "ro"
		}
		if m.SubPath != "" {
			flags = append(flags, fmt.Sprintf("path=%q", m.SubPath))
		}
		w.line(3, "%s from %s (%s)\n", m.MountPath, m.Name, strings.Join(flags, ","))
	}
}
