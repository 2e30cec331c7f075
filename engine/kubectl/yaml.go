package kubectl

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// YAML renders JSON-shaped data (maps, lists, strings, numbers, booleans,
// null) as YAML the way kubectl -o yaml lays it out: keys sorted, lists of
// maps with "- " on the first key, strings quoted only when they must be.
func YAML(v any) string {
	var b strings.Builder
	writeYAML(&b, v, 0, false)
	return b.String()
}

func writeYAML(b *strings.Builder, v any, indent int, inList bool) {
	pad := strings.Repeat("  ", indent)
	switch t := v.(type) {
	case map[string]any:
		if len(t) == 0 {
			b.WriteString("{}\n")
			return
		}
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for i, k := range keys {
			p := pad
			if inList && i == 0 {
				p = ""
			}
			key := yamlString(k)
			b.WriteString(p + key + ":")
			writeValue(b, t[k], indent, 2*indent+len(key)+2)
		}
	case []any:
		if len(t) == 0 {
			b.WriteString("[]\n")
			return
		}
		for _, e := range t {
			b.WriteString(pad + "- ")
			switch e.(type) {
			case map[string]any:
				if len(e.(map[string]any)) == 0 {
					b.WriteString("{}\n")
					continue
				}
				writeYAML(b, e, indent+1, true)
			case []any:
				b.WriteString("\n")
				writeYAML(b, e, indent+1, false)
			default:
				b.WriteString(folded(e, 2*indent+2, 2*indent+2) + "\n")
			}
		}
	default:
		b.WriteString(pad + scalar(v) + "\n")
	}
}

// writeValue writes a mapping's value; col is the column it starts at.
func writeValue(b *strings.Builder, v any, indent, col int) {
	switch t := v.(type) {
	case map[string]any:
		if len(t) == 0 {
			b.WriteString(" {}\n")
			return
		}
		b.WriteString("\n")
		writeYAML(b, v, indent+1, false)
	case []any:
		if len(t) == 0 {
			b.WriteString(" []\n")
			return
		}
		b.WriteString("\n")
		writeYAML(b, v, indent, false)
	case string:
		if lit, ok := literal(t, strings.Repeat("  ", indent+1)); ok {
			b.WriteString(" " + lit)
			return
		}
		b.WriteString(" " + folded(v, col, 2*indent+2) + "\n")
	default:
		b.WriteString(" " + scalar(v) + "\n")
	}
}

// yamlWidth is the width past which sigs.k8s.io/yaml (go-yaml v2's
// emitter, best_width) breaks a plain or single-quoted string at a space.
const yamlWidth = 80

// folded is scalar(v), a string that starts at column col broken as
// go-yaml v2 breaks it: at a single space once the line is past yamlWidth,
// the rest going on at column indent.
func folded(v any, col, indent int) string {
	text := scalar(v)
	s, ok := v.(string)
	if !ok || len(text) == 0 || text[0] == '"' || col+len(text) <= yamlWidth {
		return text
	}
	_ = s
	var b strings.Builder
	column := col
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == ' ' && column > yamlWidth && i > 0 && i < len(text)-1 && text[i-1] != ' ' && text[i+1] != ' ' {
			b.WriteString("\n" + strings.Repeat(" ", indent))
			column = indent
			continue
		}
		b.WriteByte(c)
		column++
	}
	return b.String()
}

// literal renders a multi-line string as a YAML literal block ("|", then
// the lines indented by pad), as kubectl -o yaml shows the
// last-applied-configuration annotation. ok is false for a string a block
// cannot hold as it is (one line, tabs, spaces at the ends of lines).
func literal(s, pad string) (string, bool) {
	if !strings.Contains(s, "\n") || strings.ContainsAny(s, "\t\r") || strings.HasPrefix(s, " ") {
		return "", false
	}
	body := strings.TrimSuffix(s, "\n")
	head := "|"
	switch {
	case !strings.HasSuffix(s, "\n"):
		head = "|-"
	case strings.HasSuffix(body, "\n"):
		return "", false
	}
	var b strings.Builder
	b.WriteString(head + "\n")
	for _, line := range strings.Split(body, "\n") {
		if strings.HasSuffix(line, " ") {
			return "", false
		}
		if line != "" {
			b.WriteString(pad + line)
		}
		b.WriteString("\n")
	}
	return b.String(), true
}

func scalar(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(t)
	case float64:
		if t == float64(int64(t)) {
			return strconv.FormatInt(int64(t), 10)
		}
		return strconv.FormatFloat(t, 'g', -1, 64)
	case json.Number:
		return t.String()
	case string:
		return yamlString(t)
	}
	return fmt.Sprint(v)
}

// yamlString quotes a string when plain YAML would read it as something
// else (a number, a boolean, null) or could not hold it.
func yamlString(s string) string {
	if s == "" {
		return `""`
	}
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "on", "off", "null", "~", "y", "n":
		return strconv.Quote(s)
	}
	// Only a string that starts as a number can be read as one, and only
	// one that starts with a digit as a timestamp: the others skip the
	// parsers, whose refusals allocate (an inspector's YAML on every pass).
	if lead := s[0]; strings.IndexByte("+-.0123456789iInN", lead) >= 0 {
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return `"` + s + `"`
		}
		if lead >= '0' && lead <= '9' {
			if _, err := time.Parse(time.RFC3339, s); err == nil {
				return `"` + s + `"` // YAML would read it as a timestamp
			}
		}
	}
	if strings.ContainsAny(s, "\n\t\r") || !printable(s) {
		return strconv.Quote(s)
	}
	// Plain, unless an indicator starts it ("-", "?" and ":" only before a
	// space or at the end) or it holds ": " or " #" or ends in a space or
	// ":"; then single-quoted, as go-yaml v2's emitter chooses.
	lead := s[0]
	indicator := strings.IndexByte("#,[]{}&*!|>'\"%@` ", lead) >= 0 ||
		(strings.IndexByte("-?:", lead) >= 0 && (len(s) == 1 || s[1] == ' '))
	if indicator || strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.HasSuffix(s, " ") || strings.HasSuffix(s, ":") {
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	return s
}

// printable reports whether s holds only what YAML prints as it is.
func printable(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == 0xfeff {
			return false
		}
	}
	return true
}
