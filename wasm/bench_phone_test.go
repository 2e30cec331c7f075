//go:build browser && bench && !wasm

package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"

	"reconcile/bench/scale"
	"reconcile/scenarios"
)

// The phone of the budgets: a 390×844 viewport at a device scale of 3,
// mobile and touch, its CPU slowed 4× (CDP Emulation.setCPUThrottlingRate).
const (
	phoneWidth, phoneHeight = 390, 844
	phoneCPU                = 4
	// phoneMedian and phoneP95 are the budget of Next pass → DOM on it.
	phoneMedian, phoneP95 = 33, 100
	// phoneClicks Next pass clicks are timed per lesson, within
	// phoneClickCap of wall time.
	phoneClicks   = 150
	phoneClickCap = 60 * time.Second
)

// benchNet is a network profile the cold start is measured at.
type benchNet struct {
	Name string
	// Kbits is the download (and upload) rate, 0 for no limit; RTT the
	// latency added to every request, ms.
	Kbits, RTT float64
}

var phoneNets = []benchNet{
	{Name: "no network limit"},
	{Name: "9 Mbit/s, 60 ms", Kbits: 9000, RTT: 60},
	{Name: "1.6 Mbit/s, 150 ms", Kbits: 1600, RTT: 150},
}

// phoneRun is what the phone step measured.
type phoneRun struct {
	// first is the default lesson (the first a learner opens), largest
	// the bundled lesson with the most objects.
	first, largest         string
	firstClicks, bigClicks *benchClickResult
	// playClicks are the largest lesson's clicks in the playground, where a
	// learner practises: the same world with the editor, the console and
	// the live desired state beside the stage.
	playClicks *benchClickResult
	// bigBack are Previous pass clicks on the largest lesson, after its
	// Next pass clicks: stepping back, a seek from the checkpoint before.
	bigBack *benchClickResult
	cold    []phoneCold
}

// phoneCold is one cold start on the phone at one network profile.
type phoneCold struct {
	Net   benchNet
	Marks benchMarks
	// Readable is when the prerendered lesson's story was first seen on
	// the page (ms from the navigation; nil: never before interactive);
	// Progress the loader's labels seen, in order.
	Readable *float64
	Progress []string
	Err      string
}

// phoneEmulate turns the tab into the phone of the budgets, at net.
func phoneEmulate(ctx context.Context, net benchNet) error {
	if _, err := probeCall(ctx, 10*time.Second, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
		Width: phoneWidth, Height: phoneHeight, DeviceScaleFactor: 3, Mobile: true}); err != nil {
		return fmt.Errorf("device metrics: %w", err)
	}
	if _, err := probeCall(ctx, 10*time.Second, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{Enabled: true, MaxTouchPoints: 5}); err != nil {
		return fmt.Errorf("touch: %w", err)
	}
	if _, err := probeCall(ctx, 10*time.Second, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: phoneCPU}); err != nil {
		return fmt.Errorf("CPU throttling: %w", err)
	}
	if net.Kbits == 0 {
		return nil
	}
	if _, err := probeCall(ctx, 10*time.Second, network.Enable, network.EnableParams{}); err != nil {
		return fmt.Errorf("network: %w", err)
	}
	bytesPerSecond := net.Kbits * 1000 / 8
	if _, err := probeCall(ctx, 10*time.Second, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
		MatchedNetworkConditions: []*network.Conditions{{Latency: net.RTT, DownloadThroughput: bytesPerSecond, UploadThroughput: bytesPerSecond}}}); err != nil {
		return fmt.Errorf("network conditions: %w", err)
	}
	return nil
}

// phone is the phone step of make bench: Next pass → DOM on the first
// lesson and on the largest, then the cold start at each network profile.
func (b *benchRun) phone(t *testing.T) {
	b.phoneFig = phoneMeasure(t, b.lesson)
}

