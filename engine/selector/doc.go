// Package selector reads the two selector languages of Kubernetes, as the
// API server reads them when kubectl passes -l and --field-selector:
//
//	label selectors   app=web,tier!=db   env in (prod,staging)   !canary   track
//	field selectors   status.phase=Running,spec.nodeName!=worker-2
//
// A label selector is a list of requirements, all of which must hold. A
// requirement is a key with an operator: equality (=, ==, !=), set-based
// (in, notin), existence (key) or absence (!key), and, as the API server
// also accepts, integer comparison (>, <). A parse error carries the API
// server's words, so kubectl can print what real kubectl prints.
//
// A field selector is a list of field=value or field!=value terms. Which
// fields a kind can be selected by is the API server's business: Fields
// says, per kind, and refuses the rest with its message.
package selector
