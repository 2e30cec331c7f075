package sim

import (
	"fmt"
	"testing"
)

func TestSmoke(t *testing.T) {
	s, err := New(simpleScenario(deployment("web", 5, "shop/web:1.0")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for p, ok := s.Next(); ok; p, ok = s.Next() {
		fmt.Printf("#%d t=%s %s %s %s | %s | %s | %v | %s | %s\n", p.N, p.AtText, p.Controller, p.Host, p.Key, p.Desired, p.Observed, p.Actions, p.Difference, p.Outcome)
	}
	fmt.Println(s.Digest())
}
