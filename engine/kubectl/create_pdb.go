package kubectl

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"

	"reconcile/engine/api"
	"reconcile/engine/selector"
)

// intOrPercent is the value create poddisruptionbudget accepts for
// --min-available and --max-unavailable.
var intOrPercent = regexp.MustCompile(`^[0-9]+%?$`)

// createPDB runs kubectl create poddisruptionbudget NAME --selector=SEL
// --min-available=N|--max-unavailable=N, with kubectl's checks.
func (k *cmd) createPDB() (string, error) {
	if len(k.in.Args) != 1 {
		return "", fmt.Errorf("error: exactly one NAME is required, got %d\nSee 'kubectl create poddisruptionbudget -h' for help and examples", len(k.in.Args))
	}
	p, err := k.newPrinter(printFormats)
	if err != nil {
		return "", err
	}
	sel := k.in.String("selector", "")
	minAvailable, maxUnavailable := k.in.String("min-available", ""), k.in.String("max-unavailable", "")
	const errMsg = "min-available or max-unavailable must be either an integer or a percentage"
	switch {
	case sel == "":
		return "", errors.New("error: a selector must be specified")
	case minAvailable == "" && maxUnavailable == "":
		return "", errors.New("error: one of min-available or max-unavailable must be specified")
	case minAvailable != "" && maxUnavailable != "":
		return "", errors.New("error: min-available and max-unavailable cannot be both specified")
	case maxUnavailable != "" && !intOrPercent.MatchString(maxUnavailable):
		return "", errors.New("error: invalid max-unavailable: " + errMsg)
	case minAvailable != "" && !intOrPercent.MatchString(minAvailable):
		return "", errors.New("error: invalid min-available: " + errMsg)
	}
	ls, err := labelSelectorOf(sel)
	if err != nil {
		return "", err
	}
	b := &api.PodDisruptionBudget{TypeMeta: api.TypeMeta{APIVersion: "policy/v1", Kind: "PodDisruptionBudget"},
		ObjectMeta: api.ObjectMeta{Name: k.in.Args[0], Namespace: k.namespace("PodDisruptionBudget")},
		Spec:       api.PodDisruptionBudgetSpec{Selector: ls}}
	if minAvailable != "" {
		v := parseIntOrString(minAvailable)
		b.Spec.MinAvailable = &v
	} else {
		v := parseIntOrString(maxUnavailable)
		b.Spec.MaxUnavailable = &v
	}
	return k.createNew(p, b, "created")
}

// parseIntOrString is intstr.Parse: a number, else the string.
func parseIntOrString(s string) api.IntOrString {
	if i, err := strconv.Atoi(s); err == nil {
		return api.FromInt(int32(i))
	}
	return api.FromString(s)
}

// labelSelectorOf is metav1.ParseToLabelSelector: key=value into
// matchLabels, the rest into matchExpressions.
func labelSelectorOf(s string) (*api.LabelSelector, error) {
	reqs, err := selector.ParseLabels(s)
	if err != nil {
		return nil, fmt.Errorf("error: couldn't parse the selector string %q: %v", s, err)
	}
	ls := &api.LabelSelector{MatchLabels: map[string]string{}}
	for _, r := range reqs {
		switch r.Operator {
		case selector.Equals, selector.DoubleEquals:
			ls.MatchLabels[r.Key] = r.Values[0]
		case selector.In:
			ls.MatchExpressions = append(ls.MatchExpressions, api.LabelSelectorRequirement{Key: r.Key, Operator: "In", Values: r.Values})
		case selector.NotIn, selector.NotEquals:
			ls.MatchExpressions = append(ls.MatchExpressions, api.LabelSelectorRequirement{Key: r.Key, Operator: "NotIn", Values: r.Values})
		case selector.Exists:
			ls.MatchExpressions = append(ls.MatchExpressions, api.LabelSelectorRequirement{Key: r.Key, Operator: "Exists"})
		case selector.DoesNotExist:
			ls.MatchExpressions = append(ls.MatchExpressions, api.LabelSelectorRequirement{Key: r.Key, Operator: "DoesNotExist"})
		default:
			return nil, fmt.Errorf("error: %q is not a valid label selector operator", r.Operator)
		}
	}
	if len(ls.MatchLabels) == 0 {
		ls.MatchLabels = nil
	}
	return ls, nil
}
