package api

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// IntOrString is an integer or a percentage such as "25%", as in
// maxSurge and maxUnavailable.
type IntOrString struct {
	IsString bool
	Int      int32
	Str      string
}

// FromInt returns an integer IntOrString.
func FromInt(i int32) IntOrString { return IntOrString{Int: i} }

// FromString returns a string IntOrString.
func FromString(s string) IntOrString { return IntOrString{IsString: true, Str: s} }

// String renders the value as written.
func (v IntOrString) String() string {
	if v.IsString {
		return v.Str
	}
	return strconv.Itoa(int(v.Int))
}

// MarshalJSON writes a number or a string.
func (v IntOrString) MarshalJSON() ([]byte, error) {
	if v.IsString {
		return json.Marshal(v.Str)
	}
	return json.Marshal(v.Int)
}

// UnmarshalJSON reads a number or a string.
func (v *IntOrString) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		v.IsString = true
		return json.Unmarshal(b, &v.Str)
	}
	v.IsString = false
	return json.Unmarshal(b, &v.Int)
}

// UnmarshalYAML reads a number or a string.
func (v *IntOrString) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: cannot unmarshal %s into an integer or percentage", n.Line, kindName(n))
	}
	if n.Tag == "!!int" {
		i, err := strconv.ParseInt(n.Value, 10, 32)
		if err != nil {
			return fmt.Errorf("line %d: %q is out of range for int32", n.Line, n.Value)
		}
		*v = FromInt(int32(i))
		return nil
	}
	*v = FromString(n.Value)
	return nil
}

// MarshalYAML writes a number or a string.
func (v IntOrString) MarshalYAML() (any, error) {
	if v.IsString {
		return v.Str, nil
	}
	return v.Int, nil
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a sequence"
	}
	return "a value"
}

// Scaled resolves v against total: an integer is itself, a percentage is
// rounded up or down as asked (maxSurge rounds up, maxUnavailable down).
func (v IntOrString) Scaled(total int32, roundUp bool) (int32, error) {
	if !v.IsString {
		return v.Int, nil
	}
	p, ok := v.Percent()
	if !ok {
		return 0, fmt.Errorf("invalid value for IntOrString: invalid type: string is not a percentage")
	}
	f := float64(p) * float64(total) / 100
	if roundUp {
		return int32(math.Ceil(f)), nil
	}
	return int32(math.Floor(f)), nil
}

// Percent returns the percentage of a string value such as "25%".
func (v IntOrString) Percent() (int, bool) {
	if !v.IsString || !strings.HasSuffix(v.Str, "%") {
		return 0, false
	}
	p, err := strconv.Atoi(strings.TrimSuffix(v.Str, "%"))
	return p, err == nil
}
