package session

import (
	"errors"
	"testing"

	"reconcile/engine/api"
	"reconcile/scenarios"
)

// TestResponseOnce: stuck-rollout's response (rollout undo) given twice
// would roll forward to the broken template again. The second time is
// refused with a sentence and changes nothing; stepping back before the
// response makes it possible again there.
func TestResponseOnce(t *testing.T) {
	sc, err := scenarios.Load("stuck-rollout")
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(sc.Config())
	if err != nil {
		t.Fatal(err)
	}
	s.PlayTo(SymptomAt(sc))
	if _, ok := s.ResponseGiven(sc); ok {
		t.Fatal("the response is given before it was applied")
	}
	if _, err := s.GiveResponse(sc); err != nil {
		t.Fatal(err)
	}
	at := s.N()
	after, ok := s.ResponseGiven(sc)
	if !ok || after != at {
		t.Fatalf("ResponseGiven = %d, %t; want %d, true", after, ok, at)
	}
	image := func() string {
		d := s.run.Store().Get("Deployment", "default", "web").(*api.Deployment)
		return d.Spec.Template.Spec.Containers[0].Image
	}
	if got := image(); got != "shop/web:1.0" {
		t.Fatalf("after the response the template runs %s, want shop/web:1.0", got)
	}
	for range 20 {
		s.Next()
	}
	inputs := len(s.run.Inputs())
	_, err = s.GiveResponse(sc)
	var given ResponseGivenError
	if !errors.As(err, &given) || given.After != at {
		t.Fatalf("the second response: %v, want refused as given after pass %d", err, at)
	}
	if got := image(); got != "shop/web:1.0" || len(s.run.Inputs()) != inputs {
		t.Errorf("a refused response changed the world: image %s, %d inputs (was %d)", got, len(s.run.Inputs()), inputs)
	}
	// Before the response, it is not given: applying it there forks.
	if err := s.Seek(at - 1); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.ResponseGiven(sc); ok {
		t.Errorf("before pass %d the response counts as given", at)
	}
	if _, err := s.GiveResponse(sc); err != nil {
		t.Errorf("the response before pass %d: %v", at, err)
	}
}
