package sim

// WatchByList has the kubectl watches of the runs made after it list
// every object they watch at each look (on) or read only what the store
// changed since (off).
func WatchByList(on bool) { watchByList = on }
