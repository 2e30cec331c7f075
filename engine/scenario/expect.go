package scenario

import (
	"fmt"
	"reconcile/engine/assertion"
	"reconcile/engine/limits"
	"reconcile/engine/yamlpos"
	"strings"

	"gopkg.in/yaml.v3"
)

var (
	expectFields = []string{"at", "that", "event", "output", "outside"}
	eventFields  = []string{"reason", "object", "message", "min", "max"}
	outputFields = []string{"command", "contains", "exitCode"}
)

func (l *loader) expects(n *yaml.Node) []Expect {
	var out []Expect
	for i, item := range l.list(n, "expect", `[{at: 10m, that: "deployment/web status.availableReplicas == 5"}]`) {
		ep := fmt.Sprintf("expect[%d]", i)
		if i == limits.MaxExpects {
			l.fail(item, "%s: too many expects: the limit is %d (MaxExpects)", ep, limits.MaxExpects)
			break
		}
		f := l.fields(item, ep, expectFields)
		if f == nil {
			continue
		}
		e := Expect{Pos: l.pm.Of(yamlpos.Resolve(item))}
		if v := f.get("at"); v == nil {
			l.fail(f.node, "%s.at: Required value: the simulated time to check at, e.g. at: 10m", ep)
		} else {
			e.At, _ = l.duration(v, ep+".at")
		}
		kind, ok := l.oneOf(f, ep, "that", "event", "output", "outside")
		if !ok {
			continue
		}
		switch v := f.get(kind); kind {
		case "that":
			e.That, e.Assertion = l.that(v, ep+".that")
		case "event":
			e.Event = l.expectEvent(v, ep+".event")
		case "output":
			e.Output = l.expectOutput(v, ep+".output")
		case "outside":
			if s, ok := l.str(v, ep+".outside"); ok {
				if s == "" {
					l.fail(v, "%s.outside: Required value: text a side effect outside the cluster must contain", ep)
				}
				e.Outside = s
			}
		}
		out = append(out, e)
	}
	return out
}

// that parses an assertion, placing a mistake at its column when the
// expression sits on one line of the file.
func (l *loader) that(n *yaml.Node, path string) (string, *assertion.Assertion) {
	s, ok := l.str(n, path)
	if !ok {
		return "", nil
	}
	a, err := assertion.Parse(s, l.kinds)
	if err != nil {
		at := l.pm.Of(n)
		if ae, ok := err.(*assertion.Error); ok && !strings.Contains(s, "\n") {
			switch {
			case n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0:
				at.Col += 1 + ae.Offset
			case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) == 0:
				at.Col += ae.Offset
			}
		}
		l.errs = append(l.errs, &yamlpos.Error{Pos: at, Msg: fmt.Sprintf("%s: %v", path, err)})
		return s, nil
	}
	return s, a
}

func (l *loader) expectEvent(n *yaml.Node, path string) *ExpectEvent {
	f := l.fields(n, path, eventFields)
	if f == nil {
		return nil
	}
	ev := &ExpectEvent{Min: 1, Max: -1}
	if v := f.get("reason"); v != nil {
		ev.Reason, _ = l.str(v, path+".reason")
	}
	if v := f.get("message"); v != nil {
		ev.Message, _ = l.str(v, path+".message")
	}
	if v := f.get("object"); v != nil {
		if s, ok := l.str(v, path+".object"); ok {
			if _, _, err := assertion.ParseObjectRef(s); err != nil {
				l.fail(v, "%s.object: %v", path, err)
			}
			ev.Object = s
		}
	}
	if ev.Reason == "" && ev.Object == "" && ev.Message == "" {
		l.fail(f.node, "%s: Required value: say which events: reason, object or message", path)
	}
	count := func(key string) (int, bool) {
		v := f.get(key)
		if v == nil {
			return 0, false
		}
		c, ok := l.integer(v, path+"."+key, 32)
		if ok && c < 0 {
			l.fail(v, "%s.%s: must be 0 or more", path, key)
		}
		return int(c), ok
	}
	minV, hasMin := count("min")
	maxV, hasMax := count("max")
	if hasMax {
		ev.Max = maxV
		if !hasMin {
			ev.Min = 0
		}
	}
	if hasMin {
		ev.Min = minV
	}
	if hasMin && hasMax && minV > maxV {
		l.fail(f.get("max"), "%s.max: %d is less than min %d", path, maxV, minV)
	}
	return ev
}

func (l *loader) expectOutput(n *yaml.Node, path string) *ExpectOutput {
	f := l.fields(n, path, outputFields)
	if f == nil {
		return nil
	}
	out := &ExpectOutput{}
	if v := f.get("command"); v != nil {
		out.Command, _ = l.str(v, path+".command")
	}
	if v := f.get("contains"); v != nil {
		out.Contains, _ = l.str(v, path+".contains")
	}
	if v := f.get("exitCode"); v != nil {
		if c, ok := l.integer(v, path+".exitCode", 32); ok {
			if c < 0 || c > 255 {
				l.fail(v, "%s.exitCode: must be from 0 to 255", path)
			}
			code := int(c)
			out.ExitCode = &code
		}
	}
	if f.get("contains") == nil && out.ExitCode == nil {
		l.fail(f.node, "%s: Required value: what the output must show: contains, exitCode or both", path)
	}
	return out
}
