package session_test

import (
	"strings"
	"testing"

	"reconcile/engine/challenge"
)

// Over budget says why the budget is the lesson's, as a refused shortcut
// says its message: the budget's own try, judged to the end.
func TestChallengeOverBudgetSaysWhy(t *testing.T) {
	sc, _, s, c := openChallenge(t, "immutable-field")
	for _, st := range sc.Challenge.BudgetTry {
		if _, err := s.Inject(st.Input); err != nil {
			t.Fatal(err)
		}
	}
	v := stepUntilFinal(t, s, c)
	want := strings.Join(strings.Fields(sc.Challenge.BudgetMessage), " ")
	if v.State != challenge.OverBudget || !strings.Contains(v.Detail, "failed since the start; the budget is 0.") || !strings.Contains(v.Detail, want) {
		t.Fatalf("got %s: %s", v.Headline, v.Detail)
	}
}
