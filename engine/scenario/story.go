package scenario

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"reconcile/engine/api"
	"reconcile/engine/validation"
	"reconcile/engine/yamlpos"
)

// The longest lead and story text, in characters.
const (
	maxLead = 200
	maxSay  = 400
)

var (
	momentFields     = []string{"at", "say"}
	predictionFields = []string{"at", "ask"}
)

// lead reads the one line shown before the run.
func (l *loader) lead(n *yaml.Node) string {
	s, ok := l.str(n, "lead")
	if !ok {
		return ""
	}
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		l.fail(n, "lead: Required value: one line shown before the run (leave lead out to show the summary's first sentence)")
	case strings.ContainsAny(s, "\r\n"):
		l.fail(n, "lead: Invalid value: must be one line: tell the rest in story")
	default:
		l.text(n, "lead", s, maxLead)
	}
	return s
}

// text checks a text the page shows: plain text or simple markdown, at
// most limit characters when limit is above 0.
func (l *loader) text(n *yaml.Node, path, s string, limit int) {
	if at := rawHTML(s); at >= 0 {
		l.fail(n, "%s: raw HTML is not allowed (found %q): write plain text or simple markdown", path, s[at:min(len(s), at+12)])
	}
	if c := utf8.RuneCountInString(s); limit > 0 && c > limit {
		l.fail(n, "%s: Too long: may not be more than %d characters, got %d", path, limit, c)
	}
}

// story reads the moments told while the run is stepped. Each moment's at
// must not come before the previous one's, and none may come after the end
// of the run, where no learner would see it.
func (l *loader) story(n *yaml.Node, horizon api.Duration) []Moment {
	var out []Moment
	var prev api.Duration // the at of the last moment read without error
	for i, item := range l.list(n, "story", `[{at: 30s, say: "worker-2 stops reporting."}]`) {
		path := fmt.Sprintf("story[%d]", i)
		f := l.fields(item, path, momentFields)
		if f == nil {
			continue
		}
		m := Moment{Pos: l.pm.Of(yamlpos.Resolve(item))}
		at, ok := l.when(f, path, "the simulated time the moment describes", horizon)
		m.At = at
		if ok && at < prev {
			l.fail(f.node, "%s: at %s comes before the previous moment's %s: tell the moments in the order they happen",
				path, api.FormatDuration(at), api.FormatDuration(prev))
		} else if ok {
			prev = at
		}
		if v := f.get("say"); v == nil {
			l.fail(f.node, "%s.say: Required value: the text shown when the run reaches at", path)
		} else if s, ok := l.str(v, path+".say"); ok {
			m.Say = strings.TrimSpace(s)
			if m.Say == "" {
				l.fail(v, "%s.say: Required value: the text shown when the run reaches at", path)
			} else {
				l.text(v, path+".say", m.Say, maxSay)
			}
		}
		out = append(out, m)
	}
	return out
}

// predict reads the passes before which the learner is asked to predict.
// A prediction at or after the end of the run would never be asked.
func (l *loader) predict(n *yaml.Node, horizon api.Duration) []Prediction {
	var out []Prediction
	for i, item := range l.list(n, "predict", `[{at: 30s, ask: who}]`) {
		path := fmt.Sprintf("predict[%d]", i)
		f := l.fields(item, path, predictionFields)
		if f == nil {
			continue
		}
		p := Prediction{Pos: l.pm.Of(yamlpos.Resolve(item))}
		if at, ok := l.when(f, path, "the simulated time from which the next pass is the one to predict", horizon); ok {
			p.At = at
			if at == horizon {
				l.fail(f.get("at"), "%s.at: %s is the end of the run: no pass is left to predict", path, api.FormatDuration(at))
			}
		}
		if v := f.get("ask"); v != nil {
			if s, ok := l.str(v, path+".ask"); ok {
				if !slices.Contains(Asks, s) {
					l.fail(v, "%s", validation.NotSupported(validation.Path(path+".ask"), s, Asks...))
				}
				p.Ask = s
			}
		}
		out = append(out, p)
	}
	return out
}

// when reads the required at of a story or predict entry, which must fall
// within the run: no later than horizon.
func (l *loader) when(f *fieldSet, path, what string, horizon api.Duration) (api.Duration, bool) {
	v := f.get("at")
	if v == nil {
		l.fail(f.node, "%s.at: Required value: %s, e.g. at: 30s", path, what)
		return 0, false
	}
	at, ok := l.duration(v, path+".at")
	if ok && at > horizon {
		l.fail(v, "%s.at: %s is after the end of the run at %s (ten minutes past the last step or expect)",
			path, api.FormatDuration(at), api.FormatDuration(horizon))
		return at, false
	}
	return at, ok
}

// firstSentence returns the first sentence of a text, its white space
// collapsed: up to the first '.', '!' or '?' that ends a word and is
// followed by more words, except after e.g. and i.e.
func firstSentence(text string) string {
	words := strings.Fields(text)
	for i, w := range words[:max(len(words)-1, 0)] {
		end := strings.TrimRight(w, `"')*_`)
		if end == "" || !strings.ContainsAny(end[len(end)-1:], ".!?") {
			continue
		}
		if lower := strings.ToLower(strings.TrimLeft(end, `"'(*_`)); lower == "e.g." || lower == "i.e." {
			continue
		}
		return strings.Join(words[:i+1], " ")
	}
	return strings.Join(words, " ")
}
