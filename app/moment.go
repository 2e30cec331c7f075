package app

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"

	"reconcile/app/session"
	"reconcile/engine/sim"
)

// A lesson's moment is in its address: ?pass=N (&t=T: the simulated time
// after it, when inputs or waiting followed the pass) and, when the learner
// gave inputs (faults, the response), &in=... with those inputs. A reload,
// a copied link or an embed code opens the same moment in the same future.

// maxInputsParam bounds the inputs a lesson's address can carry.
const maxInputsParam = 8 << 10

// inputsParam encodes inputs as &in= carries them: their saved JSON form
// (the playground's), base64url without padding.
func inputsParam(inputs []sim.Given) string {
	if len(inputs) == 0 {
		return ""
	}
	data, err := json.Marshal(inputs)
	if err != nil {
		return "" // every input the run accepted has a JSON form
	}
	return base64.RawURLEncoding.EncodeToString(data)
}

// parseInputsParam reads &in=.
func parseInputsParam(s string) ([]sim.Given, error) {
	if len(s) > maxInputsParam {
		return nil, fmt.Errorf("?in= is %d characters; the limit is %d", len(s), maxInputsParam)
	}
	data, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("?in= is not base64url: %v", err)
	}
	var inputs []sim.Given
	if err := json.Unmarshal(data, &inputs); err != nil {
		return nil, fmt.Errorf("?in= does not hold inputs: %v", err)
	}
	return inputs, nil
}

// giveInputs gives a session the inputs of an address, each just after its
// pass, as they were given.
func giveInputs(s *session.Session, inputs []sim.Given) error {
	for i, in := range inputs {
		if err := s.Seek(in.After); err != nil {
			return fmt.Errorf("input %d (%s): %v", i+1, session.InputText(in.Input), err)
		}
		if _, err := s.Inject(in.Input); err != nil {
			return fmt.Errorf("input %d (%s): %v", i+1, session.InputText(in.Input), err)
		}
	}
	return nil
}

// momentQuery writes the moment of a session into q: pass, time, inputs.
func momentQuery(q url.Values, s *session.Session) {
	if n := s.N(); n == 0 {
		q.Del("pass")
	} else {
		q.Set("pass", strconv.Itoa(n))
	}
	if s.BeyondLastPass() > 0 {
		q.Set("t", s.Now().String())
	} else {
		q.Del("t")
	}
	if in := inputsParam(s.Inputs()); in != "" {
		q.Set("in", in)
	} else {
		q.Del("in")
	}
}
