package controller

import (
	"fmt"

	"reconcile/engine/api"
)

// invalidImageMessage is the kubelet's InvalidImageName message: it cannot
// add the default tag to a reference it cannot parse.
func invalidImageMessage(image string) string {
	return fmt.Sprintf("Failed to apply default image tag %q: %s", image, api.ImageRefError(image))
}

// invalidImage records a container whose image reference does not parse:
// the kubelet reports InspectFailed and the container waits with reason
// InvalidImageName. Nothing is pulled; only a new image (a new pod) helps.
func (k *KubeletLoop) invalidImage(ctx *Context, p *api.Pod, c api.Container, rt *Runtime, ck string) {
	k.containerEvent(ctx, p, c.Name, "Warning", "InspectFailed", invalidImageMessage(c.Image))
	k.containerEvent(ctx, p, c.Name, "Warning", "Failed", "Error: InvalidImageName")
	rt.Add(ck, &Container{PodUID: p.UID, Image: c.Image, State: "invalidname", Since: ctx.Now})
	ctx.Note(Action{Verb: Cannot, Image: c.Image, Rest: fmt.Sprintf("use image %q: InvalidImageName", c.Image)})
}
