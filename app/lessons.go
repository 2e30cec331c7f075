package app

import (
	"errors"

	"reconcile/engine/scenario"
	"reconcile/scenarios"
)

// lesson is a bundled scenario as the UI lists it.
type lesson struct {
	id      string
	title   string
	summary string
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
		sc, err = scenarios.Load(id)
	})
	switch {
	case alert != "":
		return nil, true, errors.New(alert)
	case errors.Is(err, scenarios.ErrNotFound):
		return nil, false, nil
	}
	return sc, true, err
}

// lessons lists every bundled scenario in the lesson's order, with its title
// and summary (read without loading the scenario).
func lessons() []lesson {
	section := map[string]string{}
	for _, s := range scenarios.Sections {
		for _, id := range s.IDs {
			section[id] = s.Title
		}
	}
	var out []lesson
	for _, id := range scenarios.Ordered() {
		l := lesson{id: id, title: id, section: section[id]}
		if l.section == "" {
			l.section = "More lessons"
		}
		// Only the title and summary: a lesson is loaded when it is opened.
		if m, err := scenarios.ReadMeta(id); err != nil {
			l.err = err.Error()
		} else {
			l.title, l.summary = m.Title, m.Summary
		}
		out = append(out, l)
	}
	return out
}