func phoneMeasure(t *testing.T, largest string) *phoneRun {
	if largest == "" {
		id, _, _, err := benchLargestLesson()
		if err != nil {
			t.Fatal(err)
		}
		largest = id
	}
	p := &phoneRun{first: scenarios.Default, largest: largest}
	site := benchServe(t, benchPath("site"))
	for _, l := range []struct {
		id, path string
		out      **benchClickResult
		back     **benchClickResult // Previous pass clicks after them, if not nil
	}{{p.first, "/s/" + p.first, &p.firstClicks, nil}, {p.largest, "/s/" + p.largest, &p.bigClicks, &p.bigBack},
		{"play-" + p.largest, "/play?from=" + p.largest, &p.playClicks, nil}} {
		t.Run("clicks-"+l.id, func(t *testing.T) {
			ctx := probedTab(t, false)
			if err := phoneEmulate(ctx, benchNet{}); err != nil {
				t.Fatal(err)
			}
			if err := probeNavigate(ctx, time.Minute, site+l.path); err != nil {
				t.Fatal(err)
			}
			if err := probeWait(ctx, 2*time.Minute, benchReadyJS); err != nil {
				t.Fatal(err)
			}
			r, err := benchClicks(ctx, phoneClicks, phoneClickCap)
			*l.out = r
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("phone %s: %d clicks, median %.1f ms, p90 %.1f ms, p95 %.1f ms, max %.1f ms", l.id, len(r.Times),
				scale.Quantile(r.Times, 0.5), scale.Quantile(r.Times, 0.9), scale.Quantile(r.Times, 0.95), scale.Quantile(r.Times, 1))
			if l.back == nil {
				return
			}
			r, err = benchClicksBack(ctx, phoneClicks, phoneClickCap)
			*l.back = r
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("phone %s, Previous pass: %d clicks from pass %d, median %.1f ms, p95 %.1f ms, max %.1f ms", l.id, len(r.Times), r.From,
				scale.Quantile(r.Times, 0.5), scale.Quantile(r.Times, 0.95), scale.Quantile(r.Times, 1))
		})
	}
	for _, n := range phoneNets {
		t.Run("cold-"+strings.Fields(n.Name)[0], func(t *testing.T) {
			c := phoneColdOnce(t, site+"/s/"+p.first, n)
			p.cold = append(p.cold, c)
			if c.Err != "" {
				t.Fatal(c.Err)
			}
			t.Logf("phone cold, %s: first working Next pass %s (story readable %s, title painted %s, instantiated %s, loader gone %s); progress %s",
				n.Name, benchMsOf(c.Marks.Marks.Interactive), benchMsOf(c.Readable), benchMsOf(c.Marks.Marks.TitlePainted),
				benchMsOf(c.Marks.Marks.Instantiated), benchMsOf(c.Marks.Marks.LoaderGone), strings.Join(c.Progress, " "))
		})
	}
	return p
}

// phoneWatchJS records, from the navigation on, when the prerendered
// lesson's story is first on the page (a paragraph of its text laid out),
// each frame until the page is interactive; the probe records the loader's
// labels (window.__bench.progress).
const phoneWatchJS = `(() => {
  window.__phone = {readable: null};
  const look = () => {
    if (window.__phone.readable === null) {
      const story = [...document.querySelectorAll("p")].find((p) => p.textContent.trim().length > 60 && p.getBoundingClientRect().height > 0);
      if (story) window.__phone.readable = performance.now();
    }
    if (!(window.__bench && window.__bench.marks.interactive !== undefined)) requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
})()`

// phoneColdOnce opens url cold (a fresh profile) on the phone at net, and
// waits until Next pass has worked once (the probe clicks it).
func phoneColdOnce(t *testing.T, url string, net benchNet) (c phoneCold) {
	c.Net = net
	ctx := probedTab(t, true)
	if err := phoneEmulate(ctx, net); err != nil {
		c.Err = err.Error()
		return c
	}
	if _, err := probeCall(ctx, 10*time.Second, page.AddScriptToEvaluateOnNewDocument,
		page.AddScriptToEvaluateOnNewDocumentParams{Source: phoneWatchJS}); err != nil {
		c.Err = "installing the watch: " + err.Error()
		return c
	}
	if err := probeNavigate(ctx, 3*time.Minute, url); err != nil {
		c.Err = fmt.Sprintf("opening %s: %v", url, err)
		return c
	}
	if err := probeWait(ctx, 3*time.Minute, `window.__bench.marks.interactive !== undefined`); err != nil {
		c.Err = fmt.Sprintf("%s never became interactive: %v", url, err)
		return c
	}
	m, err := probeEval[benchMarks](ctx, 10*time.Second, benchMarksJS)
	if err != nil {
		c.Err = err.Error()
		return c
	}
	c.Marks = m
	w, err := probeEval[struct {
		Readable *float64 `json:"readable"`
		Progress []string `json:"progress"`
	}](ctx, 10*time.Second, `({readable: (window.__phone || {}).readable ?? null, progress: window.__bench.progress})`)
	if err == nil {
		c.Readable, c.Progress = w.Readable, w.Progress
	}
	return c
}

