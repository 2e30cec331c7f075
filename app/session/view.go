package session

import (
	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/sim"
)

// LogStep is how far the pass log's window moves: it shows the latest 25
// to 50 passes. A pass touches one key, and so does a reading.
const LogStep = 25

// MovingShown is how many lines of what is still moving a view holds.
const MovingShown = 2

// HistoryShown is how many of the latest inputs a view lists.
const HistoryShown = 8

// View is what a page shows of a session after a change: where the run
// is, the passes around it, whether the world has converged, the cluster,
// what the fault palette can target, the inspected object, the inputs so
// far. A page reads one after every change and renders from it, so that
// rendering never calls into the engine.
type View struct {
	Ready bool
	// N is the current pass; Known the last known to exist; Final that the
	// run ends there; AtEnd that nothing happens after the current pass.
	N, Known     int
	Final, AtEnd bool
	Now          string
	// Current is the current pass (nil before the first).
	Current *sim.Pass
	// Explained is the current pass in plain words, its controller named
	// from the run's registry (ExplainIn); zero before the first pass.
	Explained Explanation
	// First is the first pass in plain words before it runs (at pass 0,
	// once the run or a look-ahead has met it): what Next pass will do.
	First Explanation
	// Pseudocode is the lesson's block the current pass ran, with the
	// lines it lit; zero for a controller with no block.
	Pseudocode Pseudocode
	// Log is the pass log's window: 25 to 50 passes up to the current one.
	Log []sim.Pass
	// Entries are the pass log's lines over the same window: its passes,
	// the inputs given between them, the quiet stretches.
	Entries []Entry
	// Marks are the moments on the timeline: the inputs, and the moments
	// the reader was asked to place (Reader.Moments) once known.
	Marks []Mark
	// InStartup says the run is still in its start-up (Session.InStartup).
	InStartup bool
	// Converged says whether the world has converged (sim.Sim.Converged),
	// and Why not.
	Converged bool
	Why       string
	// Acting are the verbs of the kubectl commands still running that act
	// on their own clock (sim.Sim.Acting: a drain asking again).
	Acting []string
	// Moving says what is still moving when the world has not converged,
	// at most MovingShown lines (sim.Sim.Moving).
	Moving  []string
	Cluster Cluster
	Targets Targets
	// Inspector is the inspected object: the one selected, or, when
	// Following, the one the current pass reconciled.
	Inspector Inspection
	Following bool
	// History are the latest inputs and faults, in words.
	History []string
	// LoadNotes are what the loader noted: the kinds the scenario declares
	// that are stored but not simulated, and what does not happen.
	LoadNotes []string
	// Digest is the trace digest, when the reading was asked for it.
	Digest string
	// Traffic are the run's request streams, if it has any (traffic.go).
	Traffic []Traffic
}

// Reader reads Views of a session. It keeps what it read from one reading
// to the next (the index of nodes and pods, the text of the inspected
// object), so that a reading after a pass costs what the pass changed, not
// what the cluster holds.
type Reader struct {
	// Selected is the object the inspector shows; zero follows the pass.
	Selected api.Ref
	// NodePage is the page of nodes the cluster pane draws.
	NodePage int

	// Moments are moments the page names (a lesson's symptom, its
	// response), placed among View.Marks once the pass before each is known.
	Moments []Moment
	// NoInspector leaves the inspected object's text out of a reading
	// (View.Inspector holds its Ref only): for a page that does not draw
	// the inspector yet. Its YAML is the costliest part of a reading.
	NoInspector bool
	// InspectLater leaves it out of a reading too, for Inspect to read
	// once the page has shown the rest (a step: the stage first).
	InspectLater bool

	world     worldIndex
	inspected *objectText
	// last is what the reading before saw.
	last lastReading
}

// lastReading is what a reader remembers of its last reading, to tell
// what changed since.
type lastReading struct {
	ses   *Session
	n     int
	jumps int
}

// Forget drops what the reader kept: the next reading is of another run.
func (r *Reader) Forget() {
	r.world, r.inspected, r.NodePage, r.last = worldIndex{}, nil, 0, lastReading{}
}

