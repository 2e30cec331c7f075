package api

// ClaimQuotaUsage is what a PersistentVolumeClaim counts against a
// ResourceQuota, as the quota evaluator of persistentvolumeclaims counts
// it: the claim itself (persistentvolumeclaims, count/persistentvolumeclaims)
// and the storage it requests (requests.storage, in bytes), each also by
// its storage class (CLASS.storageclass.storage.k8s.io/persistentvolumeclaims
// and .../requests.storage).
func ClaimQuotaUsage(c *PersistentVolumeClaim) map[string]int64 {
	const byClass = ".storageclass.storage.k8s.io/"
	class := ""
	if c.Spec.StorageClassName != nil {
		class = *c.Spec.StorageClassName
	}
	out := map[string]int64{"persistentvolumeclaims": 1, "count/persistentvolumeclaims": 1}
	if class != "" {
		out[class+byClass+"persistentvolumeclaims"] = 1
	}
	if q, ok := c.Spec.Resources.Requests["storage"]; ok {
		out["requests.storage"] = q.Value()
		if class != "" {
			out[class+byClass+"requests.storage"] = q.Value()
		}
	}
	return out
}
