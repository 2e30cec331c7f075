package fault

import (
	"testing"

	"reconcile/engine/api"
	"reconcile/engine/controller"
)

func TestParse(t *testing.T) {
	good := map[string]Fault{
		"node-down worker-2":                      {Verb: NodeDown, Target: "worker-2", Count: 1},
		"node-up worker-2":                        {Verb: NodeUp, Target: "worker-2", Count: 1},
		"drop-watch replicaset-controller":        {Verb: DropWatch, Target: "replicaset-controller", Count: 1},
		"duplicate-watch deployment-controller 4": {Verb: DuplicateWatch, Target: "deployment-controller", Count: 4},
		"delay-watch default-scheduler 1m30s":     {Verb: DelayWatch, Target: "default-scheduler", Count: 1, Delay: 90 * api.Second},
		"crash replicaset-controller":             {Verb: Crash, Target: "replicaset-controller", Count: 1},
		"stop gitops":                             {Verb: Stop, Target: "gitops", Count: 1},
		"start node-lifecycle-controller":         {Verb: Start, Target: "node-lifecycle-controller", Count: 1},
		"webhook-down pods.example.com":           {Verb: WebhookDown, Target: "pods.example.com", Count: 1},
		"webhook-up pods.example.com":             {Verb: WebhookUp, Target: "pods.example.com", Count: 1},
		"push-image shop/web:1.0":                 {Verb: PushImage, Target: "shop/web:1.0", Count: 1},
		"push-image shop/web:1.0 sha256:bbbb":     {Verb: PushImage, Target: "shop/web:1.0", Count: 1, Digest: "sha256:bbbb"},
		"  delete-pod   default/web-7d9c-x2kq9  ": {Verb: DeletePod, Target: "default/web-7d9c-x2kq9", Count: 1},
		"cpu deployment/web 85%":                  {Verb: CPU, Target: "deployment/web", Count: 1, Value: "85%"},
		"cpu deployment/shop/web 900m":            {Verb: CPU, Target: "deployment/shop/web", Count: 1, Value: "900m"},
		"cpu pod/web-7d9c-x2kq9 2":                {Verb: CPU, Target: "pod/web-7d9c-x2kq9", Count: 1, Value: "2"},
	}
	for line, want := range good {
		got, err := Parse(line)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", line, got, err, want)
		}
		if again, _ := Parse(got.String()); again != got {
			t.Errorf("%q does not round-trip through String: %q", line, got.String())
		}
	}
	bad := map[string]string{
		"":                                "empty fault: want one of node-down, node-up, drop-watch, duplicate-watch, delay-watch, crash, stop, start, sync, webhook-down, webhook-up, push-image, delete-pod, fail-probe, pass-probe, cpu",
		"node-down":                       "fault node-down takes NODE, got 0 word(s) after it: write node-down NODE",
		"node-down a b":                   "fault node-down takes NODE, got 2 word(s) after it: write node-down NODE",
		"delay-watch kubelet":             "fault delay-watch takes CONTROLLER DURATION, got 1 word(s) after it: write delay-watch CONTROLLER DURATION",
		"delay-watch kubelet -5s":         "fault delay-watch: invalid duration \"-5s\": must not be negative",
		"drop-watch kubelet 0":            `fault drop-watch: COUNT must be a whole number from 1 to 1000000, got "0"`,
		"crash scheduler":                 `fault crash: unknown controller "scheduler": want one of deployment-controller, replicaset-controller, default-scheduler, job-controller, ttl-after-finished-controller, daemonset-controller, statefulset-controller, cronjob-controller, persistentvolume-controller, node-lifecycle-controller, garbage-collector-controller, pod-garbage-collector-controller, namespace-controller, resourcequota-controller, horizontal-pod-autoscaler, disruption-controller, endpointslice-controller, endpoints-controller, gitops, node-ipam-controller, serviceaccount-controller, root-ca-certificate-publisher-controller, kubelet`,
		"push-image shop/web:1.0 md5:abc": `fault push-image: invalid digest "md5:abc": want sha256:<hex>`,
		"reboot worker-1":                 `unknown fault "reboot": want one of node-down, node-up, drop-watch, duplicate-watch, delay-watch, crash, stop, start, sync, webhook-down, webhook-up, push-image, delete-pod, fail-probe, pass-probe, cpu`,
	}
	for line, want := range bad {
		if _, err := Parse(line); err == nil || err.Error() != want {
			t.Errorf("Parse(%q): got %v\nwant %s", line, err, want)
		}
	}
}

// TestParseIn: a fault for a run names the run's controllers, those of its
// registry, and an unknown one is refused with the same words, listing them.
func TestParseIn(t *testing.T) {
	specs := []controller.Spec{{Name: "pod-labeler"}, {Name: controller.Kubelet}}
	if got, err := ParseIn(specs, "crash pod-labeler"); err != nil || got != (Fault{Verb: Crash, Target: "pod-labeler", Count: 1}) {
		t.Errorf("crash pod-labeler: %+v, %v", got, err)
	}
	if _, err := Parse("crash pod-labeler"); err == nil {
		t.Error("crash pod-labeler parses for a run of the built-in controllers")
	}
	want := `fault drop-watch: unknown controller "replicaset-controller": want one of pod-labeler, kubelet`
	if _, err := ParseIn(specs, "drop-watch replicaset-controller 2"); err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	if got, err := ParseIn(specs, "node-down worker-1"); err != nil || got.Target != "worker-1" {
		t.Errorf("node-down worker-1: %+v, %v", got, err)
	}
}
