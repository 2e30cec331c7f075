package api

import "sort"

// SortedKeys returns the keys of m in order: the way to range over a map
// whose order could reach output.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
