package api

import "encoding/json"

// MarshalJSON renders u with its other top-level fields (Fields) beside
// apiVersion, kind, metadata, spec and data.
func (u Unstructured) MarshalJSON() ([]byte, error) {
	type plain Unstructured // no MarshalJSON: no recursion
	b, err := json.Marshal(plain(u))
	if err != nil || len(u.Fields) == 0 {
		return b, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	for k, v := range u.Fields { // into a map encoding/json sorts: order cannot matter
		if _, set := m[k]; !set {
			m[k] = v
		}
	}
	return json.Marshal(m)
}
