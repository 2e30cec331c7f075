package controller

import (
	"fmt"

	"reconcile/engine/api"
	"reconcile/engine/informer"
	"reconcile/engine/store"
)

// VolumeLoop is the persistent volume controller, with the cluster's
// default StorageClass's provisioner built in.
//
// Desired: every claim Bound to a volume that satisfies it. Observed: the
// claim and the volumes. Difference: bind a Pending claim to the volume it
// names or to an Available one that fits; when none fits and the claim's
// class is the default one ("standard"), provision a volume for it
// (pvc-<claim uid>) and bind it. A volume whose claim is gone is deleted
// (reclaim policy Delete) or Released (Retain). No bytes are stored: a
// volume is only an object here, and the kubelet mounts nothing.
type VolumeLoop struct{}

// VolumeController is the component's name, as kube-controller-manager
// names it.
const VolumeController = "persistentvolume-controller"

// SimulatedProvisioner names the provisioner of the default StorageClass.
const SimulatedProvisioner = "reconcile.dev/simulated-provisioner"

// NewVolume returns the persistent volume controller.
func NewVolume() *VolumeLoop { return &VolumeLoop{} }

func (v *VolumeLoop) Name() string      { return VolumeController }
func (v *VolumeLoop) Watches() []string { return []string{"PersistentVolumeClaim", "PersistentVolume"} }
func (v *VolumeLoop) Clone() Reconciler { return &VolumeLoop{} }

// Keys maps a claim to itself ("namespace/name") and a volume to its claim,
// or to itself ("pv/name") when it has none, or its claim is gone.
func (v *VolumeLoop) Keys(c *informer.Cache, ev store.WatchEvent) []string {
	switch o := ev.Object.(type) {
	case *api.PersistentVolumeClaim:
		keys := []string{api.RefOf(o).Key()}
		if ev.Type == store.Deleted && o.Spec.VolumeName != "" {
			keys = append(keys, "pv/"+o.Spec.VolumeName)
		}
		return keys
	case *api.PersistentVolume:
		keys := []string{"pv/" + o.Name}
		if ev.Type != store.Deleted && o.Spec.ClaimRef == nil {
			// an Available volume may satisfy a Pending claim
			for _, k := range c.Keys("PersistentVolumeClaim") {
				if cl, ok := c.Get("PersistentVolumeClaim", k).(*api.PersistentVolumeClaim); ok && cl.Status.Phase != api.ClaimBound {
					keys = append(keys, k)
				}
			}
		}
		return keys
	}
	return nil
}

// Object names what a key stands for.
func (v *VolumeLoop) Object(key string) api.Ref {
	if name, ok := cutPrefix(key, "pv/"); ok {
		return api.Ref{Kind: "PersistentVolume", Name: name}
	}
	ns, name, _ := cutKey(key)
	return api.Ref{Kind: "PersistentVolumeClaim", Namespace: ns, Name: name}
}

func cutPrefix(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && s[:len(prefix)] == prefix {
		return s[len(prefix):], true
	}
	return s, false
}

func cutKey(key string) (ns, name string, ok bool) {
	for i := 0; i < len(key); i++ {
		if key[i] == '/' {
			return key[:i], key[i+1:], true
		}
	}
	return "", key, false
}

