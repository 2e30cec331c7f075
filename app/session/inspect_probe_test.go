package session

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestProbeOfReadsWhatJSONDecodes: the inspector's three questions read
// generation, observedGeneration and the conditions from the document the
// YAML is written from; for every object of every lesson's run, at its
// start and at its end, that is what decoding the object's JSON into the
// probe's fields gives.
func TestProbeOfReadsWhatJSONDecodes(t *testing.T) {
	type decoded struct {
		Metadata struct {
			Generation int64 `json:"generation"`
		} `json:"metadata"`
		Status struct {
			ObservedGeneration *int64 `json:"observedGeneration"`
			Conditions         []struct {
				Type               string `json:"type"`
				Status             string `json:"status"`
				Reason             string `json:"reason"`
				Message            string `json:"message"`
				LastTransitionTime string `json:"lastTransitionTime"`
			} `json:"conditions"`
		} `json:"status"`
	}
	objects, conditions, observed := 0, 0, 0
	for _, id := range []string{"stuck-rollout", "self-healing", "node-dies-at-3am", "edge-vs-level", "quota-exhausted"} {
		s, err := Start(mustLoad(t, id).Config())
		if err != nil {
			t.Fatal(err)
		}
		for pass := 0; ; pass++ {
			if pass == 0 || pass%25 == 0 {
				for _, o := range s.run.Objects() {
					text := readObject(o, nil)
					data, err := json.Marshal(o)
					if err != nil {
						t.Fatal(err)
					}
					var d decoded
					if err := json.Unmarshal(data, &d); err != nil {
						t.Fatal(err)
					}
					want := objectProbe{}
					want.Metadata.Generation = d.Metadata.Generation
					want.Status.ObservedGeneration = d.Status.ObservedGeneration
					for _, c := range d.Status.Conditions {
						want.Status.Conditions = append(want.Status.Conditions, probeCondition(c))
					}
					if !text.ok || !reflect.DeepEqual(text.probe, want) {
						t.Fatalf("%s pass %d, %s %s: probe %+v, the JSON decodes to %+v", id, pass, o.GetTypeMeta().Kind, o.Meta().Name, text.probe, want)
					}
					objects++
					conditions += len(want.Status.Conditions)
					if want.Status.ObservedGeneration != nil {
						observed++
					}
				}
			}
			if _, ok := s.Next(); !ok || pass > 400 {
				break
			}
		}
	}
	if conditions == 0 || observed == 0 {
		t.Fatalf("read %d objects, %d conditions, %d observedGeneration: the lessons should have both", objects, conditions, observed)
	}
	t.Logf("%d objects, %d conditions, %d with observedGeneration", objects, conditions, observed)
}
