package scenario

// imageBehaviour reads the fields of cluster.images[i] that say how a
// container of the image lives: exitCode, runs, warmup, startupFails,
// postStartFails, preStopFails.
func (l *loader) imageBehaviour(f *fieldSet, im *Image, path string) {
	if v := f.get("exitCode"); v != nil {
		if n, ok := l.integer(v, path+".exitCode", 32); ok {
			if n < 0 || n > 255 {
				l.fail(v, "%s.exitCode: invalid value %d: must be from 0 to 255", path, n)
			}
			im.ExitCode = int32(n)
		}
	}
	if v := f.get("runs"); v != nil {
		im.Runs, _ = l.duration(v, path+".runs")
	}
	if v := f.get("warmup"); v != nil {
		im.Warmup, _ = l.duration(v, path+".warmup")
	}
	if v := f.get("startupFails"); v != nil {
		im.StartupFails, _ = l.boolean(v, path+".startupFails")
	}
	if v := f.get("postStartFails"); v != nil {
		im.PostStartFails, _ = l.boolean(v, path+".postStartFails")
	}
	if v := f.get("preStopFails"); v != nil {
		im.PreStopFails, _ = l.boolean(v, path+".preStopFails")
	}
}
