package validation

import (
	"bytes"
	"encoding/json"

	"reconcile/engine/api"
)

// validateControllerRevision checks a ControllerRevision as the API server
// does: its metadata, data present, revision not negative.
func validateControllerRevision(r *api.ControllerRevision) ErrorList {
	errs := validateObjectMeta(&r.ObjectMeta, "ControllerRevision", Path("metadata"))
	if r.Data.Spec == nil {
		errs = append(errs, Required(Path("data"), "data is mandatory"))
	}
	return append(errs, nonNegative(r.Revision, Path("revision"))...)
}

// validateControllerRevisionUpdate refuses a change of data: a revision
// is a snapshot. (Its revision number may change.)
func validateControllerRevisionUpdate(old, n *api.ControllerRevision) ErrorList {
	a, _ := json.Marshal(old.Data)
	b, _ := json.Marshal(n.Data)
	if bytes.Equal(a, b) {
		return nil
	}
	// The API server holds data as raw JSON, which a patch leaves with its
	// keys sorted.
	var sorted any
	if json.Unmarshal(b, &sorted) == nil {
		b, _ = json.Marshal(sorted)
	}
	return ErrorList{Immutable(Path("data"), rawValue(b))}
}
