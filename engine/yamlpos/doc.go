// Package yamlpos reads YAML so that every problem can be told at its
// place: file:line:column, and what was expected there.
//
// It is the ground floor of the two readers of the engine's input, the
// manifest decoder (package manifest) and the lesson loader (package
// scenario). It parses with gopkg.in/yaml.v3 into yaml.Node trees, maps a
// node's position inside a text to its position in the file the text came
// from (a manifests block inside a scenario file), and charges every file
// the limits of package limits on aliases, expanded size and objects:
//
//	src := yamlpos.Source{File: "web.yaml", Line: 1, Col: 1}
//	docs, err := yamlpos.Parse(text, src, yamlpos.NewBudget())
//	// err is an ErrorList: web.yaml:3:5: malformed YAML: ...
package yamlpos
