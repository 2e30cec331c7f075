package kubectl

import "errors"

// Go templates (-o go-template=..., -o template=..., --template): kubectl's
// text/template printer with its two functions (exists, base64decode). The
// template package is not linked into the browser's build, to keep it small
// (gotemplate_native.go installs it elsewhere): there a template is refused
// with errGoTemplateBrowser, and a run that prints one differs between the
// browser and the command line, so no bundled lesson uses one.

// goTemplate parses a template and returns what runs it on a JSON
// document; nil where templates are not linked.
var goTemplate func(text string, allowMissing bool) (func(doc any) (string, error), error)

var errGoTemplateBrowser = errors.New("error: Go templates (-o go-template, --template) are not simulated in the browser: use -o jsonpath, or reconcile run on the command line")
