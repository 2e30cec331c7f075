package scenario

// LoadTrusted loads a scenario file that Load is known to accept, such as
// a bundled lesson (the tests load each with Load), without the checks
// whose only outcome is an error: the API server's validation of each
// manifest created at the start (on a defaulted copy), the manifests
// declared twice, and the dry run of each kubectl step. For such a file
// it returns what Load returns (the scenarios package's tests compare the
// two on every bundled lesson), at a part of the cost: the player opens
// a lesson with it before its first render. For anything a person wrote
// or edited, use Load.
func LoadTrusted(file string, data []byte) (*Scenario, error) {
	return load(file, data, true)
}
