package validation

import "reconcile/engine/api"

// validateNamespace checks a Namespace: its metadata, with its name a DNS
// label (not a subdomain: namespace names appear in DNS names).
func validateNamespace(ns *api.Namespace, meta Path) ErrorList {
	var errs ErrorList
	for _, e := range validateObjectMeta(&ns.ObjectMeta, "Namespace", meta) {
		if e.Field != meta.Child("name").String() || ns.Name == "" {
			errs = append(errs, e)
		}
	}
	if ns.Name != "" {
		for _, msg := range IsDNS1123Label(ns.Name) {
			errs = append(errs, Invalid(meta.Child("name"), ns.Name, msg))
		}
	}
	return errs
}
