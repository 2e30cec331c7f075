package controller

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"
)

// TestListMessage: the message is the one fmt would write, whether the
// previous one is reused or not.
func TestListMessage(t *testing.T) {
	const what = "containers with unready status: "
	for _, tt := range []struct {
		names []string
		prev  string
		same  bool
	}{
		{[]string{"web"}, "", false},
		{[]string{"web"}, "containers with unready status: [web]", true},
		{[]string{"web", "db"}, "containers with unready status: [web]", false},
		{[]string{"web", "db"}, "containers with unready status: [web db]", true},
		{[]string{"web"}, "containers with unready status: [db]", false},
		{[]string{"web"}, "containers with unready status: [web ", false},
		{[]string{"web"}, "containers with incomplete status: [web]", false},
	} {
		want := fmt.Sprintf("containers with unready status: [%s]", strings.Join(tt.names, " "))
		got := listMessage(what, tt.names, tt.prev)
		if got != want {
			t.Errorf("listMessage(%q, %q) = %q, want %q", tt.names, tt.prev, got, want)
		}
		if reused := tt.prev != "" && unsafe.StringData(got) == unsafe.StringData(tt.prev); reused != tt.same {
			t.Errorf("listMessage(%q, %q) reused the previous message: %v, want %v", tt.names, tt.prev, reused, tt.same)
		}
	}
}

// TestImageID: the imageID is repository@digest whether the previous one
// is reused or not, and reused only when it says the same.
func TestImageID(t *testing.T) {
	const d = "sha256:0123"
	for _, tt := range []struct {
		image, prev string
		same        bool
	}{
		{"nginx:1.27", "", false},
		{"nginx:1.27", "docker.io/library/nginx@sha256:0123", true},
		{"nginx:1.27", "docker.io/library/nginx@sha256:0124", false},
		{"shop/web:1.0", "docker.io/shop/web@sha256:0123", true},
		{"shop/web:1.0", "docker.io/library/web@sha256:0123", false},
		{"registry.example:5000/web@sha256:9", "registry.example:5000/web@sha256:0123", true},
		{"localhost/web", "docker.io/localhost/web@sha256:0123", false},
	} {
		want := repository(tt.image) + "@" + d
		got := imageID(tt.image, d, tt.prev)
		if got != want {
			t.Errorf("imageID(%q, %q) = %q, want %q", tt.image, tt.prev, got, want)
		}
		if reused := tt.prev != "" && unsafe.StringData(got) == unsafe.StringData(tt.prev); reused != tt.same {
			t.Errorf("imageID(%q, %q) reused the previous: %v, want %v", tt.image, tt.prev, reused, tt.same)
		}
	}
	if got := repository("nginx"); got != "docker.io/library/nginx" {
		t.Errorf("repository(nginx) = %q", got)
	}
}
