package api

import (
	"fmt"
	"regexp"
	"strings"
)

// The grammar of an image reference, as container runtimes parse it:
// [domain[:port]/]path[:tag][@digest], the path in lower case.
var (
	imageRefRE = func() *regexp.Regexp {
		domainPart := `(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])`
		domain := domainPart + `(?:\.` + domainPart + `)*(?::[0-9]+)?`
		pathPart := `[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*`
		name := `(?:` + domain + `/)?` + pathPart + `(?:/` + pathPart + `)*`
		tag := `[\w][\w.-]{0,127}`
		digest := `[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}`
		return regexp.MustCompile(`^(` + name + `)(?::` + tag + `)?(?:@` + digest + `)?$`)
	}()
	hex64RE = regexp.MustCompile(`^[a-f0-9]{64}$`)
)

// ImageRefError returns why the kubelet cannot use image as a reference
// ("couldn't parse image name ...", the text that follows "Failed to apply
// default image tag" in its InvalidImageName message), or "" when it can.
func ImageRefError(image string) string {
	why := imageRefProblem(image)
	if why == "" {
		return ""
	}
	return fmt.Sprintf("couldn't parse image name %q: %s", image, why)
}

func imageRefProblem(s string) string {
	if hex64RE.MatchString(s) {
		return fmt.Sprintf("invalid repository name (%s), cannot specify 64-byte hexadecimal strings", s)
	}
	// Docker Hub names get their domain and, when they have one part, the
	// library/ prefix; the repository must be lower case.
	remainder := s
	if i := strings.IndexRune(s, '/'); i == -1 || (!strings.ContainsAny(s[:i], ".:") && s[:i] != "localhost" && strings.ToLower(s[:i]) == s[:i]) {
		if !strings.ContainsRune(remainder, '/') {
			remainder = "library/" + remainder
		}
	} else {
		remainder = s[i+1:]
	}
	remote := remainder
	if i := strings.IndexRune(remainder, ':'); i > -1 {
		remote = remainder[:i]
	}
	if strings.ToLower(remote) != remote {
		return fmt.Sprintf("invalid reference format: repository name (%s) must be lowercase", remote)
	}
	m := imageRefRE.FindStringSubmatch(s)
	if m == nil {
		return "invalid reference format"
	}
	if len(m[1]) > 255 {
		return "repository name must not be more than 255 characters"
	}
	return ""
}