// Read reads the view of s; with digest, the trace digest too (it hashes
// the whole world the first time).
func (r *Reader) Read(s *Session, digest bool) View {
	run := s.run
	v := View{N: s.N(), Known: s.Known(), Final: s.Final(), AtEnd: s.AtEnd(), Now: run.Now().String()}
	// The log shows 25 to 50 passes, and moves in steps of 25: between
	// steps a new pass only adds a line, and the lines above it stay.
	from := max(0, (v.N-1)/LogStep*LogStep-LogStep)
	v.Log = run.PassesFrom(from)
	if len(v.Log) > 0 {
		last := v.Log[len(v.Log)-1]
		v.Current = &last
	}
	s.learn(run)
	reg := run.Config().Registry()
	if v.Current != nil {
		v.Explained = ExplainIn(reg, *v.Current)
		v.Pseudocode = pseudocodeOf(reg, *v.Current)
	} else if p, ok := s.FirstPass(); ok && v.N == 0 {
		v.First = ExplainIn(reg, p)
	}
	v.Entries = readEntries(run, s.round, v.Log, from)
	v.Marks = s.Marks()
	for _, m := range r.Moments {
		if mk, ok := s.MarkAt(m.At, m.Kind, m.Label); ok {
			v.Marks = append(v.Marks, mk)
		}
	}
	sortMarks(v.Marks)
	// A look-ahead from the start learns the start-up on its way: while
	// one is under way, the reading does not run the start-up again.
	v.InStartup = s.inStartup(s.ahead == nil || s.aheadFrom != 0)
	// One walk of the world's checks for both (a big world pays for each).
	v.Converged, v.Moving = run.ConvergedMoving(MovingShown)
	v.Acting = run.Acting()
	if !v.Converged {
		v.Why = v.Moving[0]
	}
	ref, following := r.inspecting(&v)
	v.Following = following
	v.History = History(run, HistoryShown)
	v.LoadNotes = run.Config().Notes
	// What changed is marked only when this reading follows the one
	// before by steps forward.
	follows := r.last.ses == s && r.last.jumps == s.jumps && v.N >= r.last.n && v.N-r.last.n <= maxEventPasses
	r.world.delta = nil
	if follows {
		r.world.delta = &worldDelta{}
	}
	r.world.sync(run)
	r.world.marks = r.marksSince(s, follows)
	r.world.delta = nil
	r.last = lastReading{ses: s, n: v.N, jumps: s.jumps}
	ctrls := run.EachController()
	v.Cluster = readCluster(run, &r.world, ctrls, r.NodePage)
	if v.Current != nil {
		v.Cluster.Acting = passActor(*v.Current)
	}
	v.Targets = readTargets(run, &r.world, ctrls)
	switch {
	case ref.Kind == "":
	case r.NoInspector || r.InspectLater:
		v.Inspector = Inspection{Ref: ref}
	default:
		v.Inspector = inspect(run, ref, &r.inspected)
	}
	if digest {
		v.Digest = run.Digest()
	}
	v.Traffic = readTraffic(run)
	v.Ready = true
	return v
}

// inspecting returns the object the inspector shows in reading v: the
// one selected, else the one v's pass reconciled (following).
func (r *Reader) inspecting(v *View) (ref api.Ref, following bool) {
	ref, following = r.Selected, r.Selected == api.Ref{}
	if following && v.Current != nil {
		ref = v.Current.Object
	}
	return ref, following
}

// Inspect reads the inspector of v, a reading of s made with InspectLater
// that s has not moved from since.
func (r *Reader) Inspect(s *Session, v *View) {
	if ref, _ := r.inspecting(v); ref.Kind != "" && !r.NoInspector {
		v.Inspector = inspect(s.run, ref, &r.inspected)
	}
}

