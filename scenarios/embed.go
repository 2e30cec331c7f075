package scenarios

import (
	"embed"
	"errors"
	"fmt"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"reconcile/engine/scenario"
)

//go:embed *.yaml
var files embed.FS

// Default is the id of the lesson a newcomer starts with.
const Default = "apply-is-not-running"

// IDs returns the ids of every bundled scenario, sorted.
func IDs() []string {
	entries, err := files.ReadDir(".") // not fs.ReadDir: its generic sort would add 19 KB to app.wasm
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

// ErrNotFound is returned by Load for an id that names no bundled scenario.
var ErrNotFound = errors.New("no such bundled scenario")

// Load reads and loads the bundled scenario id with the engine's loader.
func Load(id string) (*scenario.Scenario, error) {
	name, data, ok := File(id)
	if !ok {
		return nil, fmt.Errorf("%q: %w", id, ErrNotFound)
	}
	return scenario.Load(name, data)
}

// Open is Load without the loader's checks whose only outcome is an error
// (scenario.LoadTrusted): what a page does to open a bundled lesson, which
// the tests load with Load (TestOpenIsLoad holds the two to one result).
func Open(id string) (*scenario.Scenario, error) {
	name, data, ok := File(id)
	if !ok {
		return nil, fmt.Errorf("%q: %w", id, ErrNotFound)
	}
	return scenario.LoadTrusted(name, data)
}

// Meta is what a list of lessons shows of a bundled scenario: its id, its
// title, its summary and its lead (the one line a page shows before the
// run, scenario.Scenario.Lead).
type Meta struct {
	ID, Title, Summary, Lead string
}

// ReadMeta reads the id, title, summary and lead of the bundled scenario id
// as Load would, without loading the scenario: its manifests are not
// decoded and nothing is checked, so a list of every lesson costs little.
// A scenario without a lead: line is loaded, so that its lead is the
// loader's own choice from the summary.
func ReadMeta(id string) (Meta, error) {
	name, data, ok := File(id)
	if !ok {
		return Meta{}, fmt.Errorf("%q: %w", id, ErrNotFound)
	}
	return readMeta(id, name, data)
}

// readMeta reads the Meta of the scenario file name (data), whose id is id
// unless the file says otherwise.
func readMeta(id, name string, data []byte) (Meta, error) {
	var top struct {
		ID      *string `yaml:"id"`
		Title   string  `yaml:"title"`
		Summary string  `yaml:"summary"`
		Lead    string  `yaml:"lead"`
	}
	if err := yaml.Unmarshal(data, &top); err != nil {
		return Meta{}, fmt.Errorf("%s: %w", name, err)
	}
	m := Meta{ID: id, Title: strings.TrimSpace(top.Title), Summary: strings.TrimSpace(top.Summary), Lead: strings.TrimSpace(top.Lead)}
	if top.ID != nil {
		m.ID = *top.ID
	}
	if m.Title == "" {
		m.Title = m.ID
	}
	if m.Lead == "" {
		sc, err := scenario.Load(name, data)
		if err != nil {
			return Meta{}, err
		}
		m.Lead = sc.Lead
	}
	return m, nil
}
