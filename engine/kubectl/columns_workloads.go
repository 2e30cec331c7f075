package kubectl

import (
	"fmt"
	"strings"

	"reconcile/engine/api"
)

// The columns of DaemonSets, StatefulSets, CronJobs, PersistentVolumeClaims
// and PersistentVolumes, as the API server's table printers (v1.34) lay
// them out.

func workloadColumns(kind string) (base, wide []string, ok bool) {
	switch kind {
	case "DaemonSet":
		return []string{"NAME", "DESIRED", "CURRENT", "READY", "UP-TO-DATE", "AVAILABLE", "NODE SELECTOR", "AGE"}, []string{"CONTAINERS", "IMAGES", "SELECTOR"}, true
	case "StatefulSet":
		return []string{"NAME", "READY", "AGE"}, []string{"CONTAINERS", "IMAGES"}, true
	case "CronJob":
		return []string{"NAME", "SCHEDULE", "TIMEZONE", "SUSPEND", "ACTIVE", "LAST SCHEDULE", "AGE"}, []string{"CONTAINERS", "IMAGES", "SELECTOR"}, true
	case "PersistentVolumeClaim":
		return []string{"NAME", "STATUS", "VOLUME", "CAPACITY", "ACCESS MODES", "STORAGECLASS", "VOLUMEATTRIBUTESCLASS", "AGE"}, []string{"VOLUMEMODE"}, true
	case "ControllerRevision":
		return []string{"NAME", "CONTROLLER", "REVISION", "AGE"}, nil, true
	case "PersistentVolume":
		return []string{"NAME", "CAPACITY", "ACCESS MODES", "RECLAIM POLICY", "STATUS", "CLAIM", "STORAGECLASS", "VOLUMEATTRIBUTESCLASS", "REASON", "AGE"}, []string{"VOLUMEMODE"}, true
	}
	return nil, nil, false
}

func (k *cmd) workloadCells(o api.Object, wide bool) ([]string, bool) {
	now := k.now
	var c []string
	switch t := o.(type) {
	case *api.DaemonSet:
		s := t.Status
		c = []string{t.Name, fmt.Sprint(s.DesiredNumberScheduled), fmt.Sprint(s.CurrentNumberScheduled), fmt.Sprint(s.NumberReady),
			fmt.Sprint(s.UpdatedNumberScheduled), fmt.Sprint(s.NumberAvailable), formatLabels(t.Spec.Template.Spec.NodeSelector), age(now, t.CreationTimestamp)}
		if wide {
			c = append(c, workloadCells(&t.Spec.Template, t.Spec.Selector)...)
		}
	case *api.StatefulSet:
		c = []string{t.Name, fmt.Sprintf("%d/%d", t.Status.ReadyReplicas, api.Deref(t.Spec.Replicas, 1)), age(now, t.CreationTimestamp)}
		if wide {
			c = append(c, workloadCells(&t.Spec.Template, t.Spec.Selector)[:2]...)
		}
	case *api.CronJob:
		tz := "<none>"
		if t.Spec.TimeZone != nil {
			tz = *t.Spec.TimeZone
		}
		suspend := "<unset>"
		if t.Spec.Suspend != nil {
			suspend = map[bool]string{true: "True", false: "False"}[*t.Spec.Suspend]
		}
		last := "<none>"
		if t.Status.LastScheduleTime != nil {
			last = age(now, *t.Status.LastScheduleTime)
		}
		c = []string{t.Name, t.Spec.Schedule, tz, suspend, fmt.Sprint(len(t.Status.Active)), last, age(now, t.CreationTimestamp)}
		if wide {
			c = append(c, workloadCells(&t.Spec.JobTemplate.Spec.Template, t.Spec.JobTemplate.Spec.Selector)...)
		}
	case *api.PersistentVolumeClaim:
		capacity, modes := "", ""
		if t.Spec.VolumeName != "" {
			capacity = string(t.Status.Capacity["storage"])
			modes = accessModes(t.Status.AccessModes)
		}
		c = []string{t.Name, t.Status.Phase, t.Spec.VolumeName, capacity, modes, derefOr(t.Spec.StorageClassName, ""),
			derefOr(t.Spec.VolumeAttributesClassName, "<unset>"), age(now, t.CreationTimestamp)}
		if wide {
			c = append(c, derefOr(t.Spec.VolumeMode, "<unset>"))
		}
	case *api.PersistentVolume:
		claim := ""
		if r := t.Spec.ClaimRef; r != nil {
			claim = r.Namespace + "/" + r.Name
		}
		c = []string{t.Name, string(t.Spec.Capacity["storage"]), accessModes(t.Spec.AccessModes), t.Spec.PersistentVolumeReclaimPolicy,
			t.Status.Phase, claim, t.Spec.StorageClassName, derefOr(t.Spec.VolumeAttributesClassName, "<unset>"), t.Status.Reason, age(now, t.CreationTimestamp)}
		if wide {
			c = append(c, derefOr(t.Spec.VolumeMode, "<unset>"))
		}
	case *api.ControllerRevision:
		owner := "<none>"
		if ref := t.ControllerOf(); ref != nil {
			owner = strings.ToLower(ref.Kind)
			if group, _, ok := strings.Cut(ref.APIVersion, "/"); ok {
				owner += "." + group
			}
			owner += "/" + ref.Name
		}
		c = []string{t.Name, owner, fmt.Sprint(t.Revision), age(now, t.CreationTimestamp)}
	default:
		return nil, false
	}
	return c, true
}

func derefOr(p *string, def string) string {
	if p == nil {
		return def
	}
	return *p
}

// accessModes abbreviates access modes as kubectl does: RWO, ROX, RWX,
// RWOP, in that order.
func accessModes(modes []string) string {
	var out []string
	for _, m := range []struct{ long, short string }{{"ReadWriteOnce", "RWO"}, {"ReadOnlyMany", "ROX"}, {"ReadWriteMany", "RWX"}, {"ReadWriteOncePod", "RWOP"}} {
		for _, have := range modes {
			if have == m.long {
				out = append(out, m.short)
				break
			}
		}
	}
	return strings.Join(out, ",")
}
