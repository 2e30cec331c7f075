package scale

import (
	_ "embed"
	"fmt"
	"time"

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
	t0 := time.Now()
	sc, err := LoadService()
	if err != nil {
		return Converged{}, nil, err
	}
	cfg := sc.Config()
	cfg.Until = Until
	s, err := sim.New(cfg)
	if err != nil {
		return Converged{}, nil, err
	}
	start := time.Since(t0)
	t1 := time.Now()
	for {
		if _, ok := s.Next(); !ok {
			return Converged{}, nil, fmt.Errorf("the run ended after %d passes at %s without converging", s.PassCount(), s.Now())
		}
		if d, ok := s.Store().Get("Deployment", "default", "web").(*api.Deployment); ok && d.Status.AvailableReplicas == Pods &&
			ReadyEndpoints(s, "default", "web") == Pods {
			break
		}
	}
	el := time.Since(t1)
	c := Converged{Passes: s.PassCount(), Millis: ms(el), StartMillis: ms(start), SimTime: s.Now().String()}
	c.PassesPerSecond = float64(c.Passes) / el.Seconds()
	return c, s, nil
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