// Reconcile runs one pass for a claim or a volume.
func (v *VolumeLoop) Reconcile(ctx *Context, req Request) (Result, error) {
	if name, ok := cutPrefix(req.Key, "pv/"); ok {
		return v.reconcileVolume(ctx, name)
	}
	claim, _ := ctx.Cache.Get("PersistentVolumeClaim", req.Key).(*api.PersistentVolumeClaim)
	if claim == nil {
		ctx.Deleted("claim deleted")
		return ctx.NothingToDo(), nil
	}
	class := ""
	if claim.Spec.StorageClassName != nil {
		class = *claim.Spec.StorageClassName
	}
	ctx.Desired = fmt.Sprintf("claim bound to a volume of %s", claim.Spec.Resources.Requests["storage"])
	if claim.Status.Phase == api.ClaimBound {
		ctx.Observed = "Bound to " + claim.Spec.VolumeName
		return ctx.NothingToDo(), nil
	}
	ctx.Observed = "Pending"
	var pv *api.PersistentVolume
	if claim.Spec.VolumeName != "" {
		pv, _ = ctx.Cache.Get("PersistentVolume", claim.Spec.VolumeName).(*api.PersistentVolume)
		if pv == nil {
			ctx.Difference = "the volume it names does not exist"
			ctx.Event(claim, "Warning", "FailedBinding", "volume %q not found", claim.Spec.VolumeName)
			return Result{Outcome: Blocked, Why: "volume " + claim.Spec.VolumeName + " not found"}, nil
		}
	} else {
		pv = findVolume(ctx.Cache, claim, class)
	}
	if pv == nil {
		switch class {
		case "standard":
			ctx.Difference = "no volume fits: provision one"
			created, err := ctx.Create(provisionedVolume(claim), func(o api.Object) Action { return On(Create, "volume", o.Meta().Name, "for claim "+claim.Name) })
			if err != nil {
				if err != ErrCrashed {
					ctx.Event(claim, "Warning", "ProvisioningFailed", "failed to provision volume with StorageClass %q: %v", class, err)
				}
				return Result{}, err
			}
			pv = created.(*api.PersistentVolume)
			ctx.Event(claim, "Normal", "ProvisioningSucceeded", "Successfully provisioned volume %s", pv.Name)
		case "":
			ctx.Difference = "no volume fits, and no class to provision one"
			ctx.Event(claim, "Normal", "FailedBinding", "no persistent volumes available for this claim and no storage class is set")
			return Result{Outcome: Blocked, Why: "no persistent volumes available"}, nil
		default:
			ctx.Difference = "no volume fits, and class " + class + " does not exist"
			ctx.Event(claim, "Warning", "ProvisioningFailed", "storageclass.storage.k8s.io %q not found", class)
			return Result{Outcome: Blocked, Why: "storageclass " + class + " not found"}, nil
		}
	} else {
		ctx.Difference = "bind to " + pv.Name
	}
	return Result{Outcome: Acted}, bind(ctx, claim, pv)
}

// findVolume returns the smallest Available volume of the claim's class
// with its access modes and at least its size, by name among equals.
func findVolume(c *informer.Cache, claim *api.PersistentVolumeClaim, class string) *api.PersistentVolume {
	want := claim.Spec.Resources.Requests["storage"].Value()
	var best *api.PersistentVolume
	var bestSize int64
	for _, o := range c.List("PersistentVolume") {
		pv := o.(*api.PersistentVolume)
		if pv.Spec.ClaimRef != nil || pv.Status.Phase != api.VolumeAvailable || pv.Spec.StorageClassName != class {
			continue
		}
		if !claim.Spec.Selector.Empty() && !claim.Spec.Selector.Matches(pv.Labels) {
			continue
		}
		size := pv.Spec.Capacity["storage"].Value()
		if size < want || !hasModes(pv.Spec.AccessModes, claim.Spec.AccessModes) {
			continue
		}
		if best == nil || size < bestSize {
			best, bestSize = pv, size
		}
	}
	return best
}

func hasModes(have, want []string) bool {
	for _, w := range want {
		found := false
		for _, h := range have {
			found = found || h == w
		}
		if !found {
			return false
		}
	}
	return true
}

func provisionedVolume(claim *api.PersistentVolumeClaim) *api.PersistentVolume {
	name := "pvc-" + claim.UID
	return &api.PersistentVolume{
		TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "PersistentVolume"},
		ObjectMeta: api.ObjectMeta{Name: name,
			Annotations: map[string]string{"pv.kubernetes.io/provisioned-by": SimulatedProvisioner}},
		Spec: api.PersistentVolumeSpec{
			Capacity:                      map[string]api.Quantity{"storage": claim.Spec.Resources.Requests["storage"]},
			AccessModes:                   append([]string(nil), claim.Spec.AccessModes...),
			ClaimRef:                      &api.ObjectReference{Kind: "PersistentVolumeClaim", APIVersion: "v1", Namespace: claim.Namespace, Name: claim.Name, UID: claim.UID},
			PersistentVolumeReclaimPolicy: "Delete",
			StorageClassName:              *claim.Spec.StorageClassName,
			VolumeMode:                    claim.Spec.VolumeMode,
			HostPath:                      map[string]any{"path": "/var/lib/reconcile/volumes/" + name, "type": ""},
		},
	}
}

