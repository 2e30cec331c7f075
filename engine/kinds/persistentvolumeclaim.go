package kinds

import (
	"reflect"

	"reconcile/engine/api"
	"reconcile/engine/validation"
)

var _ = Define(Def[*api.PersistentVolumeClaim]{
	Kind:            "PersistentVolumeClaim",
	Default:         validation.DefaultPersistentVolumeClaim,
	Validate:        validation.ValidatePersistentVolumeClaim,
	BumpsGeneration: func(old, new *api.PersistentVolumeClaim) bool { return !reflect.DeepEqual(new.Spec, old.Spec) },
	KeepStatus:      func(obj, old *api.PersistentVolumeClaim) { obj.Status = old.Status },
	KeepSpec:        func(obj, old *api.PersistentVolumeClaim) { obj.Spec = old.Spec },
	Columns: []TypedColumn[*api.PersistentVolumeClaim]{Name[*api.PersistentVolumeClaim](),
		{Name: "STATUS", Cell: func(c *api.PersistentVolumeClaim, _ api.Time) string { return c.Status.Phase }},
		{Name: "VOLUME", Cell: func(c *api.PersistentVolumeClaim, _ api.Time) string { return c.Spec.VolumeName }},
		{Name: "CAPACITY", Cell: func(c *api.PersistentVolumeClaim, _ api.Time) string {
			if c.Spec.VolumeName == "" {
				return ""
			}
			return string(c.Status.Capacity["storage"])
		}},
		{Name: "ACCESS MODES", Cell: func(c *api.PersistentVolumeClaim, _ api.Time) string {
			if c.Spec.VolumeName == "" {
				return ""
			}
			return AccessModes(c.Status.AccessModes)
		}},
		{Name: "STORAGECLASS", Cell: func(c *api.PersistentVolumeClaim, _ api.Time) string { return DerefOr(c.Spec.StorageClassName, "") }},
		{Name: "VOLUMEATTRIBUTESCLASS", Cell: func(c *api.PersistentVolumeClaim, _ api.Time) string {
			return DerefOr(c.Spec.VolumeAttributesClassName, "<unset>")
		}},
		Age[*api.PersistentVolumeClaim](),
		{Name: "VOLUMEMODE", Wide: true, Cell: func(c *api.PersistentVolumeClaim, _ api.Time) string { return DerefOr(c.Spec.VolumeMode, "<unset>") }},
	},
})
