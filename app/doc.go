// Package app is the playground's user interface: go-app components that let
// a learner step the reconciliation loop pass by pass.
//
// go-app's own package is also named app. Inside this package `app.X` always
// means go-app's; our names are unqualified. The pages read the engine
// through package session (a run as a learner drives it, read into a View)
// and draw the View; they touch a run only on go-app's UI goroutine. The
// player and the playground embed one stage (stage.go): the session, its
// view, the play clock, the fault palette and the handlers they share.
//
// Every view is prerendered on the server by go-app, so a component's
// OnPreRender and OnNav run natively too: the lesson's title and summary are
// in the HTML before the WebAssembly binary has loaded. Browser-only work
// (keyboard listeners, history) is guarded by app.IsClient and happens in
// OnMount, which go-app never calls on the server.
//
// A panic in a handler is recovered (see guard), shown in an element with
// role="alert", and the page stays usable.
package app
