package scenario

import (
	"fmt"

	"reconcile/engine/api"
)

// imageBehaviour reads the fields of cluster.images[i] that say how the
// image pulls and how a container of it lives: the times (pull, start,
// runs, warmup, stops), the switches (ready, crash, healthy, startupFails,
// postStartFails, preStopFails), exitCode and exitCodesByIndex, memory and
// the commands it has.
func (l *loader) imageBehaviour(f *fieldSet, im *Image, path string) {
	for _, d := range []struct {
		name string
		to   *api.Duration
	}{{"pull", &im.Pull}, {"start", &im.Start}, {"runs", &im.Runs}, {"warmup", &im.Warmup}, {"stops", &im.Stops}} {
		if v := f.get(d.name); v != nil {
			var ok bool
			*d.to, ok = l.duration(v, path+"."+d.name)
			// The kubelet moves a container from pulling to created to
			// running a pass at a time, each when its time is up: a pull
			// or start of no time would never wake it.
			if ok && *d.to <= 0 && (d.name == "pull" || d.name == "start") {
				l.fail(v, "%s.%s: invalid value %s: must be greater than 0s (a fast one is 100ms)", path, d.name, api.FormatDuration(*d.to))
			}
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
	if v := f.get("terminationMessage"); v != nil {
		im.TerminationMessage, _ = l.str(v, path+".terminationMessage")
	}
	if v := f.get("exitCodesByIndex"); v != nil {
		for i, c := range l.list(v, path+".exitCodesByIndex", "[1, 42, 0]") {
			p := fmt.Sprintf("%s.exitCodesByIndex[%d]", path, i)
			if n, ok := l.integer(c, p, 32); ok {
				if n < 0 || n > 255 {
					l.fail(c, "%s: invalid value %d: must be from 0 to 255", p, n)
				}
				im.ExitCodesByIndex = append(im.ExitCodesByIndex, int32(n))
			}
		}
	}
}
