// Package scenarios holds the bundled lessons as data: one YAML file per
// scenario, in the format the engine's scenario loader reads (docs/scenarios.md).
// The file name without ".yaml" is the scenario's id and its URL slug
// (/s/{id}). Default is the lesson a newcomer starts with.
package scenarios
