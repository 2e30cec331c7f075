// Package kubectl runs kubectl command lines against the simulated API
// server and prints what real kubectl prints, with its exit codes: 0 on
// success, 1 on an error from the server or a bad command.
//
// Commands act on the store exactly as kubectl acts on an API server: they
// store desired state and return. Nothing has run yet when they return.
package kubectl
