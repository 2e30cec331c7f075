// Package fault is the grammar of faults: the ways a learner or a lesson
// breaks the loop on purpose. A fault is an input like any other: the
// simulation records it in the trace and replays it identically.
//
//	node-down NODE            the machine stops; its kubelet stops renewing its lease
//	node-up NODE
//	drop-watch CONTROLLER [N] the next N watch events to the controller are lost
//	duplicate-watch CONTROLLER [N]
//	delay-watch CONTROLLER DURATION
//	crash CONTROLLER          the process dies in the middle of its next pass
//	stop CONTROLLER | start CONTROLLER | sync CONTROLLER
//	webhook-down NAME | webhook-up NAME
//	push-image REF [DIGEST]   a tag pushed again: the same name, other content
//	delete-pod NAME           NAME, NAMESPACE/NAME, or a selector such as app=web
//
// Parse reads a line into a Fault; Fault.String writes it back. ParseIn
// reads it for a run whose registry is given: the controllers a fault may
// name are that run's.
package fault
