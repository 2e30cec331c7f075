package scale

import "time"

// slice is how long the converge computes before it gives the browser its
// turn, as the player's catch-up does (app/catchup.go: 40 ms slices).
const slice = 40 * time.Millisecond

// yield gives the rest of the program its turn: natively nothing (the
// collector has its own thread); in a tab (yield_js.go) the event loop,
// where the collector's worker marks while the program waits.
var yield = func() {}
