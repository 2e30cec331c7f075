package scenario

import (
	"regexp"
	"strings"
	"testing"
)

// TestScansAreTheRegexps holds slug, isID and rawHTML to the regular
// expressions they stand for.
func TestScansAreTheRegexps(t *testing.T) {
	nonSlug := regexp.MustCompile(`[^a-z0-9]+`)
	idRE := regexp.MustCompile(`^[a-z0-9-]+$`)
	tag := regexp.MustCompile(`<[A-Za-z/!?]`)
	for _, s := range []string{
		"", "a", "web-app", "Web App", "--x--", "x__y  z", "Ünïcode ✓ name", "a\xffb", "<", "<<b", "a <b>", "1 < 2",
		"<!-- c -->", "<?xml", "</p>", "< p", "x<1", "<Z", "<-", "-", "a--b", "abc123", "ABC", "id.with.dots", "end<",
	} {
		if got, want := slug(s+".yaml"), strings.Trim(nonSlug.ReplaceAllString(strings.ToLower(s), "-"), "-"); got != want && !(want == "" && got == "scenario") {
			t.Errorf("slug(%q) = %q, want %q", s, got, want)
		}
		if got, want := isID(s), idRE.MatchString(s); got != want {
			t.Errorf("isID(%q) = %v, want %v", s, got, want)
		}
		want := -1
		if loc := tag.FindStringIndex(s); loc != nil {
			want = loc[0]
		}
		if got := rawHTML(s); got != want {
			t.Errorf("rawHTML(%q) = %d, want %d", s, got, want)
		}
	}
}
