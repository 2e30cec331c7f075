// Package session is what the pages of the playground show, without the
// page: a run as a learner drives it (Session: step, seek, play to a
// moment, give inputs, look ahead to learn where the run ends), read into
// a View of plain values that a page draws without calling the engine.
// The compare page's twins, the playground's two futures, its saved state
// and the console's rules live here too.
//
// Nothing here imports go-app, so all of it is tested natively. A Session
// is not safe for concurrent use: a page touches it on its UI goroutine.
package session