// TestBenchPhone runs the phone step alone, on what make bench built
// (bench-results/site), and logs its figures.
func TestBenchPhone(t *testing.T) {
	t.Logf("load average %s", benchLoadAvg())
	p := phoneMeasure(t, "")
	var w strings.Builder
	phoneRows(&w, p)
	t.Logf("load average %s\n%s", benchLoadAvg(), w.String())
}

// phoneRows writes the phone's rows of the table.
func phoneRows(w *strings.Builder, p *phoneRun) {
	row := func(cells ...string) { fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | ")) }
	budget := fmt.Sprintf("median ≤ %d ms, p95 ≤ %d ms", phoneMedian, phoneP95)
	clickRow := func(id, button string, r *benchClickResult) {
		name := fmt.Sprintf("**phone** (%d×%d, CPU %d× slower): %s → DOM, `%s`", phoneWidth, phoneHeight, phoneCPU, button, id)
		if strings.HasPrefix(id, "/") {
			name = fmt.Sprintf("**phone** (%d×%d, CPU %d× slower): %s → DOM in the playground, `%s`", phoneWidth, phoneHeight, phoneCPU, button, id)
		}
		if r == nil || len(r.Times) == 0 {
			row(name, "not measured (see the log)", "", "", budget, "")
			return
		}
		md, p90, p95 := scale.Quantile(r.Times, 0.5), scale.Quantile(r.Times, 0.9), scale.Quantile(r.Times, 0.95)
		extra := ""
		if r.Error != "" {
			extra = "; stopped: " + r.Error
		}
		if r.Skipped > 0 {
			extra += fmt.Sprintf("; %d question(s) skipped on the way, untimed", r.Skipped)
		}
		row(fmt.Sprintf("%s: %d clicks from pass %d", name, len(r.Times), r.From),
			fmt.Sprintf("median %s, p90 %s, p95 %s, max %s%s", benchMS(md), benchMS(p90), benchMS(p95), benchMS(scale.Quantile(r.Times, 1)), extra),
			"", "", budget, benchWorst(benchVerdict(md, phoneMedian), benchVerdict(p95, phoneP95)))
	}
	if p == nil {
		row("**phone**", "not measured (see the log)", "", "", budget, "")
		return
	}
	clickRow(p.first, "Next pass", p.firstClicks)
	clickRow(p.largest, "Next pass", p.bigClicks)
	clickRow(p.largest, "Previous pass", p.bigBack)
	clickRow("/play?from="+p.largest, "Next pass", p.playClicks)
	for _, c := range p.cold {
		name := fmt.Sprintf("phone: cold to the first working Next pass, `%s`, %s", p.first, c.Net.Name)
		if c.Err != "" || c.Marks.Marks.Interactive == nil {
			row(name, "not measured: "+benchOr(c.Err), "", "", "reported; progress and readable lesson text meanwhile", "")
			continue
		}
		m := c.Marks.Marks
		readable := "the story was never seen before Next pass worked"
		verdict := "**misses** (no readable story before the wasm)"
		if c.Readable != nil {
			readable = "lesson story readable at " + benchMS(*c.Readable)
			verdict = "meets"
		}
		progress := "no loader percentage seen"
		if len(c.Progress) > 0 {
			progress = fmt.Sprintf("loader showed %d labels, %q → %q", len(c.Progress), c.Progress[0], c.Progress[len(c.Progress)-1])
		} else if c.Net.Kbits > 0 {
			verdict = "**misses** (no progress seen)"
		}
		row(name, fmt.Sprintf("%s (%s; title painted %s; app.wasm fetched and compiled %s, loader gone %s; %s)",
			benchMsOf(m.Interactive), readable, benchMsOf(m.TitlePainted), benchMsOf(m.Instantiated), benchMsOf(m.LoaderGone), progress),
			"", "", "reported; progress and readable lesson text meanwhile", verdict)
	}
}
