package api

import "testing"

func TestImageRefError(t *testing.T) {
	for _, tt := range []struct{ image, want string }{
		{"nginx", ""},
		{"nginx:1.25", ""},
		{"shop/web:1.0", ""},
		{"registry.example:5000/team/app@sha256:0123456789abcdef0123456789abcdef", ""},
		{"Nginx:1.25", `couldn't parse image name "Nginx:1.25": invalid reference format: repository name (library/Nginx) must be lowercase`},
		{"shop/Web:1.0", `couldn't parse image name "shop/Web:1.0": invalid reference format: repository name (shop/Web) must be lowercase`},
		{"nginx:1.25 ", `couldn't parse image name "nginx:1.25 ": invalid reference format`},
		{"nginx::1", `couldn't parse image name "nginx::1": invalid reference format`},
	} {
		if got := ImageRefError(tt.image); got != tt.want {
			t.Errorf("%q: got %q, want %q", tt.image, got, tt.want)
		}
	}
}
