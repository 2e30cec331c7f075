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
	// FailRefused: the endpoint's pod is gone, its container is not
	// running, or nothing in it listens on the endpoint's port.
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

// TrafficSecond is a stretch of the request stream: Span seconds from At,
// each of which sent the same requests with the same outcome (a quiet
// stretch is one entry). OK, Failed and the counts are per second.
type TrafficSecond struct {
	At       api.Time `json:"at"`
	Span     int      `json:"span"`
	OK       int      `json:"ok"`
	Failed   int      `json:"failed"`
	ByDigest []Count  `json:"byDigest,omitempty"`
	ByError  []Count  `json:"byError,omitempty"`
}

// Response is one request's outcome: the pod and digest that answered it,
// or why it failed.
type Response struct {
	At     api.Time `json:"at"`
	Pod    string   `json:"pod,omitempty"`
	Digest string   `json:"digest,omitempty"`
	Error  string   `json:"error,omitempty"`
}

// TrafficWindow sums the seconds of a stretch of the stream.
type TrafficWindow struct {
	// Service names the stream ("" when the window sums them all).
	Service  string   `json:"service,omitempty"`
	From     api.Time `json:"from"`
	To       api.Time `json:"to"`
	OK       int      `json:"ok"`
	Failed   int      `json:"failed"`
	ByDigest []Count  `json:"byDigest,omitempty"`
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

// traffic is one stream's state in a world. Stretches are appended and
// never changed in place (a longer copy replaces the last), and cur, the
// second under way, is a value whose slices are replaced, never written,
// so a clone of the world shares them safely.
type traffic struct {
	cfg     *Traffic
	sent    int64 // requests sent so far
	rr      int64 // round-robin position
	seconds []TrafficSecond
	cur     TrafficSecond
	last    Response
}

// streams are the world's request streams, one per Traffic of its config.
type streams []traffic

func (ts streams) clone() streams {
	out := make(streams, len(ts))
	for i, t := range ts {
		t.seconds = slices.Clip(t.seconds)
		out[i] = t
	}
	return out
}

// at is when request k (1, 2, ...) is sent.
func (t *traffic) at(k int64) api.Time {
	return api.Time(k * int64(api.Second) / int64(t.cfg.PerSecond))
}

// serveTraffic sends the requests of every stream due up to and
// including now, against the world as it is (nothing changes between two
// items of the agenda).
func (w *world) serveTraffic(now api.Time) {
	for i := range w.traffic {
		w.serveStream(&w.traffic[i], now)
	}
}

// outcome is what a request to one endpoint gets while the world stands
// still.
type outcome struct {
	pod, digest, fail string
}

func (w *world) serveStream(t *traffic, now api.Time) {
	if t.cfg.PerSecond <= 0 || t.at(t.sent+1) > now {
		return
	}
	targets, why := w.readyEndpoints(t.cfg)
	outs := make([]outcome, len(targets))
	for i, tg := range targets {
		d, f := w.answer(tg)
		outs[i] = outcome{pod: tg.ep.TargetRef.Name, digest: d, fail: f}
	}
	for t.at(t.sent+1) <= now {
		first := t.at(t.sent + 1)
		sec := first - first%api.Second
		if sec != t.cur.At || t.cur.Span == 0 {
			t.closeSecond()
			t.cur = TrafficSecond{At: sec, Span: 1}
		}
		// The requests of this second up to now, all at once.
		n := int64(0)
		for at := t.at(t.sent + n + 1); at <= now && at < sec+api.Second; at = t.at(t.sent + n + 1) {
			n++
		}
		digests, errs := map[string]int{}, map[string]int{}
		var o outcome
		for j := int64(0); j < n; j++ {
			if len(outs) == 0 {
				o = outcome{fail: why}
			} else {
				o = outs[t.rr%int64(len(outs))]
				t.rr++
			}
			if o.fail != "" {
				errs[o.fail]++
				t.cur.Failed++
			} else {
				digests[o.digest]++
				t.cur.OK++
			}
		}
		t.sent += n
		t.cur.ByDigest = addCounts(t.cur.ByDigest, digests)
		t.cur.ByError = addCounts(t.cur.ByError, errs)
		t.last = Response{At: t.at(t.sent), Pod: o.pod, Digest: o.digest, Error: o.fail}
	}
}

// closeSecond files the second under way: it lengthens the last stretch
// when it is the same, else starts a new one.
func (t *traffic) closeSecond() {
	c := t.cur
	if c.OK+c.Failed == 0 {
		return
	}
	if n := len(t.seconds); n > 0 {
		l := t.seconds[n-1]
		if l.At+api.Time(l.Span)*api.Second == c.At && l.OK == c.OK && l.Failed == c.Failed &&
			slices.Equal(l.ByDigest, c.ByDigest) && slices.Equal(l.ByError, c.ByError) {
			l.Span++
			t.seconds = append(t.seconds[:n-1:n-1], l)
			return
		}
	}
	t.seconds = append(t.seconds, c)
}

// addCounts returns counts plus add, as a new slice sorted by key.
func addCounts(counts []Count, add map[string]int) []Count {
	if len(add) == 0 {
		return counts
	}
	out := slices.Clone(counts)
	keys := make([]string, 0, len(add))
	for k := range add {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		i := slices.IndexFunc(out, func(c Count) bool { return c.Key == k })
		if i < 0 {
			out = append(out, Count{Key: k, N: add[k]})
		} else {
			out[i].N += add[k]
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// target is an endpoint a request may go to, and the port it goes to there
// (0: the Service has no port).
type target struct {
	ep   api.Endpoint
	port api.EndpointPort
}

// readyEndpoints returns the endpoints the Service's slices list as ready
// (with a pod behind them) for the Service's first port, in the slices'
// order, or why there are none. A slice that lists no such port (its pods
// declare no container port of the named targetPort and the port's
// protocol) gives none, as kube-proxy programs a Service port from the
// slices that carry it. With none ready, kube-proxy falls back to the
// endpoints that are terminating but still serving (its
// CategorizeEndpoints), so a Service whose every pod is shutting down
// still answers while they drain.
func (w *world) readyEndpoints(cfg *Traffic) ([]target, string) {
	svc, _ := w.store.Get("Service", cfg.Namespace, cfg.Service).(*api.Service)
	if svc == nil {
		return nil, FailNoService
	}
	var out, draining []target
	is := func(b *bool) bool { return b != nil && *b }
	for _, o := range w.store.List("EndpointSlice") {
		s := o.(*api.EndpointSlice)
		if s.Namespace != cfg.Namespace || s.Labels[controller.ServiceNameLabel] != cfg.Service {
			continue
		}
		var port api.EndpointPort
		if len(svc.Spec.Ports) > 0 {
			i := slices.IndexFunc(s.Ports, func(p api.EndpointPort) bool { return p.Name == svc.Spec.Ports[0].Name })
			if i < 0 {
				continue
			}
			port = s.Ports[i]
		}
		for _, e := range s.Endpoints {
			if e.TargetRef == nil || len(e.Addresses) == 0 {
				continue
			}
			switch c := e.Conditions; {
			case is(c.Ready):
				out = append(out, target{e, port})
			case is(c.Serving) && is(c.Terminating):
				draining = append(draining, target{e, port})
			}
		}
	}
	if len(out) == 0 {
		out = draining
	}
	return out, FailNoEndpoints
}

// answer sends one request to an endpoint's port and returns the digest of
// the image that answered it, or why it failed: a pod whose containers run
// and are ready but listen on no such port refuses the connection.
func (w *world) answer(t target) (digest, fail string) {
	ep := t.ep
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
		rc := rt.Get(key + "/" + c.Name)
		switch {
		case rc == nil || rc.PodUID != p.UID || rc.State != "running" && rc.State != "stopping":
			// A container running its preStop hook still serves.
			return "", FailRefused
		case !rc.Ready:
			return "", FailNotReady
		}
		if i == 0 {
			digest = rc.Digest
		}
	}
	if t.port.Port > 0 && !listens(p, t.port) {
		return "", FailRefused
	}
	return digest, ""
}

// listens reports whether a pod listens on port: what its containers (and
// sidecars) declare is what they listen on; a pod that declares no port
// is taken to listen on any (the simulation runs no program to ask).
func listens(p *api.Pod, port api.EndpointPort) bool {
	if _, declared := controller.FindContainerPort(p, func(api.ContainerPort) bool { return true }); !declared {
		return true
	}
	_, ok := controller.FindContainerPort(p, func(cp api.ContainerPort) bool {
		return cp.ContainerPort == port.Port && controller.ProtocolOf(cp.Protocol) == controller.ProtocolOf(port.Protocol)
	})
	return ok
}

// Traffic returns the run's request streams, none when it sends no
// requests.
func (s *Sim) Traffic() []Traffic {
	var out []Traffic
	for _, t := range s.w.traffic {
		out = append(out, *t.cfg)
	}
	return out
}

// TrafficSeconds returns every second so far of the stream to a Service
// (by name; "" for every stream, one after the other), the one under way
// last.
func (s *Sim) TrafficSeconds(service string) []TrafficSecond {
	var out []TrafficSecond
	for _, t := range s.w.traffic {
		if service != "" && t.cfg.Service != service {
			continue
		}
		out = append(out, t.seconds...)
		if t.cur.OK+t.cur.Failed > 0 {
			out = append(out, t.cur)
		}
	}
	return out
}

// TrafficWindow sums the requests sent in [from, to) to a Service (by
// name; "" sums every stream), by whole seconds.
func (s *Sim) TrafficWindow(service string, from, to api.Time) TrafficWindow {
	win := TrafficWindow{From: from, To: to}
	for _, sec := range s.TrafficSeconds(service) {
		// The seconds of the stretch that start in [from, to).
		lo, hi := sec.At, sec.At+api.Time(sec.Span)*api.Second
		lo, hi = max(lo, from), min(hi, to)
		if lo >= hi {
			continue
		}
		first := (lo - sec.At + api.Second - 1) / api.Second
		last := (hi - sec.At + api.Second - 1) / api.Second
		k := int(last - first)
		if k <= 0 {
			continue
		}
		win.OK += k * sec.OK
		win.Failed += k * sec.Failed
		win.ByDigest = merge(win.ByDigest, sec.ByDigest, k)
		win.ByError = merge(win.ByError, sec.ByError, k)
	}
	return win
}

func merge(a, b []Count, k int) []Count {
	for _, c := range b {
		c.N *= k
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

// TrafficWindows cuts the stream to a Service ("" for all) so far into
// windows of length d (the last one ends now).
func (s *Sim) TrafficWindows(service string, d api.Duration) []TrafficWindow {
	if len(s.w.traffic) == 0 || d <= 0 {
		return nil
	}
	var out []TrafficWindow
	for from := api.Time(0); from < s.w.now; from += d {
		w := s.TrafficWindow(service, from, min(from+d, s.w.now+1))
		w.Service = service
		out = append(out, w)
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
	var lines []string
	for _, t := range s.w.traffic {
		lines = append(lines, s.formatStream(t.cfg, d)...)
	}
	return lines
}

func (s *Sim) formatStream(cfg *Traffic, d api.Duration) []string {
	lines := []string{fmt.Sprintf("traffic: %d requests/s to service %s/%s", cfg.PerSecond, cfg.Namespace, cfg.Service)}
	text := func(w TrafficWindow) string {
		l := fmt.Sprintf("%d ok, %d failed", w.OK, w.Failed)
		if len(w.ByDigest) > 0 {
			l += "  served by " + countsText(w.ByDigest, ShortDigest)
		}
		if len(w.ByError) > 0 {
			l += "  failed: " + countsText(w.ByError, func(k string) string { return k })
		}
		return l
	}
	// Windows alike in every count are one line.
	ws := s.TrafficWindows(cfg.Service, d)
	for i := 0; i < len(ws); {
		j := i + 1
		for j < len(ws) && text(ws[j]) == text(ws[i]) {
			j++
		}
		span := ""
		if j-i > 1 {
			span = fmt.Sprintf(" (each %s)", d)
		}
		lines = append(lines, fmt.Sprintf("  %s–%s%s  %s", ws[i].From, min(ws[j-1].To, s.w.now), span, text(ws[i])))
		i = j
	}
	all := s.TrafficWindow(cfg.Service, 0, s.w.now+1)
	lines = append(lines, fmt.Sprintf("  total  %d ok, %d failed", all.OK, all.Failed))
	return lines
}

// LastResponse returns the latest request's outcome of the stream to a
// Service, and false when none was sent yet.
func (s *Sim) LastResponse(service string) (Response, bool) {
	for _, t := range s.w.traffic {
		if t.cfg.Service == service && t.sent > 0 {
			return t.last, true
		}
	}
	return Response{}, false
}