// bind ties claim and volume together, as the controller does: the
// volume's claimRef and phase, then the claim's volumeName and phase.
func bind(ctx *Context, claim *api.PersistentVolumeClaim, pv *api.PersistentVolume) error {
	if pv.Spec.ClaimRef == nil || pv.Spec.ClaimRef.UID != claim.UID {
		n := pv.DeepCopy()
		n.Spec.ClaimRef = &api.ObjectReference{Kind: "PersistentVolumeClaim", APIVersion: "v1", Namespace: claim.Namespace, Name: claim.Name, UID: claim.UID}
		if n.Annotations == nil {
			n.Annotations = map[string]string{}
		}
		n.Annotations["pv.kubernetes.io/bound-by-controller"] = "yes"
		out, err := ctx.Update(n, Do(Set, "claimRef of "+pv.Name))
		if err != nil {
			return err
		}
		pv = out.(*api.PersistentVolume)
	}
	if pv.Status.Phase != api.VolumeBound {
		n := pv.DeepCopy()
		n.Status = api.PersistentVolumeStatus{Phase: api.VolumeBound}
		if _, err := ctx.UpdateStatus(n, On(Mark, "volume", pv.Name, "Bound")); err != nil {
			return err
		}
	}
	c := claim.DeepCopy()
	c.Spec.VolumeName = pv.Name
	if c.Annotations == nil {
		c.Annotations = map[string]string{}
	}
	c.Annotations["pv.kubernetes.io/bind-completed"] = "yes"
	c.Annotations["pv.kubernetes.io/bound-by-controller"] = "yes"
	if pv.Annotations["pv.kubernetes.io/provisioned-by"] != "" {
		c.Annotations["volume.beta.kubernetes.io/storage-provisioner"] = SimulatedProvisioner
		c.Annotations["volume.kubernetes.io/storage-provisioner"] = SimulatedProvisioner
	}
	out, err := ctx.Update(c, On(Bind, "claim", claim.Name, "to "+pv.Name))
	if err != nil {
		return err
	}
	c = out.(*api.PersistentVolumeClaim).DeepCopy()
	c.Status = api.PersistentVolumeClaimStatus{Phase: api.ClaimBound, AccessModes: append([]string(nil), pv.Spec.AccessModes...),
		Capacity: map[string]api.Quantity{"storage": pv.Spec.Capacity["storage"]}}
	_, err = ctx.UpdateStatus(c, On(Mark, "claim", claim.Name, "Bound"))
	return err
}

// reconcileVolume releases or deletes a volume whose claim is gone.
func (v *VolumeLoop) reconcileVolume(ctx *Context, name string) (Result, error) {
	pv, _ := ctx.Cache.Get("PersistentVolume", name).(*api.PersistentVolume)
	if pv == nil {
		ctx.Deleted("volume deleted")
		return ctx.NothingToDo(), nil
	}
	ctx.Desired = "volume " + pv.Name + " Bound to its claim, or Available"
	ctx.Observed = pv.Status.Phase
	if pv.Spec.ClaimRef == nil || pv.Status.Phase == api.VolumeReleased {
		return ctx.NothingToDo(), nil
	}
	claim, _ := ctx.Cache.Get("PersistentVolumeClaim", pv.Spec.ClaimRef.Namespace+"/"+pv.Spec.ClaimRef.Name).(*api.PersistentVolumeClaim)
	if claim != nil && claim.UID == pv.Spec.ClaimRef.UID {
		return ctx.NothingToDo(), nil
	}
	if pv.Status.Phase != api.VolumeBound {
		return ctx.NothingToDo(), nil // pre-bound, the claim not seen yet
	}
	if pv.Spec.PersistentVolumeReclaimPolicy == "Delete" {
		ctx.Difference = "its claim is gone: delete it (reclaim policy Delete)"
		return Result{Outcome: Acted}, ctx.Delete("PersistentVolume", "", pv.Name, false, On(Delete, "volume", pv.Name, ""))
	}
	ctx.Difference = "its claim is gone: Released (reclaim policy " + pv.Spec.PersistentVolumeReclaimPolicy + ")"
	n := pv.DeepCopy()
	n.Status = api.PersistentVolumeStatus{Phase: api.VolumeReleased}
	_, err := ctx.UpdateStatus(n, On(Mark, "volume", pv.Name, "Released"))
	return Result{Outcome: Acted}, err
}

// unboundClaims is why the scheduler cannot place a pod yet because of its
// claims (its VolumeBinding plugin's words), or "": a claim it mounts that
// does not exist, or is not bound to a volume.
func unboundClaims(c *informer.Cache, p *api.Pod) string {
	for _, v := range p.Spec.More().Volumes {
		if v.PersistentVolumeClaim == nil {
			continue
		}
		claim, _ := c.Get("PersistentVolumeClaim", p.Namespace+"/"+v.PersistentVolumeClaim.ClaimName).(*api.PersistentVolumeClaim)
		if claim == nil {
			return fmt.Sprintf("persistentvolumeclaim %q not found", v.PersistentVolumeClaim.ClaimName)
		}
		if claim.Status.Phase != api.ClaimBound {
			return "pod has unbound immediate PersistentVolumeClaims"
		}
	}
	return ""
}
