package engine

import (
	"reconcile/engine/api"
	"reconcile/engine/scenario"
)

// decode turns inline manifests typed by a learner into objects.
func decode(text string) ([]api.Object, error) {
	ms, err := scenario.DecodeManifests("input", text, 1, 1)
	if err != nil {
		return nil, err
	}
	out := make([]api.Object, len(ms))
	for i, m := range ms {
		out[i] = m.Object
	}
	return out, nil
}
