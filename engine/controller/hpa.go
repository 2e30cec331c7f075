package controller

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"

	"reconcile/engine/api"
	"reconcile/engine/informer"
	"reconcile/engine/limits"
	"reconcile/engine/store"
)

// HPAController is the component that runs HorizontalPodAutoscalers.
const HPAController = "horizontal-pod-autoscaler"

// HPASyncPeriod is how often the autoscaler looks at each
// HorizontalPodAutoscaler (--horizontal-pod-autoscaler-sync-period).
const HPASyncPeriod = 15 * api.Second

// hpaTolerance is the ratio around 1.0 within which the autoscaler does
// not scale (--horizontal-pod-autoscaler-tolerance).
const hpaTolerance = 0.1

// cpuMetricName is how the autoscaler names a CPU utilization metric in
// reasons and conditions.
const cpuMetricName = "cpu resource utilization (percentage of request)"

// Metrics is the part of the World that serves the resource metrics API
// (metrics-server): the CPU a pod uses now, in millicores, and whether
// there is a reading for it (a pod whose containers do not all run has
// none).
type Metrics interface {
	PodCPU(p *api.Pod) (milli int64, ok bool)
}

// HPALoop is the horizontal pod autoscaler controller.
//
// Desired: the target's pods use their CPU request at the target
// utilization. Observed: their CPU use (the simulated metrics API) and
// the target's spec.replicas. Difference: desiredReplicas =
// ceil(ready pods × utilization / target), unless within the 10%
// tolerance; bounded by minReplicas and maxReplicas, held up by the
// scale-down stabilization window (the highest recommendation of the last
// 300 s) and the scale-up rate (4 pods or 100% per 15 s). It writes
// spec.replicas of the target (the scale subresource), and looks again
// every 15 s whatever happened: it reconciles one number from one signal,
// nothing else.
type HPALoop struct {
	// recs are each autoscaler's recent recommendations; ups and downs its
	// recent scale changes (for the rate policies). Never changed in
	// place: a change makes new slices (checkpoints share them).
	recs  map[string][]hpaRecord
	ups   map[string][]hpaRecord
	downs map[string][]hpaRecord
}

type hpaRecord struct {
	at api.Time
	n  int32
}

// NewHPA returns the autoscaler.
func NewHPA() *HPALoop {
	return &HPALoop{recs: map[string][]hpaRecord{}, ups: map[string][]hpaRecord{}, downs: map[string][]hpaRecord{}}
}

func (h *HPALoop) Name() string { return HPAController }
func (h *HPALoop) Watches() []string {
	return []string{"HorizontalPodAutoscaler", "Deployment", "Pod"}
}
func (h *HPALoop) Clone() Reconciler {
	return &HPALoop{recs: maps.Clone(h.recs), ups: maps.Clone(h.ups), downs: maps.Clone(h.downs)}
}

// Restarted forgets the recommendations: a new process starts without
// them.
func (h *HPALoop) Restarted() {
	h.recs, h.ups, h.downs = map[string][]hpaRecord{}, map[string][]hpaRecord{}, map[string][]hpaRecord{}
}

// Keys maps a new autoscaler, or one whose spec changed, to itself. Its
// own status writes, pods and Deployments bring no pass: the autoscaler
// looks every 15 s rather than on changes (its queue holds a key for the
// sync period).
func (h *HPALoop) Keys(c *informer.Cache, ev store.WatchEvent) []string {
	o, ok := ev.Object.(*api.HorizontalPodAutoscaler)
	if !ok || ev.Type == store.Deleted {
		return nil
	}
	if old, ok := ev.Old.(*api.HorizontalPodAutoscaler); ok && old.Generation == o.Generation {
		return nil
	}
	return []string{api.RefOf(o).Key()}
}

// hpaRules are an autoscaler's behavior with the autoscaling/v2 defaults.
type hpaRules struct {
	window   api.Duration
	policy   string
	policies []api.HPAScalingPolicy
}

