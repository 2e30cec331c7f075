// Package scenarios holds the bundled lessons as data: one YAML file per
// scenario, in the format the engine's scenario loader reads (DESIGN §4).
// The file name without ".yaml" is the scenario's id and its URL slug
// (/s/{id}).
package scenarios

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

//go:embed *.yaml
var files embed.FS

// Default is the id of the lesson a newcomer starts with.
const Default = "apply-is-not-running"

// IDs returns the ids of every bundled scenario, sorted.
func IDs() []string {
	entries, err := fs.ReadDir(files, ".")
	if err != nil {
		panic("scenarios: reading the embedded files: " + err.Error()) // broken build
	}
	var ids []string
	for _, e := range entries {
		if name := e.Name(); strings.HasSuffix(name, ".yaml") {
			ids = append(ids, strings.TrimSuffix(name, ".yaml"))
		}
	}
	sort.Strings(ids)
	return ids
}

// File returns the file name and contents of the bundled scenario id. It
// reports false when there is no such scenario.
func File(id string) (name string, data []byte, ok bool) {
	if id == "" || strings.ContainsAny(id, "/\\.") {
		return "", nil, false
	}
	name = id + ".yaml"
	data, err := files.ReadFile(name)
	if err != nil {
		return "", nil, false
	}
	return name, data, true
}
