package limits

import (
	"strings"
	"testing"
)

func TestJSONDepth(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
	}{
		{``, 0},
		{`"[[[["`, 0},
		{`{"a": [1, {"b": "]]]\"[["}]}`, 3},
		{`[[]] [[[]]]`, 3},
		{strings.Repeat("[", 10000), MaxDepth + 1},
	} {
		if got := JSONDepth([]byte(c.text)); got != c.want {
			t.Errorf("JSONDepth(%.40q) = %d, want %d", c.text, got, c.want)
		}
	}
	if err := CheckJSONDepth([]byte(strings.Repeat("[", MaxDepth+1))); err == nil || err.Error() != DepthMessage() {
		t.Errorf("CheckJSONDepth: %v", err)
	}
}
