package session

import (
	"reconcile/engine/manifest"
	"reconcile/engine/sim"
	"reconcile/engine/yamlpos"
)

// Refusals places the API server's Invalid refusals of an apply of text
// (out, what the apply printed) at the fields they name, at the line and
// column the scenario loader gives the same object in a file: both place
// them with manifest.Decoded.Invalid. file names the text in positions.
func Refusals(file, text string, out sim.Output) yamlpos.ErrorList {
	if len(out.Invalid) == 0 {
		return nil
	}
	ds, err := manifest.DecodeTextAs(text, yamlpos.Source{File: file, Line: 1, Col: 1}, yamlpos.NewBudget(), manifest.Warn)
	if err != nil {
		return nil
	}
	var list yamlpos.ErrorList
	for _, r := range out.Invalid {
		if r.Object < len(ds) {
			list = append(list, ds[r.Object].Invalid(r.Err)...)
		}
	}
	return list
}
