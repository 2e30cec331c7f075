// Package registry is the simulated image registry: tags that name
// digests, and how an image behaves once a kubelet runs it (how long it
// pulls and starts, whether it passes readiness, crashes, fails its
// liveness probe, or cannot be pulled at all).
//
// A tag is a name, not content: pushing a tag again (Push) gives it a new
// digest while every spec that names it stays the same. That is the
// lesson's "everything green, users see the old version".
package registry

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"slices"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/validation"
)

// Image is what the registry knows of a reference, and how a container of
// it behaves.
type Image struct {
	// Ref is the reference as listed, e.g. "shop/web:1.0".
	Ref    string
	Digest string
	// Size is the image's size in bytes, as pull events report it.
	Size  int64
	Pull  api.Duration
	Start api.Duration
	// Ready false means the container never passes readiness.
	Ready bool
	// Crash means the container exits 1 once started (CrashLoopBackOff).
	Crash bool
	// Healthy false means a liveness probe, if the container has one,
	// fails once the container has started: the kubelet restarts it.
	Healthy bool
	// PullError, when set, is why every pull of the image fails.
	PullError string

	// ExitCode, when not 0, is the code the container exits with after
	// Runs (a crash is exit code 1).
	ExitCode int32
	// Runs, when set, is how long the container runs before it exits (with
	// ExitCode): a batch job's work, or a program that ends.
	Runs api.Duration
	// Warmup is how long after it starts the container answers no probe
	// (connection refused): a slow start that a startupProbe covers.
	Warmup api.Duration
	// Stops is how long the container takes to exit once told to stop
	// (SIGTERM), at most the pod's grace period, after which it is
	// killed; 0 exits at once.
	Stops api.Duration
	// StartupFails means a startup probe fails even after Warmup.
	StartupFails bool
	// PostStartFails and PreStopFails make the container's lifecycle
	// hooks fail (FailedPostStartHook, FailedPreStopHook).
	PostStartFails, PreStopFails bool
	// Memory is how many bytes a container of the image uses once it
	// runs: above its container's memory limit the kernel kills it
	// (OOMKilled, exit code 137) as it starts; 0 uses none worth saying.
	Memory int64
	// Commands, when listed, are the programs a container of the image
	// can run (by name or path: "cat" is also /bin/cat); an exec probe
	// naming another cannot start. Empty: every command exists.
	Commands []string
}

// HasCommand reports whether a container of the image can run the program
// cmd (the first word of an exec probe's command).
func (img Image) HasCommand(cmd string) bool {
	if len(img.Commands) == 0 {
		return true
	}
	base := cmd[strings.LastIndexByte(cmd, '/')+1:]
	return slices.Contains(img.Commands, cmd) || slices.Contains(img.Commands, base)
}

// OverLimit reports whether a container of the image, under the memory
// limit limitBytes (0: none), uses more than it may: the kernel's OOM
// killer ends it.
func (img Image) OverLimit(limitBytes int64) bool {
	return limitBytes > 0 && img.Memory > limitBytes
}

// Exits reports whether a container of the image exits by itself, and
// with which code, under a pod's restartPolicy: a crashing image exits 1,
// an image with an exit code or a run time exits with it, and any image
// in a pod that is not restarted always (a Job's) finishes its work with 0.
func (img Image) Exits(restartPolicy string) (bool, int32) {
	switch {
	case img.ExitCode != 0:
		return true, img.ExitCode
	case img.Crash:
		return true, 1
	case img.Runs > 0:
		return true, 0
	}
	return restartPolicy != "" && restartPolicy != "Always", 0
}

// Probes are the probe kinds a fault can make pass or fail.
var Probes = []string{"startup", "liveness", "readiness"}

// SetProbe makes the image's containers pass (or fail) the probe kind from
// now on: readiness is Ready, liveness Healthy, startup !StartupFails.
func (r *Registry) SetProbe(ref, probe string, pass bool) {
	img := r.Image(ref)
	switch probe {
	case "readiness":
		img.Ready = pass
	case "liveness":
		img.Healthy = pass
	case "startup":
		img.StartupFails = !pass
	}
	if r.images == nil {
		r.images = map[string]Image{}
	}
	r.images[Normal(ref)] = img
}

