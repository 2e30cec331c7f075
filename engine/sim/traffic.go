package sim

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/controller"
)

// Traffic is a simulated stream of requests to a Service: PerSecond
// requests a second, evenly spaced, from the start of the run. Each is
// sent, as kube-proxy would send it, to the next endpoint (round-robin,
// deterministic) among those the Service's EndpointSlice lists as ready
// now — the slice as the EndpointSlice controller last wrote it, not the
// pods as they are — and is answered by that pod if its containers run
// and are ready. So the endpoint controller's lag shows: a pod already
// gone but still listed refuses requests until the slice drops it.
//
// Not simulated: kube-proxy's own delay in programming the slice, client
// retries, connection reuse and request latency; every request is answered
// (or fails) at the instant it is sent.
type Traffic struct {
	// Namespace and Service name the Service the requests go to.
	Namespace, Service string
	// PerSecond is how many requests a second are sent.
	PerSecond int
}

// Why a request failed.
const (
	// FailNoEndpoints: the slice lists no ready endpoint; kube-proxy
	// rejects the connection.
	FailNoEndpoints = "no endpoints"
	// FailRefused: the endpoint's pod is gone or its container is not
	// running.
	FailRefused = "connection refused"
	// FailNotReady: the container runs but fails its readiness probe; it
	// does not serve.
	FailNotReady = "not ready"
	// FailTimeout: the endpoint's node is down.
	FailTimeout = "timeout"
	// FailNoService: no such Service.
	FailNoService = "no such service"
)

// Count is how many requests one key (a digest, a pod, an error) got.
type Count struct {
	Key string `json:"key"`
	N   int    `json:"n"`
}

// TrafficSecond is one second of the request stream: the requests sent in
// [At, At+1s), how many were answered and failed, and by whom.
type TrafficSecond struct {
	At       api.Time `json:"at"`
	OK       int      `json:"ok"`
	Failed   int      `json:"failed"`
	ByDigest []Count  `json:"byDigest,omitempty"`
	ByPod    []Count  `json:"byPod,omitempty"`
	ByError  []Count  `json:"byError,omitempty"`
}

// TrafficWindow sums the seconds of a stretch of the stream.
type TrafficWindow struct {
	From     api.Time `json:"from"`
	To       api.Time `json:"to"`
	OK       int      `json:"ok"`
	Failed   int      `json:"failed"`
	ByDigest []Count  `json:"byDigest,omitempty"`
	ByPod    []Count  `json:"byPod,omitempty"`
	ByError  []Count  `json:"byError,omitempty"`
}

// Total is how many requests were sent in the window.
func (w TrafficWindow) Total() int { return w.OK + w.Failed }

// Digest returns how many requests pods running a digest starting with
// prefix answered.
func (w TrafficWindow) Digest(prefix string) int {
	n := 0
	for _, c := range w.ByDigest {
		if strings.HasPrefix(c.Key, prefix) {
			n += c.N
		}
	}
	return n
}

// traffic is the stream's state in a world. Seconds are appended and never
// changed; the second under way is cur, whose slices are replaced, never
// written in place, so a clone of the world shares them safely.
type traffic struct {
	cfg     *Traffic
	sent    int64 // requests sent so far
	rr      int64 // round-robin position
	seconds []TrafficSecond
	cur     TrafficSecond
}

func (t traffic) clone() traffic {
	t.seconds = slices.Clip(t.seconds)
	return t
}

// at is when request k (1, 2, ...) is sent.
func (t *traffic) at(k int64) api.Time {
	return api.Time(k * int64(api.Second) / int64(t.cfg.PerSecond))
}

// serve sends the requests due up to and including now, against the world
// as it is (nothing changes between two items of the agenda).
func (w *world) serveTraffic(now api.Time) {
	t := &w.traffic
	if t.cfg == nil || t.cfg.PerSecond <= 0 || t.at(t.sent+1) > now {
		return
	}
	targets, why := w.readyEndpoints()
	for t.at(t.sent+1) <= now {
		t.sent++
		at := t.at(t.sent)
		sec := at - at%api.Second
		if sec != t.cur.At {
			if t.cur.OK+t.cur.Failed > 0 {
				t.seconds = append(t.seconds, t.cur)
			}
			t.cur = TrafficSecond{At: sec}
		}
		if len(targets) == 0 {
			t.cur.Failed++
			t.cur.ByError = bump(t.cur.ByError, why)
			continue
		}
		ep := targets[t.rr%int64(len(targets))]
		t.rr++
		digest, fail := w.answer(ep)
		if fail != "" {
			t.cur.Failed++
			t.cur.ByError = bump(t.cur.ByError, fail)
			t.cur.ByPod = bump(t.cur.ByPod, ep.TargetRef.Name+" ("+fail+")")
			continue
		}
		t.cur.OK++
		t.cur.ByDigest = bump(t.cur.ByDigest, digest)
		t.cur.ByPod = bump(t.cur.ByPod, ep.TargetRef.Name)
	}
}

// bump returns counts with key's count one more, as a new slice sorted by
// key.
func bump(counts []Count, key string) []Count {
	out := make([]Count, 0, len(counts)+1)
	done := false
	for _, c := range counts {
		if c.Key == key {
			c.N++
			done = true
		}
		out = append(out, c)
	}
	if !done {
		out = append(out, Count{Key: key, N: 1})
		sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	}
	return out
}

