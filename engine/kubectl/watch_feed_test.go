package kubectl_test

import (
	"fmt"
	"strings"
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/kubectl"
	"reconcile/engine/store"
)

// TestWatchChangesPrintsWhatTheListPrints: a get -w or events -w that
// reads only the objects the store's changes name (CheckChanges, as the
// simulator drives it) prints, line for line, what one that lists every
// object at each look prints (CheckAt), through a long run of writes: two
// changes to one pod between looks, a pod created and deleted between
// them, deleted and made again under its name, relabelled out of a
// selector and back, deleted gracefully, events recorded and repeated,
// changes handed over late (left in the store, Pending, at a look and
// taken after it).
func TestWatchChangesPrintsWhatTheListPrints(t *testing.T) {
	lines := []string{
		"get pods -w",
		"get pods -w -l app=a",
		"get pods -w -l app=a --output-watch-events",
		"get pods -w -l app!=a --watch-only --output-watch-events",
		"get pods -A -w -o wide",
		"get pods -A -w -o name --output-watch-events",
		"get pods -n other -w --show-labels",
		"get pods -A -w --field-selector status.phase=Running --output-watch-events",
		"get pod p1 -w --output-watch-events",
		"get pods -w --output-watch-events | head -n 40",
		"get events -A -w",
		"events -w",
		"events -A -w",
		"events -w --for pod/p1",
		"events -A -w --types=Warning",
		"events -w -o name",
	}
	for seed := uint32(1); seed <= 4; seed++ {
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) {
			st := store.New(int64(seed))
			if _, err := st.Create(&api.Namespace{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Namespace"}, ObjectMeta: api.ObjectMeta{Name: "other"}}); err != nil {
				t.Fatal(err)
			}
			now := 10 * api.Second
			st.SetNow(now)
			for _, ns := range []string{"default", "other"} {
				for _, name := range []string{"p1", "p2"} {
					if _, err := st.Create(feedPod(ns, name, "a")); err != nil {
						t.Fatal(err)
					}
				}
			}
			p1 := st.Get("Pod", "default", "p1")
			st.Record("kubelet", "worker-1", p1, "Normal", "Pulled", "pulled")
			st.TakeChanges()
			type pair struct{ list, fed *kubectl.Watch }
			var ws []pair
			for _, l := range lines {
				a, ok := kubectl.WatchingAt(st, now, l)
				b, _ := kubectl.WatchingAt(st, now, l)
				if !ok {
					t.Fatalf("%s: not watching", l)
				}
				ws = append(ws, pair{a, b})
			}
			ended := make([]bool, len(ws))
			var feed []store.Change
			r := seed * 2654435761
			rand := func(n int) int {
				r = r*1103515245 + 12345
				return int(r>>8) % n
			}
			names := []string{"p1", "p2", "p3", "p4", "p5"}
			nss := []string{"default", "other"}
			for step := 0; step < 1500; step++ {
				ns, name := nss[rand(2)], names[rand(len(names))]
				cur, _ := st.Get("Pod", ns, name).(*api.Pod)
				switch op := rand(10); {
				case op == 0 && cur == nil:
					st.Create(feedPod(ns, name, []string{"a", "b"}[rand(2)]))
				case op == 1 && cur != nil: // in or out of app=a
					p := cur.DeepCopy()
					p.Labels["app"] = map[string]string{"a": "b", "b": "a"}[p.Labels["app"]]
					st.Update(p)
				case op == 2 && cur != nil:
					p := cur.DeepCopy()
					p.Status.Phase = map[string]string{api.PodRunning: api.PodPending}[p.Status.Phase]
					if p.Status.Phase == "" {
						p.Status.Phase = api.PodRunning
					}
					st.UpdateStatus(p)
				case op == 3 && cur != nil:
					st.Delete("Pod", ns, name, rand(3) > 0)
				case op == 4 && cur != nil:
					typ := []string{"Normal", "Warning"}[rand(2)]
					st.Record("kubelet", "worker-1", cur, typ, []string{"Pulled", "BackOff"}[rand(2)], "about "+name)
				case op == 5:
					feed = append(feed, st.TakeChanges()...) // the owner drains
				case op == 6:
					now += api.Duration(rand(3)) * api.Second
					st.SetNow(now)
				case op >= 7:
					all := append(feed, st.Pending()...)
					feed = nil
					for i, w := range ws {
						if ended[i] {
							continue
						}
						want, wend, wcode := w.list.CheckAt(st, now)
						out, end, code := w.fed.CheckChanges(st, now, all)
						if !end {
							out = w.fed.Output()
						}
						if out != want || end != wend || code != wcode {
							t.Fatalf("step %d, kubectl %s: read from the changes (ended %v, exit %d):\n%s\nlisting every object (ended %v, exit %d):\n%s",
								step, lines[i], end, code, out, wend, wcode, want)
						}
						ended[i] = end
					}
				}
			}
			// The run went through what a watch could miss.
			if out := ws[2].list.Output(); !strings.Contains(out, "\nDELETED ") || !strings.Contains(out, "\nMODIFIED ") || strings.Count(out, "\nADDED ") < 3 {
				t.Errorf("kubectl %s printed no deletes, changes or additions:\n%s", lines[2], out)
			}
			if out := ws[12].list.Output(); strings.Count(out, "\n") < 10 || !strings.Contains(out, " (x") {
				t.Errorf("kubectl %s printed few events, none repeated:\n%s", lines[12], out)
			}
		})
	}
}