// Defaults of an image the registry does not list: it pulls in a second,
// starts in two and becomes ready.
const (
	DefaultPull  = 1 * api.Second
	DefaultStart = 2 * api.Second
	DefaultSize  = 24_117_248
)

// Default returns how the registry treats a reference it does not list.
func Default(ref string) Image {
	return Image{Ref: ref, Digest: DigestOf(Normal(ref)), Size: DefaultSize, Pull: DefaultPull, Start: DefaultStart, Ready: true, Healthy: true}
}

// Registry holds the listed images by normalised reference. The zero
// Registry lists nothing.
type Registry struct {
	images map[string]Image
	// unlisted memoizes Default by reference: a kubelet looks the image up
	// for every container at every sync, and Default hashes the reference
	// each time. Default depends on the reference alone, and a listed
	// (pushed, probed) tag is looked up in images first, so the memo never
	// hides a change.
	unlisted map[string]Image
}

// New returns a registry listing images. An image without a digest gets
// one made from its reference; one without a size, DefaultSize.
func New(images []Image) *Registry {
	r := &Registry{images: make(map[string]Image, len(images))}
	for _, img := range images {
		if img.Digest == "" {
			img.Digest = DigestOf(img.Ref)
		}
		if img.Size == 0 {
			img.Size = DefaultSize
		}
		r.images[Normal(img.Ref)] = img
	}
	return r
}

// Normal is the reference a registry looks a name up by: a name with
// neither a tag nor a digest means its tag "latest" ("shop/web" is
// "shop/web:latest").
func Normal(ref string) string {
	if tag, digest := validation.ImageTag(ref); tag == "" && !digest {
		return ref + ":latest"
	}
	return ref
}

// DigestOf makes up the digest of content named s: "sha256:" and the
// SHA-256 of s in lowercase hex. (A kubelet looks an image up for every
// container it starts: written without fmt, whose %x walks the array a
// byte at a time by reflection, costly in the browser.)
func DigestOf(s string) string {
	h := sha256.Sum256([]byte(s))
	var b [len("sha256:") + 2*sha256.Size]byte
	copy(b[:], "sha256:")
	hex.Encode(b[len("sha256:"):], h[:])
	return string(b[:])
}

// Image looks ref up: a listed tag as listed; a reference by digest as
// the listed image of that name with that digest (the first tag by name,
// when several carry it); anything else as Default.
func (r *Registry) Image(ref string) Image {
	if img, ok := r.images[Normal(ref)]; ok {
		return img
	}
	if name, digest, ok := strings.Cut(ref, "@"); ok {
		for _, k := range slices.Sorted(maps.Keys(r.images)) {
			img := r.images[k]
			if img.Digest == digest && strings.HasPrefix(img.Ref, name+":") {
				img.Ref = ref
				return img
			}
		}
		img := Default(ref)
		img.Digest = digest
		return img
	}
	if img, ok := r.unlisted[ref]; ok {
		return img
	}
	img := Default(ref)
	if r.unlisted == nil {
		r.unlisted = map[string]Image{}
	}
	r.unlisted[ref] = img
	return img
}

// Push pushes the tag ref again: it names new content from now on, with
// digest, or with a digest made up from the one it had when digest is "".
func (r *Registry) Push(ref, digest string) {
	img := r.Image(ref)
	if digest == "" {
		digest = DigestOf(img.Digest + "+push")
	}
	img.Digest = digest
	if r.images == nil {
		r.images = map[string]Image{}
	}
	r.images[Normal(ref)] = img
}

// Listed returns the references the registry lists, sorted.
func (r *Registry) Listed() []string {
	out := make([]string, 0, len(r.images))
	for _, img := range r.images {
		out = append(out, img.Ref)
	}
	slices.Sort(out)
	return out
}

// Clone returns a copy of r that changes apart from it. The copy starts
// its own memo of unlisted references (they are cheap to make again), so
// no map is shared between the two.
func (r *Registry) Clone() *Registry { return &Registry{images: maps.Clone(r.images)} }
