//go:build js

package controller

// hasMethod is false in the browser: there only the built-in controllers
// run, and every native test run checks them (sim.New calls Check on each).
// Looking methods up by name would keep reflect's method tables and their
// code in app.wasm (27 KB gzip, measured) for a check that cannot fail
// there. Check's other half, the interfaces a controller implements,
// still runs.
func hasMethod(c any, name string) bool { return false }
