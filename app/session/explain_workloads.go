package session

import (
	"fmt"

	"reconcile/engine/controller"
	"reconcile/engine/sim"
)

// The sentences of the DaemonSet, StatefulSet, CronJob and persistent
// volume controllers' passes.

// workloadWhat says what a pass of one of them did, or "" for another
// controller.
func workloadWhat(p sim.Pass, who, obj string, steps, status []controller.Action) string {
	switch p.Controller {
	case controller.DaemonSetController:
		if p.Desired.Is == controller.Deleted {
			return fmt.Sprintf("%s found %s deleted: nothing to do.", who, obj)
		}
		looked := fmt.Sprintf("%s compared the nodes with %s: it wants %s, and %s", who, obj, p.Desired, p.Observed)
		if len(steps) > 0 {
			return fmt.Sprintf("%s; %s, so it %s.", looked, p.Difference, done(steps))
		}
		return fmt.Sprintf("%s: %s", looked, nothingToDo(status))
	case controller.StatefulSetController:
		if p.Desired.Is == controller.Deleted {
			return fmt.Sprintf("%s found %s deleted: nothing to do.", who, obj)
		}
		looked := fmt.Sprintf("%s looked at %s (it wants %s; it has %s)", who, obj, p.Desired, p.Observed)
		switch {
		case len(steps) > 0:
			return fmt.Sprintf("%s and %s, one ordinal at a time.", looked, done(steps))
		case p.Difference.Is == controller.WaitingFor:
			return fmt.Sprintf("%s and waits: %s, as OrderedReady asks.", looked, p.Difference)
		}
		return fmt.Sprintf("%s: %s", looked, nothingToDo(status))
	case controller.CronJobController:
		if p.Desired.Is == controller.Deleted {
			return fmt.Sprintf("%s found %s deleted: nothing to do.", who, obj)
		}
		looked := fmt.Sprintf("%s read the clock against %s (%s; %s)", who, obj, p.Desired, p.Observed)
		if len(steps) > 0 {
			return fmt.Sprintf("%s: %s, so it %s.", looked, p.Difference, done(steps))
		}
		return fmt.Sprintf("%s: %s; %s", looked, p.Difference, nothingToDo(status))
	case controller.VolumeController:
		if len(steps) > 0 {
			return fmt.Sprintf("%s looked at %s (%s): %s, so it %s.", who, obj, p.Observed, p.Difference, done(steps))
		}
		return fmt.Sprintf("%s found %s %s: %s", who, obj, p.Observed, nothingToDo(status))
	}
	return ""
}
