package scenario

import (
	"fmt"

	"reconcile/engine/api"
)

// imageBehaviour reads the fields of cluster.images[i] that say how the
// image pulls and how a container of it lives: the times (pull, start,
// runs, warmup, stops), the switches (ready, crash, healthy, startupFails,
// postStartFails, preStopFails), exitCode, memory and the commands it has.
func (l *loader) imageBehaviour(f *fieldSet, im *Image, path string) {
	for _, d := range []struct {
		name string
		to   *api.Duration
	}{{"pull", &im.Pull}, {"start", &im.Start}, {"runs", &im.Runs}, {"warmup", &im.Warmup}, {"stops", &im.Stops}} {
		if v := f.get(d.name); v != nil {
			*d.to, _ = l.duration(v, path+"."+d.name)
		}
	}
	for _, b := range []struct {
		name string
		to   *bool
	}{{"ready", &im.Ready}, {"crash", &im.Crash}, {"healthy", &im.Healthy}, {"startupFails", &im.StartupFails},
		{"postStartFails", &im.PostStartFails}, {"preStopFails", &im.PreStopFails}} {
		if v := f.get(b.name); v != nil {
			*b.to, _ = l.boolean(v, path+"."+b.name)
		}
	}
	if v := f.get("commands"); v != nil {
		for i, c := range l.list(v, path+".commands", "[cat, sh]") {
			if s, ok := l.str(c, fmt.Sprintf("%s.commands[%d]", path, i)); ok && s != "" {
				im.Commands = append(im.Commands, s)
			} else if ok {
				l.fail(c, "%s.commands[%d]: must not be empty", path, i)
			}
		}
	}
	if v := f.get("memory"); v != nil {
		im.Memory = l.capacity(v, path+".memory")
	}
	if v := f.get("exitCode"); v != nil {
		if n, ok := l.integer(v, path+".exitCode", 32); ok {
			if n < 0 || n > 255 {
				l.fail(v, "%s.exitCode: invalid value %d: must be from 0 to 255", path, n)
			}
			im.ExitCode = int32(n)
		}
	}
}
