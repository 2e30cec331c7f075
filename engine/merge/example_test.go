package merge_test

import (
	"encoding/json"
	"fmt"

	"reconcile/engine/merge"
)

func doc(s string) map[string]any {
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		panic(err)
	}
	return m
}

// The manifest dropped the tier label and changed the image; another
// writer scaled to 5 and added a sidecar. The merge keeps what the other
// writer did and applies what the manifest changed. Applied again, the
// same manifest still sends a patch: while the live list has an item the
// manifest lacks, kubectl's patch always carries the manifest's order of
// it ($setElementOrder), so kubectl says "configured" each time.
func ExampleThreeWay() {
	original := doc(`{"metadata":{"labels":{"app":"web","tier":"front"}},
		"spec":{"template":{"spec":{"containers":[{"name":"web","image":"web:1"}]}}}}`)
	modified := doc(`{"metadata":{"labels":{"app":"web"}},
		"spec":{"template":{"spec":{"containers":[{"name":"web","image":"web:2"}]}}}}`)
	current := doc(`{"metadata":{"labels":{"app":"web","tier":"front","owner":"a"}},
		"spec":{"replicas":5,"template":{"spec":{"containers":[{"name":"web","image":"web:1"},{"name":"log","image":"log:1"}]}}}}`)
	merged, patched := merge.ThreeWay(original, modified, current)
	out, _ := json.Marshal(merged)
	fmt.Println(string(out), patched)
	patch, _ := json.Marshal(merge.Patch(original, modified, current))
	fmt.Println(string(patch))
	_, again := merge.ThreeWay(modified, modified, merged)
	fmt.Println(again)
	// Output:
	// {"metadata":{"labels":{"app":"web","owner":"a"}},"spec":{"replicas":5,"template":{"spec":{"containers":[{"image":"web:2","name":"web"},{"image":"log:1","name":"log"}]}}}} true
	// {"metadata":{"labels":{"tier":null}},"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"web"}],"containers":[{"image":"web:2","name":"web"}]}}}}
	// true
}

// A Deployment's spec.strategy has the retainKeys strategy: a manifest
// that switches to Recreate has the rollingUpdate the API server
// defaulted removed with it (else the object is invalid), and the patch
// says which keys to keep.
func ExampleThreeWay_retainKeys() {
	current := doc(`{"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":"25%"}}}}`)
	modified := doc(`{"spec":{"strategy":{"type":"Recreate"}}}`)
	merged, patched := merge.ThreeWay(nil, modified, current)
	out, _ := json.Marshal(merged)
	fmt.Println(string(out), patched)
	patch, _ := json.Marshal(merge.Patch(nil, modified, current))
	fmt.Println(string(patch))
	// Output:
	// {"spec":{"strategy":{"type":"Recreate"}}} true
	// {"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}}
}
