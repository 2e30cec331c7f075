package scale

import (
	_ "embed"

	"reconcile/engine/api"
	"reconcile/engine/scenario"
	"reconcile/engine/sim"
)

// ServiceFile is scale-10000.yaml's world with one Service in front of its
// 10,000 pods, scale-10000-service.yaml: what the endpoint controllers
// cost at scale.
//
//go:embed scale-10000-service.yaml
var ServiceFile []byte

// The with-Service scenario's id and file name.
const (
	ServiceID       = "scale-10000-service"
	ServiceFileName = ServiceID + ".yaml"
)

// LoadService reads the with-Service scenario.
func LoadService() (*scenario.Scenario, error) {
	return scenario.Load(ServiceFileName, ServiceFile)
}

// ConvergeService runs the with-Service scenario until its Deployment has
// 10,000 available pods and the Service's EndpointSlices list them all,
// ready. It returns the run, converged.
func ConvergeService() (Converged, *sim.Sim, error) {
	return converge(LoadService, func(s *sim.Sim) bool { return ReadyEndpoints(s, "default", "web") == Pods })
}

// ReadyEndpoints counts the endpoints the EndpointSlices of a Service list
// as ready.
func ReadyEndpoints(s *sim.Sim, namespace, service string) int {
	n := 0
	for _, o := range s.Store().List("EndpointSlice") {
		es := o.(*api.EndpointSlice)
		if es.Namespace != namespace || es.Labels["kubernetes.io/service-name"] != service {
			continue
		}
		for _, e := range es.Endpoints {
			if e.Conditions.Ready != nil && *e.Conditions.Ready {
				n++
			}
		}
	}
	return n
}