func rulesOf(r *api.HPAScalingRules, up bool) hpaRules {
	out := hpaRules{policy: "Max"}
	if up {
		out.policies = []api.HPAScalingPolicy{{Type: "Pods", Value: 4, PeriodSeconds: 15}, {Type: "Percent", Value: 100, PeriodSeconds: 15}}
	} else {
		out.window = 300 * api.Second
		out.policies = []api.HPAScalingPolicy{{Type: "Percent", Value: 100, PeriodSeconds: 15}}
	}
	if r == nil {
		return out
	}
	if r.StabilizationWindowSeconds != nil {
		out.window = api.Duration(*r.StabilizationWindowSeconds) * api.Second
	}
	if r.SelectPolicy != nil {
		out.policy = *r.SelectPolicy
	}
	if len(r.Policies) > 0 {
		out.policies = r.Policies
	}
	return out
}

// ScalesBy reports whether an autoscaler can scale by metric m: the one
// kind simulated, a Resource metric on cpu with a Utilization target.
func ScalesBy(m api.MetricSpec) bool {
	return m.Type == "Resource" && m.Resource != nil && m.Resource.Name == "cpu" && m.Resource.Target.Type == "Utilization" &&
		m.Resource.Target.AverageUtilization != nil
}

// hpaTarget is the utilization an autoscaler aims at: its first Resource
// cpu metric with a Utilization target (80% when it has no metrics).
func hpaTarget(h *api.HorizontalPodAutoscaler) (int32, error) {
	if len(h.Spec.Metrics) == 0 {
		return 80, nil
	}
	for _, m := range h.Spec.Metrics {
		if ScalesBy(m) {
			return *m.Resource.Target.AverageUtilization, nil
		}
	}
	return 0, errors.New("only a Resource metric on cpu with a Utilization target is simulated")
}

