package kinds

import (
	"reflect"
	"sort"
	"strings"

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
	Describe: withEvents(describeClaim),
})

func describeClaim(w *Describer, c *api.PersistentVolumeClaim) {
	w.Line(0, "Name:\t%s\n", c.Name)
	w.Line(0, "Namespace:\t%s\n", c.Namespace)
	w.Line(0, "StorageClass:\t%s\n", DerefOr(c.Spec.StorageClassName, ""))
	w.Line(0, "Status:\t%s\n", c.Status.Phase)
	w.Line(0, "Volume:\t%s\n", c.Spec.VolumeName)
	labelsBlock(w, "Labels", c.Labels)
	annotationsBlock(w, "Annotations", c.Annotations)
	w.Line(0, "Finalizers:\t[]\n") // the simulated API server keeps no finalizers
	w.Line(0, "Capacity:\t%s\n", c.Status.Capacity["storage"])
	w.Line(0, "Access Modes:\t%s\n", AccessModes(c.Status.AccessModes))
	w.Line(0, "VolumeMode:\t%s\n", DerefOr(c.Spec.VolumeMode, "Filesystem"))
	var users []string
	for _, o := range w.Store.List("Pod") {
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
	w.Line(0, "Used By:\t%s\n", OrNone(strings.Join(users, "\n\t")))
}
