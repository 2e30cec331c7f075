package controller

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/registry"
)

// The probe kinds, in the order a container's workers run them: the
// startup probe holds the other two back until it passes.
const (
	probeStartup = iota
	probeLiveness
	probeReadiness
)

var probeTitles = [3]string{"Startup", "Liveness", "Readiness"}

func probeOf(c api.Container, kind int) *api.Probe {
	switch kind {
	case probeStartup:
		return c.More().StartupProbe
	case probeLiveness:
		return c.LivenessProbe
	}
	return c.ReadinessProbe
}

func probeDelay(pr *api.Probe) api.Duration {
	return api.Duration(pr.InitialDelaySeconds) * api.Second
}

func probePeriod(pr *api.Probe) api.Duration {
	return api.Duration(probeValue(pr.PeriodSeconds, 10)) * api.Second
}

// startProbes starts a container's probe workers when it starts running:
// the startup probe's if it has one, else liveness and readiness.
func (k *KubeletLoop) startProbes(s *podSync, c api.Container, r role, rc *Container, img registry.Image) {
	if c.More().StartupProbe != nil {
		rc.Probes[probeStartup].Next = rc.RunSince + probeDelay(c.More().StartupProbe)
	} else {
		afterStartup(c, rc, rc.RunSince)
	}
	k.probe(s, c, r, rc, img) // what is due at once
}

// afterStartup starts the liveness and readiness workers once the
// container has started (at t): each probes first at initialDelaySeconds
// after the container started, or at once if that is past. Without a
// readiness probe the container is ready now.
func afterStartup(c api.Container, rc *Container, t api.Time) {
	rc.StartupOK = true
	for _, kind := range []int{probeLiveness, probeReadiness} {
		if pr := probeOf(c, kind); pr != nil {
			rc.Probes[kind] = ProbeState{Next: max(t, rc.RunSince+probeDelay(pr))}
		}
	}
	if c.ReadinessProbe == nil {
		rc.Ready = true
	}
}

// probePasses is what the image answers a probe of kind at t: nothing
// while it warms up, then as the registry says (faults change it).
func probePasses(img registry.Image, kind int, rc *Container, at api.Time) bool {
	if at < rc.RunSince+img.Warmup {
		return false
	}
	switch kind {
	case probeStartup:
		return !img.StartupFails
	case probeLiveness:
		return img.Healthy
	}
	return img.Ready
}

// probe runs the probes of a running container that are due. A probe
// whose result is settled (liveness passing, readiness passing on a ready
// container, startup passed) asks for no further pass until its answer
// changes. Failures count to failureThreshold: a failed startup or
// liveness probe kills the container, a failed readiness probe makes it
// unready; successThreshold successes make it ready again.
func (k *KubeletLoop) probe(s *podSync, c api.Container, r role, rc *Container, img registry.Image) {
	ctx := s.ctx
	for kind := probeStartup; kind <= probeReadiness; kind++ {
		pr := probeOf(c, kind)
		if pr == nil || (kind == probeStartup) == rc.StartupOK {
			continue
		}
		ps := &rc.Probes[kind]
		period := probePeriod(pr)
		if ps.Next == 0 {
			if probePasses(img, kind, rc, ctx.Now) {
				continue
			}
			// The answer changed since the worker settled: it sees it at
			// its next period.
			base := rc.RunSince + probeDelay(pr)
			n := (ctx.Now-base)/period + 1
			ps.Next = base + max(n, 0)*period
		}
		fails, succs := probeValue(pr.FailureThreshold, 3), probeValue(pr.SuccessThreshold, 1)
		if behind := (ctx.Now - ps.Next) / period; behind > api.Duration(fails+succs) {
			ps.Next += (behind - api.Duration(fails+succs)) * period
		}
		for ps.Next != 0 && ps.Next <= ctx.Now {
			at := ps.Next
			ps.Next = at + period
			if err := execError(s.p, c, pr, img, at); err != "" {
				// The prober throws the result away: no success, no
				// failure counted; the container keeps the state it had.
				k.containerEvent(ctx, s.p, c.Name, "Warning", "Unhealthy", fmt.Sprintf("%s probe errored and resulted in unknown state: %s", probeTitles[kind], err))
				continue
			}
			pass := probePasses(img, kind, rc, at)
			if pass {
				ps.Succs, ps.Fails = ps.Succs+1, 0
			} else {
				ps.Succs, ps.Fails = 0, ps.Fails+1
				k.containerEvent(ctx, s.p, c.Name, "Warning", "Unhealthy", probeTitles[kind]+" probe failed: "+k.probeFailure(s.ctx, s.p, c, pr, kind, at >= rc.RunSince+img.Warmup))
			}
			switch kind {
			case probeStartup:
				if pass {
					ps.Next = 0
					s.because("container " + c.Name + " passes its startup probe")
					s.act(Action{Verb: Observed, Container: c.Name, Rest: "startup probe of " + c.Name + " passed: liveness and readiness probes start"})
					afterStartup(c, rc, at)
				} else if ps.Fails >= fails {
					s.because("container " + c.Name + " failed its startup probe")
					k.exit(s, c, r, rc, img, 137, "startup")
					return
				}
			case probeLiveness:
				if pass {
					ps.Next = 0
				} else if ps.Fails >= fails {
					s.because("container " + c.Name + " failed its liveness probe")
					k.exit(s, c, r, rc, img, 137, "liveness")
					return
				}
			case probeReadiness:
				switch {
				case pass && !rc.Ready && ps.Succs >= succs:
					rc.Ready = true
					s.because("container " + c.Name + " answers its readiness probe; status says not ready")
					s.act(Action{Verb: ReadinessPassed, Container: c.Name, Rest: "readiness probe of " + c.Name + " passed"})
				case !pass && rc.Ready && ps.Fails >= fails:
					rc.Ready = false
					s.because("container " + c.Name + " fails its readiness probe; status says ready")
					s.act(Action{Verb: Observed, Container: c.Name, Rest: fmt.Sprintf("readiness probe of %s failed %d times: not ready", c.Name, ps.Fails)})
				}
				if pass && rc.Ready {
					ps.Next = 0
				}
			}
		}
		if ps.Next > 0 {
			s.soon(ps.Next)
		}
	}
}

