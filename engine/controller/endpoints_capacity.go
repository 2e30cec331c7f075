package controller

import "reconcile/engine/api"

// The endpoints controller writes at most MaxEndpointsAddresses addresses
// to an Endpoints object; past that it truncates the list and says so in
// an annotation (EndpointSlices have no such limit: they split).
const (
	MaxEndpointsAddresses  = 1000
	OverCapacityAnnotation = "endpoints.kubernetes.io/over-capacity"
	overCapacityTruncated  = "truncated"
)

// markCapacity truncates an Endpoints object to MaxEndpointsAddresses
// addresses, ready ones first (not-ready ones are dropped before any ready
// one, each subset keeping its share), and sets the over-capacity
// annotation when it did, or removes it when the object fits.
func markCapacity(e *api.Endpoints) {
	if !truncateEndpoints(e) {
		if _, ok := e.Annotations[OverCapacityAnnotation]; ok {
			delete(e.Annotations, OverCapacityAnnotation)
			if len(e.Annotations) == 0 {
				e.Annotations = nil
			}
		}
		return
	}
	if e.Annotations == nil {
		e.Annotations = map[string]string{}
	}
	e.Annotations[OverCapacityAnnotation] = overCapacityTruncated
}

// truncateEndpoints cuts the addresses of e to MaxEndpointsAddresses and
// reports whether it had to. When the ready addresses alone are too many,
// only ready ones are kept; otherwise every ready one is kept and the
// not-ready ones are cut. Each subset keeps a share of what is kept in
// proportion to what it had, rounded up, the last ones taking what is
// left.
func truncateEndpoints(e *api.Endpoints) bool {
	ready, notReady := countAddresses(e)
	if ready+notReady <= MaxEndpointsAddresses {
		return false
	}
	readyToo := ready > MaxEndpointsAddresses
	room, total := MaxEndpointsAddresses-ready, notReady
	if readyToo {
		room, total = MaxEndpointsAddresses, ready
	}
	left := room
	for i := range e.Subsets {
		s := &e.Subsets[i]
		have := len(s.NotReadyAddresses)
		if readyToo {
			have = len(s.Addresses)
		}
		keep := min((have*room+total-1)/total, left, have)
		if readyToo {
			s.Addresses = s.Addresses[:keep:keep]
			s.NotReadyAddresses = nil
		} else {
			s.NotReadyAddresses = s.NotReadyAddresses[:keep:keep]
		}
		left -= keep
	}
	return true
}

// countAddresses counts the ready and not-ready addresses of e.
func countAddresses(e *api.Endpoints) (ready, notReady int) {
	for _, s := range e.Subsets {
		ready += len(s.Addresses)
		notReady += len(s.NotReadyAddresses)
	}
	return ready, notReady
}
