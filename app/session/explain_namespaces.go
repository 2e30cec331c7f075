package session

import (
	"fmt"

	"reconcile/engine/controller"
	"reconcile/engine/sim"
)

// The sentences of the controllers that keep an object in every namespace:
// the serviceaccount-controller (the ServiceAccount default) and the
// root-ca-certificate-publisher (the ConfigMap kube-root-ca.crt).

// namespaceHoldsWhat: "serviceaccount-controller found no serviceaccount
// default in namespace shop and created serviceaccount default."
func namespaceHoldsWhat(p sim.Pass, who string, steps, status []controller.Action) string {
	ns, what := p.Object.Name, p.Observed.Name
	switch {
	case p.Desired.Is == controller.Deleted:
		return fmt.Sprintf("%s found namespace %s gone: nothing to do.", who, ns)
	case p.Desired.Is == controller.NamespaceTerminating:
		return fmt.Sprintf("%s found namespace %s being deleted: nothing new is created in it.", who, ns)
	case p.Desired.Is != controller.NamespaceHolds:
		return ""
	case p.Observed.Is == controller.Present:
		return fmt.Sprintf("%s found %s in namespace %s as it should be: %s", who, what, ns, nothingToDo(status))
	case p.Observed.Is == controller.Missing && len(steps) > 0:
		return fmt.Sprintf("%s found no %s in namespace %s and %s.", who, what, ns, done(steps))
	case p.Observed.Is == controller.Altered && len(steps) > 0:
		return fmt.Sprintf("%s found the %s of %s in namespace %s changed and put it back: %s.", who, what, p.Desired.Name, ns, done(steps))
	}
	return ""
}
