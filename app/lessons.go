package app

import (
	"errors"
	"fmt"
	"time"

	"reconcile/engine/scenario"
	"reconcile/scenarios"
)

// lesson is a bundled scenario as the UI lists it.
type lesson struct {
	id    string
	title string
	// lead is the one line the lesson shows before its run: what the run
	// will show you.
	lead string
	// passes is how many passes its run takes to its end (0: not known).
	passes int
	// section is the part of the lesson the scenario plays.
	section string
	// err says why the scenario could not be read; the lesson is still
	// listed so the problem is visible.
	err string
}

// openLesson reads the bundled scenario id. It reports false when there is
// no such scenario; a scenario that fails to load is an error.
func openLesson(id string) (sc *scenario.Scenario, found bool, err error) {
	var alert string
	guard(&alert, "reading lesson "+id, func() {
		sc, err = scenarios.Open(id)
	})
	switch {
	case alert != "":
		return nil, true, errors.New(alert)
	case errors.Is(err, scenarios.ErrNotFound):
		return nil, false, nil
	}
	return sc, true, err
}

// lessons lists every bundled scenario in the lesson's order, with its title,
// its lead (read without loading the scenario) and the length of its run.
func lessons() []lesson {
	section := map[string]string{}
	for _, s := range scenarios.Sections {
		for _, id := range s.IDs {
			section[id] = s.Title
		}
	}
	var out []lesson
	for _, id := range scenarios.Ordered() {
		l := lesson{id: id, title: id, section: section[id], passes: lessonPasses[id]}
		if l.section == "" {
			l.section = "More lessons"
		}
		// Only the title and lead: a lesson is loaded when it is opened.
		if m, err := scenarios.ReadMeta(id); err != nil {
			l.err = err.Error()
		} else {
			l.title, l.lead = m.Title, m.Lead
		}
		out = append(out, l)
	}
	return out
}

// lessonPasses is how many passes the run of each bundled lesson takes to
// its end, for the home page's estimates. Running all of them costs more
// than a page should spend on a list, so it is computed ahead:
// TestLessonPassesAreTheRunsLengths runs every lesson and prints this table
// anew when a lesson changes.
var lessonPasses = map[string]int{
	"an-autoscaler-reconciles-one-dimension": 469,
	"apply-is-not-running":                   35,
	"apply-nothing-changes":                  33,
	"controllers-chain":                      112,
	"converges-on-the-wrong-thing":           170,
	"drain-waits-on-a-budget":                32,
	"edge-vs-level":                          170,
	"edge-vs-level-edge":                     143,
	"edit-reverts":                           112,
	"immutable-field":                        41,
	"max-unavailable-is-safety":              479,
	"node-dies-at-3am":                       69,
	"pending-pods":                           51,
	"quota-exhausted":                        64,
	"reconcile-only-when-run":                271,
	"rollback-is-desired-state":              187,
	"rollout-evidence":                       301,
	"self-healing":                           51,
	"self-healing-is-not-ha":                 162,
	"stale-tag":                              153,
	"stuck-rollout":                          287,
	"the-chains-last-link":                   205,
	"two-controllers-fight":                  380,
	"two-controllers-own-replicas":           1200,
	"webhook-fail-closed":                    50,
}

// playSpeed is how many passes a second Play runs at the default speed.
var playSpeed = int(time.Second / speeds[defaultSpeed].every)

// estimate says how long a run of passes is: the passes, and the time Play
// takes over them at the default speed.
func estimate(passes int) string {
	if passes <= 0 {
		return ""
	}
	secs := (passes + playSpeed - 1) / playSpeed
	play := fmt.Sprintf("%d s", secs)
	if secs >= 60 {
		play = fmt.Sprintf("about %d min", (secs+30)/60)
	}
	return fmt.Sprintf("%d passes · %s of play", passes, play)
}