// Reconcile runs one pass for an autoscaler.
func (h *HPALoop) Reconcile(ctx *Context, req Request) (Result, error) {
	key := req.Key
	hpa, _ := ctx.Cache.Get("HorizontalPodAutoscaler", key).(*api.HorizontalPodAutoscaler)
	if hpa == nil {
		delete(h.recs, key)
		delete(h.ups, key)
		delete(h.downs, key)
		ctx.Deleted("HorizontalPodAutoscaler deleted")
		return ctx.NothingToDo(), nil
	}
	resync := Result{RequeueAfter: HPASyncPeriod, RequeueReason: "autoscaler sync period"}
	if first := hpa.CreationTimestamp + HPASyncPeriod; ctx.Now < first && len(hpa.Status.Conditions) == 0 {
		// A new autoscaler is first looked at one sync period after it is
		// created: until then kubectl shows its metric as <unknown>.
		ctx.Desired, ctx.Observed = "first sync 15 s after creation", "not looked at yet"
		ctx.Difference = "none yet"
		return Result{Outcome: InSync, RequeueAfter: first - ctx.Now, RequeueReason: "first autoscaler sync"}, nil
	}
	st := hpa.DeepCopy().Status
	gen := hpa.Generation
	st.ObservedGeneration = &gen
	ref := hpa.Spec.ScaleTargetRef
	minR, maxR := api.Deref(hpa.Spec.MinReplicas, 1), hpa.Spec.MaxReplicas
	target, terr := hpaTarget(hpa)
	ctx.Desired = fmt.Sprintf("cpu at %d%% of request, %d..%d replicas", target, minR, maxR)
	if maxR > limits.MaxReplicas {
		// The playground simulates at most MaxReplicas per workload: the
		// autoscaler stops there as at its own maximum.
		minR, maxR = min(minR, limits.MaxReplicas), limits.MaxReplicas
		ctx.Desired += fmt.Sprintf(", at most %d here (MaxReplicas)", limits.MaxReplicas)
	}
	var dep *api.Deployment
	if ref.Kind == "Deployment" {
		dep, _ = ctx.Cache.Get("Deployment", hpa.Namespace+"/"+ref.Name).(*api.Deployment)
	}
	if dep == nil {
		err := store.NotFound(ref.Kind, ref.Name)
		if ref.Kind != "Deployment" {
			err = fmt.Errorf("scaling a %s is not simulated: only a Deployment", ref.Kind)
		}
		ctx.Observed = "no target"
		ctx.Event(hpa, "Warning", "FailedGetScale", "%v", err)
		setHPACondition(&st, ctx.Now, "AbleToScale", "False", "FailedGetScale", "the HPA controller was unable to get the target's current scale: "+err.Error())
		h.writeStatus(ctx, hpa, st)
		resync.Outcome, resync.Why = Blocked, "no target to scale"
		return resync, nil
	}
	current := api.Deref(dep.Spec.Replicas, 1)
	st.CurrentReplicas = dep.Status.Replicas
	setHPACondition(&st, ctx.Now, "AbleToScale", "True", "SucceededGetScale", "the HPA controller was able to get the target's current scale")
	if _, ok := h.recs[key]; !ok {
		h.recs[key] = []hpaRecord{{ctx.Now, current}}
	}
	desired, reason := current, ""
	switch {
	case current == 0 && minR != 0:
		setHPACondition(&st, ctx.Now, "ScalingActive", "False", "ScalingDisabled", "scaling is disabled since the replica count of the target is zero")
		ctx.Observed = "spec.replicas = 0"
		st.DesiredReplicas = 0
		ctx.Difference = "none: scaling is disabled"
		h.writeStatus(ctx, hpa, st)
		return resync, nil
	case current > maxR:
		desired, reason = maxR, "Current number of replicas above Spec.MaxReplicas"
		ctx.Observed = fmt.Sprintf("spec.replicas = %d", current)
	case current < minR:
		desired, reason = minR, "Current number of replicas below Spec.MinReplicas"
		ctx.Observed = fmt.Sprintf("spec.replicas = %d", current)
	default:
		if terr != nil {
			return h.metricFailed(ctx, hpa, st, current, terr, resync)
		}
		proposal, util, pods, err := cpuProposal(ctx, dep, current, target)
		if err != nil {
			return h.metricFailed(ctx, hpa, st, current, err, resync)
		}
		st.CurrentMetrics = []api.MetricStatus{{Type: "Resource", Resource: &api.ResourceMetricStatus{Name: "cpu",
			Current: api.MetricValueStatus{AverageUtilization: api.Int32(util.percent), AverageValue: quantityPtr(api.FormatMilliCPU(util.average))}}}}
		setHPACondition(&st, ctx.Now, "ScalingActive", "True", "ValidMetricFound", "the HPA was able to successfully calculate a replica count from "+cpuMetricName)
		ctx.Observed = fmt.Sprintf("cpu %d%% over %d pods · spec.replicas = %d", util.percent, pods, current)
		reason = "All metrics below target"
		if proposal > current {
			reason = cpuMetricName + " above target"
		}
		desired = h.normalize(ctx, hpa, &st, key, current, proposal, minR, maxR)
	}
	st.DesiredReplicas = desired
	h.prune(key, ctx.Now, hpa)
	if desired == current {
		ctx.Difference, ctx.DifferenceFact = "none", Fact{Is: Nothing}
		h.writeStatus(ctx, hpa, st)
		return resync, nil
	}
	ctx.Difference = fmt.Sprintf("%+d replicas", desired-current)
	scaled := dep.DeepCopy()
	scaled.Spec.Replicas = api.Int32(desired)
	if _, err := ctx.Update(scaled, Do(Scale, fmt.Sprintf("deployment/%s %d → %d", dep.Name, current, desired))); err != nil {
		if err == ErrCrashed {
			return Result{}, err
		}
		ctx.Event(hpa, "Warning", "FailedRescale", "New size: %d; reason: %s; error: %v", desired, reason, err)
		setHPACondition(&st, ctx.Now, "AbleToScale", "False", "FailedUpdateScale", "the HPA controller was unable to update the target scale: "+err.Error())
		h.writeStatus(ctx, hpa, st)
		// The autoscaler's queue brings a key back one sync period later,
		// after an error too.
		resync.Outcome, resync.Why = Failed, "scale refused; next sync in 15 s"
		return resync, nil
	}
	ctx.Event(hpa, "Normal", "SuccessfulRescale", "New size: %d; reason: %s", desired, reason)
	setHPACondition(&st, ctx.Now, "AbleToScale", "True", "SucceededRescale", fmt.Sprintf("the HPA controller was able to update the target scale to %d", desired))
	t := ctx.Now
	st.LastScaleTime = &t
	if desired > current {
		h.ups[key] = append(slices.Clip(h.ups[key]), hpaRecord{ctx.Now, desired - current})
	} else {
		h.downs[key] = append(slices.Clip(h.downs[key]), hpaRecord{ctx.Now, current - desired})
	}
	h.writeStatus(ctx, hpa, st)
	resync.Outcome = Acted
	return resync, nil
}