// readyEndpoints returns the endpoints the Service's slices list as ready
// (with a pod behind them), in the slices' order, or why there are none.
func (w *world) readyEndpoints() ([]api.Endpoint, string) {
	cfg := w.traffic.cfg
	if w.store.Get("Service", cfg.Namespace, cfg.Service) == nil {
		return nil, FailNoService
	}
	var out []api.Endpoint
	for _, o := range w.store.List("EndpointSlice") {
		s := o.(*api.EndpointSlice)
		if s.Namespace != cfg.Namespace || s.Labels[controller.ServiceNameLabel] != cfg.Service {
			continue
		}
		for _, e := range s.Endpoints {
			if e.Conditions.Ready != nil && *e.Conditions.Ready && e.TargetRef != nil && len(e.Addresses) > 0 {
				out = append(out, e)
			}
		}
	}
	return out, FailNoEndpoints
}

// answer sends one request to an endpoint and returns the digest of the
// image that answered it, or why it failed.
func (w *world) answer(ep api.Endpoint) (digest, fail string) {
	p, _ := w.store.Get("Pod", ep.TargetRef.Namespace, ep.TargetRef.Name).(*api.Pod)
	if p == nil || p.UID != ep.TargetRef.UID || p.Spec.NodeName == "" || len(p.Spec.Containers) == 0 {
		return "", FailRefused
	}
	if !w.NodeUp(p.Spec.NodeName) {
		return "", FailTimeout
	}
	rt, _ := w.runtimes.Get(p.Spec.NodeName)
	if rt == nil {
		return "", FailRefused
	}
	key := p.Namespace + "/" + p.Name
	for i, c := range p.Spec.Containers {
		rc := rt.Containers[key+"/"+c.Name]
		switch {
		case rc == nil || rc.PodUID != p.UID || rc.State != "running":
			return "", FailRefused
		case !rc.Ready:
			return "", FailNotReady
		}
		if i == 0 {
			digest = rc.Digest
		}
	}
	return digest, ""
}

// Traffic returns the stream's configuration, or nil when the run sends no
// requests.
func (s *Sim) Traffic() *Traffic { return s.w.traffic.cfg }

// TrafficSeconds returns every second of the stream so far, the one under
// way last.
func (s *Sim) TrafficSeconds() []TrafficSecond {
	t := s.w.traffic
	out := slices.Clip(t.seconds)
	if t.cur.OK+t.cur.Failed > 0 {
		out = append(out, t.cur)
	}
	return out
}

// TrafficWindow sums the requests sent in [from, to).
func (s *Sim) TrafficWindow(from, to api.Time) TrafficWindow {
	win := TrafficWindow{From: from, To: to}
	for _, sec := range s.TrafficSeconds() {
		if sec.At < from || sec.At >= to {
			continue
		}
		win.OK += sec.OK
		win.Failed += sec.Failed
		win.ByDigest = merge(win.ByDigest, sec.ByDigest)
		win.ByPod = merge(win.ByPod, sec.ByPod)
		win.ByError = merge(win.ByError, sec.ByError)
	}
	return win
}

func merge(a, b []Count) []Count {
	for _, c := range b {
		found := false
		for i := range a {
			if a[i].Key == c.Key {
				a[i].N += c.N
				found = true
			}
		}
		if !found {
			a = append(a, c)
		}
	}
	sort.Slice(a, func(i, j int) bool { return a[i].Key < a[j].Key })
	return a
}

// TrafficWindows cuts the stream so far into windows of length d (the
// last one ends now).
func (s *Sim) TrafficWindows(d api.Duration) []TrafficWindow {
	if s.w.traffic.cfg == nil || d <= 0 {
		return nil
	}
	var out []TrafficWindow
	for from := api.Time(0); from < s.w.now; from += d {
		out = append(out, s.TrafficWindow(from, min(from+d, s.w.now+1)))
	}
	return out
}

// ShortDigest abbreviates a digest to its algorithm and 12 hex digits.
func ShortDigest(d string) string {
	algo, hex, ok := strings.Cut(d, ":")
	if !ok {
		return d
	}
	if len(hex) > 12 {
		hex = hex[:12]
	}
	return algo + ":" + hex
}

// countsText renders counts as "sha256:aaaa1111aaaa ×150, …".
func countsText(cs []Count, key func(string) string) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = fmt.Sprintf("%s ×%d", key(c.Key), c.N)
	}
	return strings.Join(parts, ", ")
}

// FormatTraffic renders the stream so far in windows of length d, one
// line each, then the totals: what reconcile run prints.
func (s *Sim) FormatTraffic(d api.Duration) []string {
	cfg := s.w.traffic.cfg
	if cfg == nil {
		return nil
	}
	lines := []string{fmt.Sprintf("traffic: %d requests/s to service %s/%s", cfg.PerSecond, cfg.Namespace, cfg.Service)}
	for _, w := range s.TrafficWindows(d) {
		l := fmt.Sprintf("  %s–%s  %d ok, %d failed", w.From, min(w.To, s.w.now), w.OK, w.Failed)
		if len(w.ByDigest) > 0 {
			l += "  served by " + countsText(w.ByDigest, ShortDigest)
		}
		if len(w.ByError) > 0 {
			l += "  failed: " + countsText(w.ByError, func(k string) string { return k })
		}
		lines = append(lines, l)
	}
	all := s.TrafficWindow(0, s.w.now+1)
	lines = append(lines, fmt.Sprintf("  total  %d ok, %d failed", all.OK, all.Failed))
	return lines
}
