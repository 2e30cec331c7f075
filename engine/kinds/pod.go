package kinds

import (
	"reconcile/engine/api"
	"reconcile/engine/validation"
)

// A pod's generation is set at create and never bumped: its spec barely
// changes (validation says what may).
var _ = Define(Def[*api.Pod]{
	Kind:           "Pod",
	Default:        validation.DefaultPod,
	Validate:       validation.ValidatePod,
	ValidateUpdate: validation.ValidatePodUpdate,
	KeepStatus:     func(obj, old *api.Pod) { obj.Status = old.Status },
	KeepSpec:       func(obj, old *api.Pod) { obj.Spec = old.Spec },
	Columns: []TypedColumn[*api.Pod]{Name[*api.Pod](),
		{Name: "READY", Cell: func(p *api.Pod, now api.Time) string { r, _ := podReady(p, now); return r }},
		{Name: "STATUS", Cell: func(p *api.Pod, _ api.Time) string { return PodStatus(p) }},
		{Name: "RESTARTS", Cell: func(p *api.Pod, now api.Time) string { _, r := podReady(p, now); return r }},
		Age[*api.Pod](),
		{Name: "IP", Wide: true, Cell: func(p *api.Pod, _ api.Time) string { return OrNone(p.Status.PodIP) }},
		{Name: "NODE", Wide: true, Cell: func(p *api.Pod, _ api.Time) string { return OrNone(p.Spec.NodeName) }},
		{Name: "NOMINATED NODE", Wide: true, Cell: func(*api.Pod, api.Time) string { return "<none>" }},
		{Name: "READINESS GATES", Wide: true, Cell: func(*api.Pod, api.Time) string { return "<none>" }},
	},
	Describe: withEvents(describePod),
})

// describePod prints a pod as kubectl's pod describer does, a line per
// field in kubectl's order: a field kubectl shows goes in at its place.
func describePod(w *Describer, p *api.Pod) {
	w.Line(0, "Name:\t%s\n", p.Name)
	w.Line(0, "Namespace:\t%s\n", p.Namespace)
	more := p.Spec.More()
	if more.Priority != nil {
		w.Line(0, "Priority:\t%d\n", *more.Priority)
	}
	if more.PriorityClassName != "" {
		w.Line(0, "Priority Class Name:\t%s\n", more.PriorityClassName)
	}
	if rc := more.RuntimeClassName; rc != nil && *rc != "" {
		w.Line(0, "Runtime Class Name:\t%s\n", *rc)
	}
	if more.ServiceAccountName != "" {
		w.Line(0, "Service Account:\t%s\n", more.ServiceAccountName)
	}
	if p.Spec.NodeName == "" {
		w.Line(0, "Node:\t<none>\n")
	} else {
		w.Line(0, "Node:\t%s\n", p.Spec.NodeName+"/"+p.Status.HostIP)
	}
	if p.Status.StartTime != nil {
		w.Line(0, "Start Time:\t%s\n", when(*p.Status.StartTime))
	}
	labelsBlock(w, "Labels", p.Labels)
	annotationsBlock(w, "Annotations", p.Annotations)
	if p.DeletionTimestamp != nil && p.Status.Phase != api.PodFailed && p.Status.Phase != api.PodSucceeded {
		w.Line(0, "Status:\tTerminating (lasts %s)\n", AgeOf(w.Now, *p.DeletionTimestamp))
		grace := int64(30)
		if p.Spec.TerminationGracePeriodSeconds != nil {
			grace = *p.Spec.TerminationGracePeriodSeconds
		}
		if p.DeletionGracePeriodSeconds != nil {
			grace = *p.DeletionGracePeriodSeconds // what the delete gave it
		}
		w.Line(0, "Termination Grace Period:\t%ds\n", grace)
	} else {
		w.Line(0, "Status:\t%s\n", p.Status.Phase)
	}
	if p.Status.Reason != "" {
		w.Line(0, "Reason:\t%s\n", p.Status.Reason)
	}
	if p.Status.Message != "" {
		w.Line(0, "Message:\t%s\n", p.Status.Message)
	}
	w.Line(0, "IP:\t%s\n", p.Status.PodIP)
	if p.Status.PodIP == "" {
		w.Line(0, "IPs:\t<none>\n")
	} else {
		w.Line(0, "IPs:\n")
		w.Line(1, "IP:\t%s\n", p.Status.PodIP)
	}
	if ref := p.ControllerOf(); ref != nil {
		w.Line(0, "Controlled By:\t%s/%s\n", ref.Kind, ref.Name)
	}
	statuses := map[string]*api.ContainerStatus{}
	for i := range p.Status.ContainerStatuses {
		statuses[p.Status.ContainerStatuses[i].Name] = &p.Status.ContainerStatuses[i]
	}
	describeInitContainers(w, p)
	describeContainers(w, "", p.Spec.Containers, statuses)
	if len(p.Status.Conditions) > 0 {
		w.Line(0, "Conditions:\n  Type\tStatus\n")
		for _, c := range p.Status.Conditions {
			w.Line(1, "%v \t%v \n", c.Type, c.Status)
		}
	}
	describeVolumes(w, "", p.Spec.More().Volumes)
	w.Line(0, "QoS Class:\t%s\n", qosClass(p))
	labelsBlock(w, "Node-Selectors", p.Spec.NodeSelector)
	tolerationsBlock(w, "Tolerations", p.Spec.Tolerations)
	describeTopologySpread(w, "", p.Spec.More().TopologySpreadConstraints)
}

// qosClass is the pod's QoS class: the one the API server recorded in its
// status when it created it, or (a pod read from a file) the one it would.
func qosClass(p *api.Pod) string {
	if p.Status.QOSClass != "" {
		return p.Status.QOSClass
	}
	return api.PodQOSClass(&p.Spec)
}

// describeInitContainers prints a pod's init containers, as kubectl does
// before its containers (nothing when it has none).
func describeInitContainers(w *Describer, p *api.Pod) {
	if len(p.Spec.More().InitContainers) == 0 {
		return
	}
	statuses := map[string]*api.ContainerStatus{}
	for i := range p.Status.InitContainerStatuses {
		statuses[p.Status.InitContainerStatuses[i].Name] = &p.Status.InitContainerStatuses[i]
	}
	describeContainerList(w, "", "Init Containers", p.Spec.More().InitContainers, statuses)
}
