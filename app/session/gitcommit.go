package session

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"reconcile/engine/api"
	"reconcile/engine/controller"
	"reconcile/engine/limits"
	"reconcile/engine/manifest"
	"reconcile/engine/sim"
)

// ErrNoGitOps refuses a commit in a world with no GitOps controller: there
// is no source to commit to.
var ErrNoGitOps = errors.New("this world runs no GitOps controller: there is no git source to commit to")

// ErrNothingToCommit refuses a commit of text that holds no object.
var ErrNothingToCommit = errors.New("the desired state holds no Kubernetes object")

// GitOps reports whether the world runs a GitOps controller, the one that
// applies what is committed to git: only then can the learner commit.
func (s *Session) GitOps() bool {
	return slices.Contains(s.ControllerNames(), controller.GitOpsController)
}

// TryCommit commits text (the editor's, named file in positions) to the
// GitOps source, on a copy of the run, as git commit && git push does: the
// GitOps controller applies it at its next sync. Text that does not decode
// is refused as Apply refuses it (a yamlpos.ErrorList, each problem at its
// line and column), and so is a workload asking for more replicas than the
// playground simulates. Committing the attempt records the input (a
// sim.Commit) with the others: the challenge judge, a share link, saved
// work and a record replay it.
func (s *Session) TryCommit(file, text string) (*Attempt, error) {
	if !s.GitOps() {
		return nil, ErrNoGitOps
	}
	ms, err := manifest.Decode(file, text, 1, 1)
	if err != nil {
		return nil, err
	}
	if len(ms) == 0 {
		return nil, ErrNothingToCommit
	}
	for _, m := range ms {
		var r int32
		switch w := m.Object.(type) {
		case *api.Deployment:
			r = api.Deref(w.Spec.Replicas, 1)
		case *api.ReplicaSet:
			r = api.Deref(w.Spec.Replicas, 1)
		default:
			continue
		}
		if r > limits.MaxReplicas {
			return nil, fmt.Errorf("refused: %s/%s would ask for %d replicas; the limit is %d replicas per workload (MaxReplicas)",
				strings.ToLower(m.Object.GetTypeMeta().Kind), m.Object.Meta().Name, r, limits.MaxReplicas)
		}
	}
	a, err := s.Try(sim.Commit{Manifests: text})
	if err != nil {
		return nil, err
	}
	if a.Output.ExitCode != 0 {
		return nil, errors.New(strings.TrimSpace(a.Output.Output))
	}
	return a, nil
}
