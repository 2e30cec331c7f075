package validation

import (
	"fmt"
	"strings"

	"reconcile/engine/api"
)

// Finalizers the API server knows without a domain: "orphan" and
// "foregroundDeletion" are the garbage collector's, "kubernetes" a
// namespace's.
const (
	FinalizerOrphan     = "orphan"
	FinalizerForeground = "foregroundDeletion"
)

var standardFinalizers = map[string]bool{"kubernetes": true, FinalizerOrphan: true, FinalizerForeground: true}

// validateFinalizers checks metadata.finalizers: each a qualified name,
// and one without a domain only if it is a standard one.
func validateFinalizers(names []string, p Path) ErrorList {
	var errs ErrorList
	for i, f := range names {
		bad := isQualifiedName(f)
		for _, msg := range bad {
			errs = append(errs, Invalid(p.Index(i), f, msg))
		}
		if len(bad) == 0 && !strings.Contains(f, "/") && !standardFinalizers[f] {
			errs = append(errs, Invalid(p.Index(i), f, "name is neither a standard finalizer name nor is it fully qualified"))
		}
	}
	return errs
}

// validateNoNewFinalizers refuses finalizers added to an object being
// deleted: nothing may hold it longer than what held it when it was
// deleted.
func validateNoNewFinalizers(old, new *api.ObjectMeta, p Path) ErrorList {
	if old.DeletionTimestamp == nil {
		return nil
	}
	had := map[string]bool{}
	for _, f := range old.Finalizers {
		had[f] = true
	}
	var extra []string
	for _, f := range new.Finalizers {
		if !had[f] && !containsString(extra, f) {
			extra = append(extra, f)
		}
	}
	if len(extra) == 0 {
		return nil
	}
	sortStrings(extra)
	quoted := make([]string, len(extra))
	for i, f := range extra {
		quoted[i] = fmt.Sprintf("%q", f)
	}
	return ErrorList{Forbidden(p, "no new finalizers can be added if the object is being deleted, found new finalizers []string{"+strings.Join(quoted, ", ")+"}")}
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
