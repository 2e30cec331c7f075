package scenarios

import "slices"

// Section is a part of the lesson, with the scenarios that play it in the
// order the lesson makes its points.
type Section struct {
	Title string
	IDs   []string
}

// Sections are the bundled scenarios in the lesson's order. The failure
// table's section lists its rows in the table's order (FailureTable).
var Sections = []Section{
	{"The loop", []string{
		"apply-is-not-running",
		"self-healing",
		"node-dies-at-3am",
		"controllers-chain",
		"edge-vs-level",
		"edge-vs-level-edge",
	}},
	{"When the loop does not converge", []string{
		"apply-nothing-changes",
		"stuck-rollout",
		"pending-pods",
		"edit-reverts",
		"webhook-fail-closed",
		"immutable-field",
		"stale-tag",
	}},
	{"Operating it", []string{
		"rollout-evidence",
		"rollback-is-desired-state",
		"max-unavailable-is-safety",
		"the-chains-last-link",
	}},
	{"What can go wrong", []string{
		"converges-on-the-wrong-thing",
		"two-controllers-fight",
		"two-controllers-own-replicas",
		"quota-exhausted",
		"drain-waits-on-a-budget",
		"self-healing-is-not-ha",
	}},
	{"Where this applies", []string{
		"reconcile-only-when-run",
		"an-autoscaler-reconciles-one-dimension",
	}},
}

// failureSection is the title of the section that holds the failure table.
const failureSection = "When the loop does not converge"

// Ordered returns the id of every bundled scenario, in the lesson's order;
// a bundled scenario that no section lists comes last, by id.
func Ordered() []string {
	var out []string
	for _, s := range Sections {
		for _, id := range s.IDs {
			if _, _, ok := File(id); ok {
				out = append(out, id)
			}
		}
	}
	for _, id := range IDs() {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// FailureTable returns the ids of the scenarios that replay the lesson's
// failure table, one per row, in the table's order. Each carries its row
// (trigger, symptom, cause, response) in its failure field.
func FailureTable() []string {
	for _, s := range Sections {
		if s.Title == failureSection {
			return slices.Clone(s.IDs)
		}
	}
	return nil
}
