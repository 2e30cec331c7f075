package session

import (
	"maps"
	"slices"

	"reconcile/engine/api"
)

// changeMarks are the changes a reading shows: pods created or written,
// pods gone (ghosts, by the node they were on), nodes and workloads
// written. A nil *changeMarks marks nothing.
type changeMarks struct {
	pods    map[string]string
	ghosts  map[string][]Ghost
	objects map[api.Ref]bool
}

func newChangeMarks() *changeMarks {
	return &changeMarks{pods: map[string]string{}, ghosts: map[string][]Ghost{}, objects: map[api.Ref]bool{}}
}

// clone copies m, to add to it without changing what a view holds.
func (m *changeMarks) clone() *changeMarks {
	out := newChangeMarks()
	if m != nil {
		maps.Copy(out.pods, m.pods)
		maps.Copy(out.objects, m.objects)
		for node, gs := range m.ghosts {
			out.ghosts[node] = slices.Clip(gs)
		}
	}
	return out
}

func (m *changeMarks) pod(key string) string {
	if m == nil {
		return ""
	}
	return m.pods[key]
}

func (m *changeMarks) written(ref api.Ref) bool { return m != nil && m.objects[ref] }

func (m *changeMarks) ghostsOn(node string) []Ghost {
	if m == nil {
		return nil
	}
	return m.ghosts[node]
}

// empty reports whether m marks nothing.
func (m *changeMarks) empty() bool {
	return m == nil || len(m.pods) == 0 && len(m.ghosts) == 0 && len(m.objects) == 0
}
