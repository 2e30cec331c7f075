package api

import (
	"fmt"
	"strings"
)

// The grammar of an image reference, as container runtimes parse it:
// [domain[:port]/]path[:tag][@digest], the path in lower case. It is
// matched by hand below (a kubelet checks the reference of every container
// it starts, and compiled regular expressions cost every program start);
// imageref_test.go holds the matcher to the regular expression
// imageRefGrammar over many strings.
//
//	domain-part = [a-zA-Z0-9] | [a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]
//	domain      = domain-part ("." domain-part)* (":" [0-9]+)?
//	path-part   = [a-z0-9]+ (([._] | "__" | "-"+) [a-z0-9]+)*
//	name        = (domain "/")? path-part ("/" path-part)*
//	tag         = [A-Za-z0-9_] [A-Za-z0-9_.-]{0,127}
//	digest      = [A-Za-z][A-Za-z0-9]* ([-_+.][A-Za-z][A-Za-z0-9]*)* ":" [0-9a-fA-F]{32,}
//	reference   = name (":" tag)? ("@" digest)?

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
	if isHex64(s) {
		return fmt.Sprintf("invalid repository name (%s), cannot specify 64-byte hexadecimal strings", s)
	}
	// Docker Hub names get their domain and, when they have one part, the
	// library/ prefix; the repository must be lower case.
	prefix, remainder := "", s
	if i := strings.IndexRune(s, '/'); i == -1 || (!strings.ContainsAny(s[:i], ".:") && s[:i] != "localhost" && strings.ToLower(s[:i]) == s[:i]) {
		if !strings.ContainsRune(remainder, '/') {
			prefix = "library/"
		}
	} else {
		remainder = s[i+1:]
	}
	remote := remainder
	if i := strings.IndexRune(remainder, ':'); i > -1 {
		remote = remainder[:i]
	}
	if strings.ToLower(remote) != remote {
		return fmt.Sprintf("invalid reference format: repository name (%s) must be lowercase", prefix+remote)
	}
	name, ok := matchImageRef(s)
	if !ok {
		return "invalid reference format"
	}
	if len(name) > 255 {
		return "repository name must not be more than 255 characters"
	}
	return ""
}

// isHex64 reports whether s is 64 lower-case hexadecimal digits.
func isHex64(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// matchImageRef matches s against the reference grammar and returns its
// name. The split is unique: no part but the digest holds "@"; after the
// name's last "/", only a tag's separator can be a ":".
func matchImageRef(s string) (name string, ok bool) {
	if at := strings.IndexByte(s, '@'); at >= 0 {
		if !matchDigest(s[at+1:]) {
			return "", false
		}
		s = s[:at]
	}
	name = s
	if colon := strings.LastIndexByte(s, ':'); colon > strings.LastIndexByte(s, '/') {
		if !matchTag(s[colon+1:]) {
			return "", false
		}
		name = s[:colon]
	}
	return name, matchImageName(name)
}

func isWord(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

func isLowerDigit(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

func matchTag(t string) bool {
	if len(t) == 0 || len(t) > 128 || !isWord(t[0]) {
		return false
	}
	for i := 1; i < len(t); i++ {
		if c := t[i]; !isWord(c) && c != '.' && c != '-' {
			return false
		}
	}
	return true
}

func matchDigest(d string) bool {
	alg, hex, ok := strings.Cut(d, ":")
	if !ok || len(hex) < 32 {
		return false
	}
	for i := 0; i < len(hex); i++ {
		if c := hex[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	// Components of a letter then letters and digits, joined by one of
	// -_+.
	letter := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	start := true
	for i := 0; i < len(alg); i++ {
		c := alg[i]
		switch {
		case start:
			if !letter(c) {
				return false
			}
			start = false
		case letter(c) || c >= '0' && c <= '9':
		case c == '-' || c == '_' || c == '+' || c == '.':
			start = true
		default:
			return false
		}
	}
	return !start
}

// matchImageName: path components, the first of which may be a domain
// instead when more follow.
func matchImageName(name string) bool {
	first, rest, more := strings.Cut(name, "/")
	if !more {
		return matchPathPart(first)
	}
	if !matchPathPart(first) && !matchDomain(first) {
		return false
	}
	for {
		var part string
		part, rest, more = strings.Cut(rest, "/")
		if !matchPathPart(part) {
			return false
		}
		if !more {
			return true
		}
	}
}

// matchPathPart: runs of [a-z0-9] joined by ".", "_", "__" or dashes.
func matchPathPart(p string) bool {
	if p == "" || !isLowerDigit(p[0]) || !isLowerDigit(p[len(p)-1]) {
		return false
	}
	for i := 1; i < len(p); i++ {
		c := p[i]
		switch {
		case isLowerDigit(c):
		case c == '.' || c == '_':
			// One separator; "__" is the only doubled one.
			if n := p[i+1]; c == '_' && n == '_' {
				i++
			}
			if !isLowerDigit(p[i+1]) {
				return false
			}
		case c == '-':
			for p[i+1] == '-' {
				i++
			}
			if !isLowerDigit(p[i+1]) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// matchDomain: dot-separated parts of letters, digits and inner dashes,
// then an optional ":" and port digits.
func matchDomain(d string) bool {
	if host, port, ok := strings.Cut(d, ":"); ok {
		if port == "" {
			return false
		}
		for i := 0; i < len(port); i++ {
			if port[i] < '0' || port[i] > '9' {
				return false
			}
		}
		d = host
	}
	for {
		part, rest, more := strings.Cut(d, ".")
		if part == "" || part[0] == '-' || part[len(part)-1] == '-' {
			return false
		}
		for i := 0; i < len(part); i++ {
			if c := part[i]; !isWord(c) && c != '-' || c == '_' {
				return false
			}
		}
		if !more {
			return true
		}
		d = rest
	}
}