// metricFailed reports a pass that could not compute a replica count.
func (h *HPALoop) metricFailed(ctx *Context, hpa *api.HorizontalPodAutoscaler, st api.HPAStatus, current int32, err error, resync Result) (Result, error) {
	msg := "failed to get cpu utilization: " + err.Error()
	ctx.Observed = "no cpu reading: " + err.Error()
	ctx.Difference = "unknown"
	ctx.Event(hpa, "Warning", "FailedGetResourceMetric", "%s", msg)
	ctx.Event(hpa, "Warning", "FailedComputeMetricsReplicas", "invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: %s", msg)
	setHPACondition(&st, ctx.Now, "ScalingActive", "False", "FailedGetResourceMetric", "the HPA was unable to compute the replica count: failed to get cpu resource metric value: "+msg)
	st.CurrentMetrics = nil
	st.DesiredReplicas = current
	h.writeStatus(ctx, hpa, st)
	resync.Outcome, resync.Why = Blocked, "no cpu reading"
	return resync, nil
}

func (h *HPALoop) writeStatus(ctx *Context, hpa *api.HorizontalPodAutoscaler, st api.HPAStatus) {
	upd := hpa.DeepCopy()
	upd.Status = st
	ctx.UpdateStatus(upd, Action{})
}

// utilization is a CPU reading over a target's pods.
type utilization struct {
	percent int32 // of the requests
	average int64 // millicores per pod
}

// cpuProposal is the replica calculator for a CPU utilization target: it
// reads the pods of the target, sets aside those not ready (and, when
// scaling up, counts them as idle) and those without a reading (idle when
// scaling up, at their request when scaling down), and proposes
// ceil(ratio × pods), unless the ratio is within the tolerance.
func cpuProposal(ctx *Context, dep *api.Deployment, current, target int32) (int32, utilization, int, error) {
	metrics, _ := ctx.World.(Metrics)
	type reading struct {
		request, usage int64
	}
	var ready []reading
	var unready, missing []int64 // their requests
	found := 0
	for _, o := range ctx.Cache.List("Pod") {
		p := o.(*api.Pod)
		if p.Namespace != dep.Namespace || !dep.Spec.Selector.Matches(p.Labels) || p.DeletionTimestamp != nil || p.Status.Phase == api.PodFailed || p.Status.Phase == api.PodSucceeded {
			continue
		}
		found++
		var request int64
		for _, c := range p.Spec.Containers {
			q, ok := c.Resources.Requests["cpu"]
			if !ok {
				return 0, utilization{}, 0, fmt.Errorf("missing request for cpu in container %s of Pod %s", c.Name, p.Name)
			}
			request += q.Milli()
		}
		usage, ok := int64(0), false
		if metrics != nil {
			usage, ok = metrics.PodCPU(p)
		}
		switch {
		case p.Status.Phase == api.PodPending || ok && !podIsReady(p):
			unready = append(unready, request)
		case !ok:
			missing = append(missing, request)
		default:
			ready = append(ready, reading{request, usage})
		}
	}
	if found == 0 {
		return 0, utilization{}, 0, errors.New("no pods returned by selector while calculating replica count")
	}
	if len(ready) == 0 {
		return 0, utilization{}, 0, errors.New("unable to get metrics for resource cpu: no metrics returned from resource metrics API")
	}
	var req, use int64
	for _, r := range ready {
		req, use = req+r.request, use+r.usage
	}
	if req == 0 {
		return 0, utilization{}, 0, errors.New("no metrics returned matched known pods")
	}
	util := utilization{percent: int32(use * 100 / req), average: use / int64(len(ready))}
	ratio := float64(util.percent) / float64(target)
	upWithUnready := len(unready) > 0 && ratio > 1
	if !upWithUnready && len(missing) == 0 {
		if math.Abs(1-ratio) <= hpaTolerance {
			return current, util, len(ready), nil
		}
		return int32(math.Ceil(ratio * float64(len(ready)))), util, len(ready), nil
	}
	n := len(ready)
	for _, m := range missing {
		req += m
		if ratio < 1 {
			use += m // assumed at its request when scaling down
		}
		n++
	}
	if upWithUnready {
		for _, u := range unready {
			req += u // assumed idle
			n++
		}
	}
	newRatio := float64(use*100/req) / float64(target)
	if math.Abs(1-newRatio) <= hpaTolerance || ratio < 1 && newRatio > 1 || ratio > 1 && newRatio < 1 {
		return current, util, len(ready), nil
	}
	proposal := int32(math.Ceil(newRatio * float64(n)))
	if newRatio < 1 && proposal > current || newRatio > 1 && proposal < current {
		return current, util, len(ready), nil
	}
	return proposal, util, len(ready), nil
}

