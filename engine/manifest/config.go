package manifest

import (
	"encoding/json"
	"unicode/utf8"
)

// jsonShaped turns data made by yamlpos.Generic and jsonable (maps with
// string keys, lists, nil, booleans, int64, float64 and strings) into
// what a JSON round trip of it (jsonRoundTrip) gives, in place and without
// the encoding: integers become float64 (json.Unmarshal's number, and the
// same rounding), the rest stays. A top level that is not a mapping gives
// nil, as the round trip does. It reports false for what it does not
// convert the same way: a string that is not valid UTF-8 (the encoding
// replaces its bytes), or a type Generic does not make.
func jsonShaped(data any) (map[string]any, bool) {
	m, isMap := data.(map[string]any)
	if !isMap {
		return nil, true
	}
	if !jsonShape(m) {
		return nil, false
	}
	return m, true
}

func jsonShape(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		// Each value is replaced in place, and where it stops (false) the
		// round trip reads an integer and its float64 alike: any order.
		for k, e := range t {
			if !utf8.ValidString(k) {
				return false
			}
			switch n := e.(type) {
			case int64:
				t[k] = float64(n)
			default:
				if !jsonShape(e) {
					return false
				}
			}
		}
	case []any:
		for i, e := range t {
			switch n := e.(type) {
			case int64:
				t[i] = float64(n)
			default:
				if !jsonShape(e) {
					return false
				}
			}
		}
	case string:
		return utf8.ValidString(t)
	case nil, bool, float64:
	default:
		return false
	}
	return true
}

// jsonRoundTrip is data encoded as JSON and decoded into a map: nil when
// it is not a mapping.
func jsonRoundTrip(data any) map[string]any {
	b, err := json.Marshal(data)
	if err != nil {
		return nil
	}
	var cfg map[string]any
	if json.Unmarshal(b, &cfg) != nil {
		return nil
	}
	return cfg
}
