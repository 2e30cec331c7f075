package fault

import (
	"fmt"
	"strconv"
	"strings"

	"reconcile/engine/api"
)

// CPUTarget reads the target of a cpu fault: "deployment/NAME" or
// "pod/NAME", with an optional namespace between ("deployment/shop/web");
// kind is "Deployment" or "Pod".
func CPUTarget(target string) (kind, namespace, name string, err error) {
	parts := strings.Split(target, "/")
	if len(parts) < 2 || len(parts) > 3 {
		return "", "", "", fmt.Errorf("TARGET must be deployment/NAME or pod/NAME (or deployment/NAMESPACE/NAME), got %q", target)
	}
	switch strings.ToLower(parts[0]) {
	case "deployment", "deploy", "deployments":
		kind = "Deployment"
	case "pod", "po", "pods":
		kind = "Pod"
	default:
		return "", "", "", fmt.Errorf("TARGET must be deployment/NAME or pod/NAME, got %q", target)
	}
	namespace, name = "default", parts[1]
	if len(parts) == 3 {
		namespace, name = parts[1], parts[2]
	}
	if namespace == "" || name == "" {
		return "", "", "", fmt.Errorf("TARGET must name an object, got %q", target)
	}
	return kind, namespace, name, nil
}

// CPUValue reads the value of a cpu fault: a percentage of each pod's CPU
// request ("85%"), or millicores ("900m", "2").
func CPUValue(v string) (percent bool, amount int64, err error) {
	if p, ok := strings.CutSuffix(v, "%"); ok {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 100000 {
			return false, 0, fmt.Errorf("VALUE %q: a percentage must be a whole number from 0%% to 100000%%", v)
		}
		return true, int64(n), nil
	}
	if _, err := api.Quantity(v).Parse(); err != nil {
		return false, 0, fmt.Errorf("VALUE %q must be a percentage of the CPU request (85%%) or a CPU quantity (900m, 2)", v)
	}
	m := api.Quantity(v).Milli()
	if m > 1_000_000_000 {
		return false, 0, fmt.Errorf("VALUE %q: at most 1000000 cores", v)
	}
	return false, m, nil
}

func checkCPU(target, value string) error {
	if _, _, _, err := CPUTarget(target); err != nil {
		return err
	}
	_, _, err := CPUValue(value)
	return err
}