// marksSince returns the changes this reading shows, when it follows the
// reading before by steps forward (nil otherwise): what the current pass
// wrote, and what was written since the reading before by no pass (inputs
// given meanwhile). What a pass before the current one wrote is not
// marked. A reading at the same pass as the one before keeps its marks
// and adds what inputs wrote since.
func (r *Reader) marksSince(s *Session, follows bool) *changeMarks {
	if !follows {
		return nil
	}
	run := s.run
	n, d := run.PassCount(), r.world.delta
	var m *changeMarks
	var current sim.Pass
	wrote := map[api.Ref]bool{}
	older := map[api.Ref]bool{}
	if n > r.last.n {
		m = newChangeMarks()
		passes := run.PassesFrom(r.last.n)
		current = passes[len(passes)-1]
		for _, c := range current.Changed {
			wrote[c.Ref] = true
		}
		// Of what changed since the reading before, what the passes before
		// the current one wrote.
		for _, c := range d.pods {
			older[c.ref] = false
		}
		for _, ref := range d.objects {
			older[ref] = false
		}
		for _, p := range passes[:len(passes)-1] {
			for _, c := range p.Changed {
				if _, ok := older[c.Ref]; ok {
					older[c.Ref] = true
				}
			}
		}
	} else {
		if len(d.pods) == 0 && len(d.objects) == 0 {
			return r.world.marks
		}
		m = r.world.marks.clone()
	}
	byInput := ""
	for _, c := range d.pods {
		byPass := wrote[c.ref]
		if !byPass && older[c.ref] {
			continue
		}
		if c.how != "" {
			m.pods[c.key] = c.how
			continue
		}
		delete(m.pods, c.key)
		g := Ghost{PodChip: chipOf(c.last)}
		if byPass {
			g.Reason = deletedBy(current)
		} else {
			if byInput == "" {
				byInput = deletedByInput(s, r.last.n)
			}
			g.Reason = byInput
		}
		node := c.last.Spec.NodeName
		if len(m.ghosts[node]) < MaxPodsShownOnNode {
			m.ghosts[node] = append(m.ghosts[node], g)
		}
	}
	for _, ref := range d.objects {
		if wrote[ref] || !older[ref] {
			m.objects[ref] = true
		}
	}
	if m.empty() {
		return nil
	}
	return m
}

// passActor names who ran a pass: its controller, and its node for a kubelet.
func passActor(p sim.Pass) string {
	if p.Host != "" {
		return p.Controller + " on " + p.Host
	}
	return p.Controller
}

// deletedBy says why a pod the pass deleted is gone.
func deletedBy(p sim.Pass) string {
	if p.Controller == controller.Kubelet {
		return "deleted by the kubelet on " + p.Host + " after it terminated"
	}
	return "deleted by " + passActor(p)
}

// deletedByInput says why a pod no pass deleted since pass since is gone:
// the last input given since that writes (a fault, a kubectl write, an
// apply), or the last write a command still running made on its own
// clock (a drain's eviction tried again), whichever came later.
func deletedByInput(s *Session, since int) string {
	run := s.run
	recs := newInputRecords(run)
	why := "deleted between passes"
	var whyAt api.Time
	for _, pi := range placeInputs(run, s.round) {
		if pi.after < since || pi.after > run.PassCount() {
			continue
		}
		if _, given := recs.find(pi); !given {
			continue
		}
		if k, ok := pi.in.(sim.Kubectl); ok {
			if _, write := VerbOf(k.Line); !write {
				continue
			}
		}
		if _, ok := pi.in.(sim.Interrupt); ok {
			continue // Ctrl+C ends a watch: it deletes nothing
		}
		why, whyAt = "deleted by an input: "+pi.in.Text(), pi.at
	}
	for _, a := range run.Acts() {
		if a.After >= since && a.After <= run.PassCount() && a.At >= whyAt {
			why = "deleted by " + a.Command + " (given at t=" + a.Started + "): its eviction at t=" + a.AtText
		}
	}
	return why
}

// Show makes p the view's current pass, read as Read reads the run's own:
// its words and the pseudocode it lit, with the run's controllers. A page
// that shows another pass than the last one run (the pass a symptom showed
// in) shows it whole.
func (s *Session) Show(v *View, p sim.Pass) {
	reg := s.run.Config().Registry()
	v.Current = &p
	v.Explained = ExplainIn(reg, p)
	v.Pseudocode = pseudocodeOf(reg, p)
}
