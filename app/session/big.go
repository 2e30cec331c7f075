package session

import "reconcile/engine/store"

// bigWorld reports whether a world is big: more than bigWorldObjects pods,
// or a tenth as many nodes. A pass there can take a while, so the session
// checks the clock after every pass of a look-ahead, and the player starts
// a deep link's catch-up without computing first.
func bigWorld(st *store.Store) bool {
	return st.Count("Pod") > bigWorldObjects || st.Count("Node") > bigWorldObjects/10
}

// Big reports whether the run's world is big now (bigWorld).
func (s *Session) Big() bool { return bigWorld(s.run.Store()) }
