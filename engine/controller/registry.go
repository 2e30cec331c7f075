package controller

// names are the controllers a scenario may name, in the order messages
// list them.
var names = []string{DeploymentController, ReplicaSetController, Scheduler, Kubelet, NodeLifecycleController, JobController, GitOpsController}

// Names returns the name of every controller of the simulated control
// plane.
func Names() []string { return append([]string(nil), names...) }

// Known reports whether name is a controller's.
func Known(name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}