func feedPod(ns, name, app string) *api.Pod {
	return &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns, Labels: map[string]string{"app": app}},
		Spec:       api.PodSpec{Containers: []api.Container{{Name: "c", Image: "shop/web:1.0"}}}}
}

// TestWatchCloneGoesOnApart: a clone of a watch (a checkpoint of the run
// keeps one) remembers what the watch had printed when cloned, whatever
// the watch prints after: looking at the same changes, it prints them.
func TestWatchCloneGoesOnApart(t *testing.T) {
	for _, line := range []string{"get pods -A -w --output-watch-events", "events -A -w"} {
		st := store.New(1)
		st.SetNow(api.Second)
		for _, name := range []string{"p1", "p2", "p3"} {
			p, err := st.Create(feedPod("default", name, "a"))
			if err != nil {
				t.Fatal(err)
			}
			st.Record("kubelet", "worker-1", p, "Normal", "Pulled", "pulled")
		}
		st.TakeChanges()
		w, ok := kubectl.WatchingAt(st, api.Second, line)
		if !ok {
			t.Fatalf("%s: not watching", line)
		}
		c := w.Clone()
		st.SetNow(2 * api.Second)
		p2 := st.Get("Pod", "default", "p2").(*api.Pod).DeepCopy()
		p2.Labels["app"] = "b"
		st.Update(p2)
		st.Delete("Pod", "default", "p3", true)
		st.Create(feedPod("default", "p4", "a"))
		st.Record("kubelet", "worker-1", p2, "Normal", "Pulled", "pulled")
		st.Record("kubelet", "worker-1", p2, "Warning", "BackOff", "back-off")
		changes := st.TakeChanges()
		before := w.Output()
		w.CheckChanges(st, 2*api.Second, changes)
		printed := strings.TrimPrefix(w.Output(), before)
		if strings.Count(printed, "\n") < 2 {
			t.Fatalf("kubectl %s printed %q after the changes", line, printed)
		}
		if c.Output() != before {
			t.Fatalf("kubectl %s: the clone's output changed with the watch's: %q", line, c.Output())
		}
		c.CheckChanges(st, 2*api.Second, changes)
		if got := strings.TrimPrefix(c.Output(), before); got != printed {
			t.Errorf("kubectl %s: the clone printed\n%s\nwhere the watch printed\n%s", line, got, printed)
		}
	}
}
