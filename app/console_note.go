package app

import "reconcile/app/session"

// stillRunning is the note under a console command still running: a wait
// ends by itself, a watch when it is stopped or bounded.
func stillRunning(line string) string {
	if verb, _ := session.VerbOf(line); verb == "wait" {
		return "Still waiting: it ends once what --for asks holds of every object, or when its --timeout runs out; Ctrl+C or Stop ends it sooner."
	}
	return "Still watching: it prints as the world changes, with each pass and each command given here; Ctrl+C or Stop ends it."
}
