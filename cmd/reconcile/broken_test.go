package main

import (
	"strings"
	"testing"
)

// TestCheckRejectsBrokenScenarios runs reconcile check on scenario files
// with one mistake each, as a course author might make them: each is
// refused with the file, line and column of the mistake and what was
// expected there. A mistake the loader can see is bad input (exit 2); an
// expect on an object the run never creates is a failed expect (exit 1).
func TestCheckRejectsBrokenScenarios(t *testing.T) {
	tests := []struct {
		file string
		code int
		want string // the start of the message, from file:line:column on
	}{
		{"testdata/broken/unknown-verb.yaml", 2,
			`testdata/broken/unknown-verb.yaml:22:22: steps[0].kubectl: unknown kubectl command "restart": want one of apply, create, expose, delete, scale, autoscale, set, patch, label, annotate, taint, cordon, uncordon, drain, rollout, wait, get, describe, events, top, api-resources, diff`},
		{"testdata/broken/bad-time.yaml", 2,
			`testdata/broken/bad-time.yaml:22:8: steps[0].at: invalid duration "30 seconds": want a number of seconds or a Go duration such as 30s, 2m, 1h30m`},
		{"testdata/broken/unknown-controller.yaml", 2,
			`testdata/broken/unknown-controller.yaml:22:20: steps[0].fault: fault stop: unknown controller "replication-controller": want one of deployment-controller, replicaset-controller, default-scheduler, job-controller, ttl-after-finished-controller, daemonset-controller, statefulset-controller, cronjob-controller, persistentvolume-controller, node-lifecycle-controller, garbage-collector-controller, pod-garbage-collector-controller, namespace-controller, resourcequota-controller, horizontal-pod-autoscaler, disruption-controller, endpointslice-controller, endpoints-controller, gitops, node-ipam-controller, serviceaccount-controller, root-ca-certificate-publisher-controller, kubelet`},
		{"testdata/broken/missing-object.yaml", 1,
			`testdata/broken/missing-object.yaml:23:3: expect at 1m: deployment/api status.availableReplicas == 5: no deployment named "api"`},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			code, stdout, stderr := runCLI("check", tt.file)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout %s\nstderr %s", code, tt.code, stdout, stderr)
			}
			report := stderr
			if tt.code == 1 {
				report = stdout
			}
			found := false
			for _, line := range strings.Split(report, "\n") {
				if strings.HasPrefix(line, tt.want) {
					found = true
				}
			}
			if !found {
				t.Errorf("want a line starting\n%s\ngot stdout\n%s\nstderr\n%s", tt.want, stdout, stderr)
			}
		})
	}
}