// probeFailure is the kubelet prober's output for a failed probe, by
// handler: an HTTP status or a refused connection, a refused TCP dial, a
// command's output, a gRPC health status. answering is false while the
// container does not listen yet (it warms up).
func (k *KubeletLoop) probeFailure(ctx *Context, p *api.Pod, c api.Container, pr *api.Probe, kind int, answering bool) string {
	ip := k.addressOf(ctx, p)
	switch {
	case pr.HTTPGet != nil:
		host := str(pr.HTTPGet["host"])
		if host == "" {
			host = ip
		}
		port := portOf(c, pr.HTTPGet["port"])
		scheme := strings.ToLower(str(pr.HTTPGet["scheme"]))
		if scheme == "" {
			scheme = "http"
		}
		path := str(pr.HTTPGet["path"])
		if path != "" && !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		if !answering {
			return fmt.Sprintf("Get %q: dial tcp %s:%s: connect: connection refused", scheme+"://"+host+":"+port+path, host, port)
		}
		code := 500
		if kind == probeReadiness {
			code = 503
		}
		return fmt.Sprintf("HTTP probe failed with statuscode: %d", code)
	case pr.TCPSocket != nil:
		host := str(pr.TCPSocket["host"])
		if host == "" {
			host = ip
		}
		return fmt.Sprintf("dial tcp %s:%s: connect: connection refused", host, portOf(c, pr.TCPSocket["port"]))
	case pr.GRPC != nil:
		if !answering {
			return fmt.Sprintf("timeout: failed to connect service %q within %ds: context deadline exceeded",
				ip+":"+portOf(c, pr.GRPC.Port), probeValue(pr.TimeoutSeconds, 1))
		}
		return `service unhealthy (responded with "NOT_SERVING")`
	case pr.Exec != nil:
		return execOutput(pr.Exec)
	}
	return ""
}

// execOutput is what a failing probe command prints (the kubelet reports
// the command's output): for `cat FILE`, the shell's missing-file error;
// for anything else the simulation knows no output.
func execOutput(exec map[string]any) string {
	list, _ := exec["command"].([]any)
	if len(list) == 2 && str(list[0]) == "cat" {
		return fmt.Sprintf("cat: can't open '%s': No such file or directory", str(list[1]))
	}
	return ""
}

// execError is the runtime's error for an exec probe whose program the
// image does not have, as the kubelet reports it (the CRI's ExecSync
// failing: the command never started, so it has no exit code), or "".
// The exec's id is made from the pod, the container and the moment.
func execError(p *api.Pod, c api.Container, pr *api.Probe, img registry.Image, at api.Time) string {
	if pr.Exec == nil {
		return ""
	}
	list, _ := pr.Exec["command"].([]any)
	if len(list) == 0 || img.HasCommand(str(list[0])) {
		return ""
	}
	cmd := str(list[0])
	why := fmt.Sprintf("exec: %q: executable file not found in $PATH", cmd)
	if strings.Contains(cmd, "/") {
		why = fmt.Sprintf("exec: %q: stat %s: no such file or directory", cmd, cmd)
	}
	id := sha256.Sum256([]byte(p.UID + "/" + c.Name + "/" + strconv.FormatInt(int64(at), 10)))
	return fmt.Sprintf("rpc error: code = Unknown desc = failed to exec in container: failed to start exec %q: OCI runtime exec failed: exec failed: unable to start container process: %s: unknown",
		hex.EncodeToString(id[:]), why)
}

// portOf resolves a probe's port: a number, or the name of one of the
// container's ports.
func portOf(c api.Container, v any) string {
	s := str(v)
	if _, err := strconv.Atoi(s); err == nil || s == "" {
		return s
	}
	for _, cp := range c.Ports {
		if cp.Name == s {
			return strconv.Itoa(int(cp.ContainerPort))
		}
	}
	return s
}

func str(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return t
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}