func podIsReady(p *api.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == "Ready" {
			return c.Status == "True"
		}
	}
	return false
}

// normalize applies the stabilization windows, the rate policies and the
// bounds to a proposal, and sets AbleToScale and ScalingLimited to say
// which of them held it.
func (h *HPALoop) normalize(ctx *Context, hpa *api.HorizontalPodAutoscaler, st *api.HPAStatus, key string, current, proposal, minR, maxR int32) int32 {
	var b api.HPABehavior
	if hpa.Spec.Behavior != nil {
		b = *hpa.Spec.Behavior
	}
	up, down := rulesOf(b.ScaleUp, true), rulesOf(b.ScaleDown, false)
	// Stabilize: no higher than the lowest recommendation of the up window,
	// no lower than the highest of the down window.
	upRec, downRec := proposal, proposal
	for _, r := range h.recs[key] {
		if r.at > ctx.Now-up.window {
			upRec = min(upRec, r.n)
		}
		if r.at > ctx.Now-down.window {
			downRec = max(downRec, r.n)
		}
	}
	stable := max(current, upRec)
	stable = min(stable, downRec)
	h.recs[key] = append(slices.Clip(h.recs[key]), hpaRecord{ctx.Now, proposal})
	switch {
	case stable == proposal:
		setHPACondition(st, ctx.Now, "AbleToScale", "True", "ReadyForNewScale", "recommended size matches current size")
	case stable > proposal:
		setHPACondition(st, ctx.Now, "AbleToScale", "True", "ScaleDownStabilized", "recent recommendations were higher than current one, applying the highest recent recommendation")
	default:
		setHPACondition(st, ctx.Now, "AbleToScale", "True", "ScaleUpStabilized", "recent recommendations were lower than current one, applying the lowest recent recommendation")
	}
	desired, reason, msg := stable, "DesiredWithinRange", "the desired count is within the acceptable range"
	switch {
	case stable > current:
		limit := max(h.upLimit(key, ctx.Now, current, up), current)
		allowed, why, text := maxR, "TooManyReplicas", "the desired replica count is more than the maximum replica count"
		if maxR < hpa.Spec.MaxReplicas {
			text = fmt.Sprintf("the desired replica count is more than the playground simulates: the limit is %d replicas per workload (MaxReplicas)", limits.MaxReplicas)
		}
		if allowed > limit {
			allowed, why, text = limit, "ScaleUpLimit", "the desired replica count is increasing faster than the maximum scale rate"
		}
		if stable > allowed {
			desired, reason, msg = allowed, why, text
		}
	case stable < current:
		limit := min(h.downLimit(key, ctx.Now, current, down), current)
		allowed, why, text := minR, "TooFewReplicas", "the desired replica count is less than the minimum replica count"
		if allowed < limit {
			allowed, why, text = limit, "ScaleDownLimit", "the desired replica count is decreasing faster than the maximum scale rate"
		}
		if stable < allowed {
			desired, reason, msg = allowed, why, text
		}
	}
	status := "False"
	if desired != stable {
		status = "True"
	}
	setHPACondition(st, ctx.Now, "ScalingLimited", status, reason, msg)
	return desired
}

