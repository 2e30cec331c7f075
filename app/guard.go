package app

import (
	"fmt"
	"runtime/debug"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// guard runs f and turns a panic into a message for the learner, stored in
// *alert, so that a broken pass never takes the page down with it. It reports
// whether f returned normally.
func guard(alert *string, what string, f func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			*alert = fmt.Sprintf("%s failed: %v", what, r)
			app.Logf("reconcile: %s panicked: %v\n%s", what, r, debug.Stack())
			ok = false
		}
	}()
	f()
	return true
}
