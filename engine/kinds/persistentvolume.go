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
})
