package kinds

import (
	"reflect"

	"reconcile/engine/api"
	"reconcile/engine/validation"
)

var _ = Define(Def[*api.PersistentVolume]{
	Kind:            "PersistentVolume",
	Default:         validation.DefaultPersistentVolume,
	BumpsGeneration: func(old, new *api.PersistentVolume) bool { return !reflect.DeepEqual(new.Spec, old.Spec) },
	KeepStatus:      func(obj, old *api.PersistentVolume) { obj.Status = old.Status },
	KeepSpec:        func(obj, old *api.PersistentVolume) { obj.Spec = old.Spec },
	Columns: []TypedColumn[*api.PersistentVolume]{Name[*api.PersistentVolume](),
		{Name: "CAPACITY", Cell: func(v *api.PersistentVolume, _ api.Time) string { return string(v.Spec.Capacity["storage"]) }},
		{Name: "ACCESS MODES", Cell: func(v *api.PersistentVolume, _ api.Time) string { return AccessModes(v.Spec.AccessModes) }},
		{Name: "RECLAIM POLICY", Cell: func(v *api.PersistentVolume, _ api.Time) string { return v.Spec.PersistentVolumeReclaimPolicy }},
		{Name: "STATUS", Cell: func(v *api.PersistentVolume, _ api.Time) string { return v.Status.Phase }},
		{Name: "CLAIM", Cell: func(v *api.PersistentVolume, _ api.Time) string {
			if r := v.Spec.ClaimRef; r != nil {
				return r.Namespace + "/" + r.Name
			}
			return ""
		}},
		{Name: "STORAGECLASS", Cell: func(v *api.PersistentVolume, _ api.Time) string { return v.Spec.StorageClassName }},
		{Name: "VOLUMEATTRIBUTESCLASS", Cell: func(v *api.PersistentVolume, _ api.Time) string {
			return DerefOr(v.Spec.VolumeAttributesClassName, "<unset>")
		}},
		{Name: "REASON", Cell: func(v *api.PersistentVolume, _ api.Time) string { return v.Status.Reason }},
		Age[*api.PersistentVolume](),
		{Name: "VOLUMEMODE", Wide: true, Cell: func(v *api.PersistentVolume, _ api.Time) string { return DerefOr(v.Spec.VolumeMode, "<unset>") }},
	},
	Describe: withEvents(describeVolume),
})

func describeVolume(w *Describer, v *api.PersistentVolume) {
	w.Line(0, "Name:\t%s\n", v.Name)
	labelsBlock(w, "Labels", v.Labels)
	annotationsBlock(w, "Annotations", v.Annotations)
	w.Line(0, "Finalizers:\t[]\n")
	w.Line(0, "StorageClass:\t%s\n", v.Spec.StorageClassName)
	w.Line(0, "Status:\t%s\n", v.Status.Phase)
	claim := ""
	if r := v.Spec.ClaimRef; r != nil {
		claim = r.Namespace + "/" + r.Name
	}
	w.Line(0, "Claim:\t%s\n", claim)
	w.Line(0, "Reclaim Policy:\t%s\n", v.Spec.PersistentVolumeReclaimPolicy)
	w.Line(0, "Access Modes:\t%s\n", AccessModes(v.Spec.AccessModes))
	w.Line(0, "VolumeMode:\t%s\n", DerefOr(v.Spec.VolumeMode, "Filesystem"))
	w.Line(0, "Capacity:\t%s\n", v.Spec.Capacity["storage"])
	w.Line(0, "Node Affinity:\t<none>\n")
	w.Line(0, "Message:\t%s\n", v.Status.Message)
	w.Line(0, "Source:\n")
	if v.Spec.HostPath != nil {
		w.Line(2, "Type:\tHostPath (bare host directory volume)\n")
		w.Line(2, "Path:\t%v\n", v.Spec.HostPath["path"])
		w.Line(2, "HostPathType:\t%v\n", v.Spec.HostPath["type"])
	}
}
