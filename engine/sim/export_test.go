package sim

// OwnInformers gives every controller of the runs made after it a cache of
// its own (on) or has kube-controller-manager's share one (off).
func OwnInformers(on bool) { ownInformers = on }
