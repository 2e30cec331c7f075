package kinds

import (
	"testing"

	"reconcile/engine/api"
)

func template(app string) api.PodTemplateSpec {
	return api.PodTemplateSpec{
		ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": app}},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: app, Image: app + ":1"}}},
	}
}

func TestWorkloadDefaults(t *testing.T) {
	ds := &api.DaemonSet{TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "DaemonSet"}, ObjectMeta: api.ObjectMeta{Name: "agent"},
		Spec: api.DaemonSetSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "agent"}}, Template: template("agent")}}
	Default(ds)
	ru := ds.Spec.UpdateStrategy.RollingUpdate
	if ds.Spec.UpdateStrategy.Type != "RollingUpdate" || ru == nil || ru.MaxUnavailable.String() != "1" || ru.MaxSurge.String() != "0" || *ds.Spec.RevisionHistoryLimit != 10 {
		t.Errorf("DaemonSet defaults: %+v", ds.Spec.UpdateStrategy)
	}
	sts := &api.StatefulSet{TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: "StatefulSet"}, ObjectMeta: api.ObjectMeta{Name: "web"},
		Spec: api.StatefulSetSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, Template: template("web"),
			VolumeClaimTemplates: []api.PersistentVolumeClaim{{ObjectMeta: api.ObjectMeta{Name: "www"}}}}}
	Default(sts)
	s := sts.Spec
	if *s.Replicas != 1 || s.PodManagementPolicy != "OrderedReady" || *s.UpdateStrategy.RollingUpdate.Partition != 0 ||
		s.PersistentVolumeClaimRetentionPolicy.WhenDeleted != "Retain" || s.PersistentVolumeClaimRetentionPolicy.WhenScaled != "Retain" ||
		*s.VolumeClaimTemplates[0].Spec.VolumeMode != "Filesystem" || s.VolumeClaimTemplates[0].Status.Phase != "Pending" {
		t.Errorf("StatefulSet defaults: %+v", s)
	}
	cj := &api.CronJob{TypeMeta: api.TypeMeta{APIVersion: "batch/v1", Kind: "CronJob"}, ObjectMeta: api.ObjectMeta{Name: "hello"}}
	Default(cj)
	if cj.Spec.ConcurrencyPolicy != "Allow" || *cj.Spec.Suspend || *cj.Spec.SuccessfulJobsHistoryLimit != 3 || *cj.Spec.FailedJobsHistoryLimit != 1 {
		t.Errorf("CronJob defaults: %+v", cj.Spec)
	}
	pvc := &api.PersistentVolumeClaim{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "PersistentVolumeClaim"}, ObjectMeta: api.ObjectMeta{Name: "data"}}
	Default(pvc)
	if *pvc.Spec.StorageClassName != "standard" || pvc.Status.Phase != "Pending" {
		t.Errorf("claim defaults: %+v", pvc)
	}
}

func TestValidateWorkloads(t *testing.T) {
	sel := &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	claim := api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "www"}, Spec: api.PersistentVolumeClaimSpec{AccessModes: []string{"ReadWriteOnce"},
		Resources: api.VolumeResourceRequirements{Requests: map[string]api.Quantity{"storage": "1Gi"}}}}
	job := api.JobTemplateSpec{Spec: api.JobSpec{Template: template("hello")}}
	job.Spec.Template.Spec.RestartPolicy = "OnFailure"
	tests := []struct {
		name string
		obj  api.Object
		want string
	}{
		{"daemonset", &api.DaemonSet{TypeMeta: api.TypeMeta{Kind: "DaemonSet"}, ObjectMeta: api.ObjectMeta{Name: "agent"},
			Spec: api.DaemonSetSpec{Selector: sel, Template: template("web")}}, ""},
		{"daemonset selector", &api.DaemonSet{TypeMeta: api.TypeMeta{Kind: "DaemonSet"}, ObjectMeta: api.ObjectMeta{Name: "agent"},
			Spec: api.DaemonSetSpec{Selector: sel, Template: template("agent")}},
			"The DaemonSet \"agent\" is invalid: spec.template.metadata.labels: Invalid value: {\"app\":\"agent\"}: `selector` does not match template `labels`"},
		{"daemonset OnDelete", &api.DaemonSet{TypeMeta: api.TypeMeta{Kind: "DaemonSet"}, ObjectMeta: api.ObjectMeta{Name: "agent"},
			Spec: api.DaemonSetSpec{Selector: sel, Template: template("web"), UpdateStrategy: api.DaemonSetUpdateStrategy{Type: "Sometimes"}}},
			`The DaemonSet "agent" is invalid: spec.updateStrategy.type: Unsupported value: "Sometimes": supported values: "OnDelete", "RollingUpdate"`},
		{"statefulset", &api.StatefulSet{TypeMeta: api.TypeMeta{Kind: "StatefulSet"}, ObjectMeta: api.ObjectMeta{Name: "web"},
			Spec: api.StatefulSetSpec{Selector: sel, Template: template("web"), VolumeClaimTemplates: []api.PersistentVolumeClaim{claim}}}, ""},
		{"statefulset negative replicas", &api.StatefulSet{TypeMeta: api.TypeMeta{Kind: "StatefulSet"}, ObjectMeta: api.ObjectMeta{Name: "web"},
			Spec: api.StatefulSetSpec{Replicas: api.Int32(-1), Selector: sel, Template: template("web")}},
			`The StatefulSet "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0`},
		{"statefulset policy", &api.StatefulSet{TypeMeta: api.TypeMeta{Kind: "StatefulSet"}, ObjectMeta: api.ObjectMeta{Name: "web"},
			Spec: api.StatefulSetSpec{PodManagementPolicy: "Random", Selector: sel, Template: template("web")}},
			`The StatefulSet "web" is invalid: spec.podManagementPolicy: Unsupported value: "Random": supported values: "OrderedReady", "Parallel"`},
		{"cronjob", &api.CronJob{TypeMeta: api.TypeMeta{Kind: "CronJob"}, ObjectMeta: api.ObjectMeta{Name: "hello"},
			Spec: api.CronJobSpec{Schedule: "@hourly", JobTemplate: job}}, ""},
		{"cronjob schedule", &api.CronJob{TypeMeta: api.TypeMeta{Kind: "CronJob"}, ObjectMeta: api.ObjectMeta{Name: "hello"},
			Spec: api.CronJobSpec{Schedule: "61 * * * *", JobTemplate: job}},
			`The CronJob "hello" is invalid: spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61`},
		{"cronjob policy", &api.CronJob{TypeMeta: api.TypeMeta{Kind: "CronJob"}, ObjectMeta: api.ObjectMeta{Name: "hello"},
			Spec: api.CronJobSpec{Schedule: "* * * * *", ConcurrencyPolicy: "Sometimes", JobTemplate: job}},
			`The CronJob "hello" is invalid: spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"`},
	}
	for _, tt := range tests {
		if got := createError(tt.obj); got != tt.want {
			t.Errorf("%s:\n got  %s\n want %s", tt.name, got, tt.want)
		}
	}
}
