package app

import "reconcile/app/session"

// stillRunning is the note under a console command still running: a wait
// ends by itself, a drain once its nodes are drained, a watch when it is
// stopped or bounded.
func stillRunning(line string) string {
	switch verb, _ := session.VerbOf(line); verb {
	case "wait":
		return "Still waiting: it ends once what --for asks holds of every object, or when its --timeout runs out; Ctrl+C or Stop ends it sooner."
	case "drain":
		return "Still draining: it tries each eviction a budget refused again every 5s and waits for the evicted pods to be gone; it ends once the node is drained, or when its --timeout runs out; Ctrl+C or Stop ends it sooner."
	}
	return "Still watching: it prints as the world changes, with each pass and each command given here; Ctrl+C or Stop ends it."
}