func changedIn(events []hpaRecord, now api.Time, period int32) int32 {
	var n int32
	for _, e := range events {
		if e.at > now-api.Duration(period)*api.Second {
			n += e.n
		}
	}
	return n
}

func (h *HPALoop) upLimit(key string, now api.Time, current int32, r hpaRules) int32 {
	if r.policy == "Disabled" {
		return current
	}
	result := int32(math.MinInt32)
	if r.policy == "Min" {
		result = math.MaxInt32
	}
	for _, p := range r.policies {
		start := current - changedIn(h.ups[key], now, p.PeriodSeconds) + changedIn(h.downs[key], now, p.PeriodSeconds)
		proposed := start + p.Value
		if p.Type == "Percent" {
			proposed = int32(math.Ceil(float64(start) * (1 + float64(p.Value)/100)))
		}
		if r.policy == "Min" {
			result = min(result, proposed)
		} else {
			result = max(result, proposed)
		}
	}
	return result
}

func (h *HPALoop) downLimit(key string, now api.Time, current int32, r hpaRules) int32 {
	if r.policy == "Disabled" {
		return current
	}
	result := int32(math.MaxInt32)
	if r.policy == "Min" {
		result = math.MinInt32
	}
	for _, p := range r.policies {
		start := current + changedIn(h.downs[key], now, p.PeriodSeconds) - changedIn(h.ups[key], now, p.PeriodSeconds)
		proposed := start - p.Value
		if p.Type == "Percent" {
			proposed = int32(float64(start) * (1 - float64(p.Value)/100))
		}
		if r.policy == "Min" {
			result = max(result, proposed)
		} else {
			result = min(result, proposed)
		}
	}
	return result
}

// prune forgets recommendations and scale changes older than every window
// and period could look back.
func (h *HPALoop) prune(key string, now api.Time, hpa *api.HorizontalPodAutoscaler) {
	var b api.HPABehavior
	if hpa.Spec.Behavior != nil {
		b = *hpa.Spec.Behavior
	}
	up, down := rulesOf(b.ScaleUp, true), rulesOf(b.ScaleDown, false)
	keep := max(up.window, down.window)
	for _, p := range append(slices.Clip(up.policies), down.policies...) {
		keep = max(keep, api.Duration(p.PeriodSeconds)*api.Second)
	}
	cut := func(rs []hpaRecord) []hpaRecord {
		i := 0
		for i < len(rs) && rs[i].at <= now-keep {
			i++
		}
		return rs[i:]
	}
	h.recs[key] = cut(h.recs[key])
	h.ups[key] = cut(h.ups[key])
	h.downs[key] = cut(h.downs[key])
}

// setHPACondition sets a condition, keeping its transition time when its
// status does not change.
func setHPACondition(st *api.HPAStatus, now api.Time, typ, status, reason, msg string) {
	c := api.HPACondition{Type: typ, Status: status, LastTransitionTime: now, Reason: reason, Message: msg}
	for i, old := range st.Conditions {
		if old.Type == typ {
			if old.Status == status {
				c.LastTransitionTime = old.LastTransitionTime
			}
			st.Conditions[i] = c
			return
		}
	}
	// AbleToScale, ScalingActive, ScalingLimited: in that order.
	order := map[string]int{"AbleToScale": 0, "ScalingActive": 1, "ScalingLimited": 2}
	i := 0
	for i < len(st.Conditions) && order[st.Conditions[i].Type] < order[typ] {
		i++
	}
	st.Conditions = slices.Insert(st.Conditions, i, c)
}

func quantityPtr(s string) *api.Quantity {
	q := api.Quantity(s)
	return &q
}
