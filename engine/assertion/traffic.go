package assertion

import (
	"fmt"
	"strconv"
	"strings"

	"reconcile/engine/api"
)

// The traffic form of an assertion counts the requests of a lesson's
// request stream (traffic:), from the start of the run or over the last
// stretch before the expect's moment:
//
//	traffic.failed == 0
//	traffic(30s).ok >= 290
//	traffic(1m).digest[sha256:aaaa] == 0     requests answered by pods running a digest (a prefix will do)
//	traffic.total > 0
//	traffic/careful.failed > 0                the stream to one Service, when the lesson has several
//	traffic/careful(1m).failed == 0
//
// It compares a count with a whole number.

// TrafficQuery is what a traffic assertion counts.
type TrafficQuery struct {
	// Service names the stream counted; "" counts every stream.
	Service string
	// Window, when > 0, counts only the requests of the last Window before
	// the moment checked; 0 counts from the start of the run.
	Window api.Duration
	// Field is ok, failed, total or digest.
	Field string
	// Digest is the digest (or its prefix) of Field digest.
	Digest string
}

// TrafficCounts is what a run reports of its request stream over a
// stretch: requests answered, failed, and answered per image digest.
type TrafficCounts struct {
	OK, Failed int
	// Digest returns how many requests pods running a digest that starts
	// with its argument answered.
	Digest func(prefix string) int
}

const trafficForm = "traffic[/SERVICE][(WINDOW)].FIELD OP NUMBER, with FIELD ok, failed, total or digest[DIGEST], e.g. traffic.failed == 0 or traffic/web(30s).ok > 0"

func isTrafficForm(head string) bool {
	return head == "traffic" || strings.HasPrefix(head, "traffic.") || strings.HasPrefix(head, "traffic(") || strings.HasPrefix(head, "traffic/")
}

func (a *Assertion) parseTrafficForm(toks []token) error {
	if len(toks) < 3 {
		last := toks[len(toks)-1]
		return wantForm(last.off+len(last.text), trafficForm)
	}
	if len(toks) > 3 {
		return &Error{Offset: toks[3].off, Msg: fmt.Sprintf("unexpected %q after the number", toks[3].text)}
	}
	q := &TrafficQuery{}
	rest := strings.TrimPrefix(toks[0].text, "traffic")
	if r, ok := strings.CutPrefix(rest, "/"); ok {
		end := strings.IndexAny(r, ".(")
		if end <= 0 {
			return &Error{Offset: toks[0].off, Msg: "traffic/: want a Service's name, e.g. traffic/web.failed"}
		}
		q.Service, rest = r[:end], r[end:]
	}
	if strings.HasPrefix(rest, "(") {
		end := strings.IndexByte(rest, ')')
		if end < 0 {
			return &Error{Offset: toks[0].off, Msg: "traffic(: the window is not closed, e.g. traffic(30s).failed"}
		}
		d, err := api.ParseDuration(rest[1:end])
		if err != nil || d <= 0 {
			return &Error{Offset: toks[0].off + len("traffic("), Msg: fmt.Sprintf("traffic(%s): want a window such as 30s or 2m", rest[1:end])}
		}
		q.Window = d
		rest = rest[end+1:]
	}
	field, ok := strings.CutPrefix(rest, ".")
	if !ok || field == "" {
		return &Error{Offset: toks[0].off, Msg: "incomplete expect: want " + trafficForm}
	}
	switch {
	case field == "ok" || field == "failed" || field == "total":
		q.Field = field
	case strings.HasPrefix(field, "digest[") && strings.HasSuffix(field, "]") && len(field) > len("digest[]"):
		q.Field, q.Digest = "digest", field[len("digest["):len(field)-1]
	default:
		return &Error{Offset: toks[0].off, Msg: fmt.Sprintf("unknown traffic field %q: want ok, failed, total or digest[DIGEST]", field)}
	}
	op := toks[1].text
	if op == "contains" || !isOp(op) {
		return &Error{Offset: toks[1].off, Msg: "a traffic count compares with ==, !=, <, <=, > or >="}
	}
	if n, err := strconv.Atoi(toks[2].text); err != nil || n < 0 {
		return &Error{Offset: toks[2].off, Msg: fmt.Sprintf("a traffic count compares with a whole number, got %q", toks[2].text)}
	}
	a.Op, a.Value, a.Traffic = op, Operand{Text: toks[2].text}, q
	return nil
}

func isOp(s string) bool {
	for _, o := range Ops {
		if o == s {
			return true
		}
	}
	return false
}

// EvalTraffic evaluates a traffic assertion on the counts of its window.
func (a *Assertion) EvalTraffic(c TrafficCounts) (got string, ok bool) {
	var n int
	switch a.Traffic.Field {
	case "ok":
		n = c.OK
	case "failed":
		n = c.Failed
	case "total":
		n = c.OK + c.Failed
	case "digest":
		if c.Digest != nil {
			n = c.Digest(a.Traffic.Digest)
		}
	}
	want, _ := strconv.ParseFloat(a.Value.Text, 64)
	if compareNumbers(float64(n), a.Op, want) {
		return "", true
	}
	return fmt.Sprintf("got %d (%d ok, %d failed)", n, c.OK, c.Failed), false
}
