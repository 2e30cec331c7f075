package controller

import "reconcile/engine/api"

// Statement is one of what a pass reports (desired, observed, the
// difference): the words the trace keeps (String) and, where a reader has
// words of its own for it, the fact they state, as values.
type Statement struct {
	Fact
	Words string
}

// String gives the statement in the trace's words.
func (s Statement) String() string { return s.Words }

// MarshalText writes the statement's words.
func (s Statement) MarshalText() ([]byte, error) { return []byte(s.Words), nil }

// Fact is what a statement states, as values: which fact (Is), and its
// count, duration or name.
type Fact struct {
	Is   Is
	N    int
	D    api.Duration
	Name string
}

// Is names a fact.
type Is uint8

// Facts. The zero Is says nothing beyond the words.
const (
	_ Is = iota
	// Nothing: no observation ("-"), no difference ("none").
	Nothing
	// Deleted: the object of the key is gone (desired).
	Deleted
	// Replicas: a ReplicaSet wants N pods (desired).
	Replicas
	// ActivePods: a ReplicaSet has N active pods (observed).
	ActivePods
	// WaitingOwnWrites: a ReplicaSet waits to see its own writes, Name
	// saying which (difference).
	WaitingOwnWrites
	// The edge-triggered twin's events (desired): a ReplicaSet created
	// or resized, a pod lost; Name is the event in words.
	EdgeCreated
	EdgeResized
	EdgeLost
	// NoReplicaSetForTemplate: a Deployment's template has none (difference).
	NoReplicaSetForTemplate
	// GoneOrBound: the scheduler's pod is gone or bound already (observed).
	GoneOrBound
	// HeartbeatWithin: a node must renew its lease within D (desired).
	HeartbeatWithin
	// LastHeartbeat: a node's last heartbeat was D ago (observed).
	LastHeartbeat
	// HeartbeatOverdue, EvictPods, NodeBack: the node lifecycle
	// controller's differences.
	HeartbeatOverdue
	EvictPods
	NodeBack
	// GitRevision: what git holds, at revision Name ("git revision 3")
	// (desired).
	GitRevision
	// LiveDiffers (Name: which fields), MissingFromCluster, MatchesGit,
	// NotInGit: what the GitOps controller found (observed).
	LiveDiffers
	MissingFromCluster
	MatchesGit
	NotInGit
	// PodGone, PodFinished, PodDeleted: what a kubelet wants of a pod
	// that is gone from its node, finished or being deleted (desired).
	PodGone
	PodFinished
	PodDeleted
	// WaitingFor: a StatefulSet waits for a pod, as OrderedReady asks
	// (difference).
	WaitingFor
	// CordonTaint: the node lifecycle controller keeps the unschedulable
	// taint on a cordoned node, and only there; Name says "cordoned" or
	// "uncordoned" (difference).
	CordonTaint
	// NamespaceHolds: a namespace must hold the object Name
	// ("serviceaccount default") (desired); NamespaceTerminating: a
	// namespace being deleted gets nothing new (desired).
	NamespaceHolds
	NamespaceTerminating
	// Present, Missing, Altered: the object Name is there as it should
	// be, is not there, or is there changed (observed).
	Present
	Missing
	Altered
	// ToCreate, ToRestore: the object Name is to be created, or its
	// data put back (difference).
	ToCreate
	ToRestore
)

// Deleted reports a key whose object is gone: words ("ReplicaSet
// deleted") desired, nothing observed.
func (ctx *Context) Deleted(words string) {
	ctx.Desired, ctx.Observed = words, "-"
	ctx.DesiredFact, ctx.ObservedFact = Fact{Is: Deleted}, Fact{Is: Nothing}
}
