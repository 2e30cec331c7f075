package api

import (
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
)

// TestCanonicalAgreesWithApimachinery holds Quantity.Canonical to
// apimachinery's resource.Quantity.String, the form the API server stores
// and prints, over inputs in every format.
func TestCanonicalAgreesWithApimachinery(t *testing.T) {
	inputs := []string{
		"0", "0.0", "0m", "0Mi", "1", "2", "10", "100", "1000", "1500", "999", "1024", "2048", "1000000",
		"0.5", "0.25", "0.1", "0.001", "0.0001", "0.0000000001", "1.5", "1.25", ".5", "5.", "+1", "+0.5",
		"1m", "100m", "500m", "1000m", "1500m", "2000m", "250m", "10000m", "0.5m", "0.1m", "1u", "1000u", "1n", "1000n", "1500n",
		"1k", "1000k", "1.5k", "1M", "1000M", "1500M", "128M", "1G", "1000G", "0.5G", "1.5G", "1T", "1P", "1E", "2E",
		"1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei", "1024Ki", "1024Mi", "2048Mi", "1536Mi", "1.5Gi", "0.5Gi", "0.5Ki",
		"1.5Ki", "0.25Mi", "1.1Gi", "64Mi", "128Mi", "256Mi", "512Mi", "100Mi", "3Gi", "4096Ki", "1000Ki", "0.001Ki",
		"1e3", "1E3", "1e0", "1e-3", "1.5e3", "1e6", "15e2", "1e9", "2e-9", "1e-10", "12e1", "100e-2",
		"05", "+1Gi", "01Gi", "0.5e3", "1e-9", "1.0", "1.50", "100000m", "1000Mi", "1025Ki", "7Ki", "8Ki", "3.5",
		"2.5Gi", "0.000001", "12345678901234567", "1.5E", "1e18", "1e20", "0.1n",
		"123456789", "123456789m", "1.23456789", "9223372036854775807", "10Gi", "16Gi", "7.5Gi", "0.75", "1.001",
	}
	for _, in := range inputs {
		q := resource.MustParse(in)
		want := q.String()
		if got := string(Quantity(in).Canonical()); got != want {
			t.Errorf("Quantity(%q).Canonical() = %q, apimachinery says %q", in, got, want)
		}
	}
	// and a sweep: every short number in every suffix
	for _, num := range []string{"0", "1", "3", "8", "10", "12", "64", "100", "125", "1000", "1024", "1536", "4000", "0.5", "0.125", "1.5", "2.25", "10.0", "0.001", "999.999"} {
		for _, suf := range []string{"", "n", "u", "m", "k", "M", "G", "T", "Ki", "Mi", "Gi", "Ti", "e3", "e-3", "e1", "E2"} {
			in := num + suf
			want := resource.MustParse(in)
			if got := string(Quantity(in).Canonical()); got != want.String() {
				t.Errorf("Quantity(%q).Canonical() = %q, apimachinery says %q", in, got, want.String())
			}
		}
	}
	// What does not parse, or is negative, is kept for validation to
	// report in the user's words.
	for _, in := range []string{"", "abc", "1x", "-1", "-500m", "1.2.3", "Mi", "1 Gi"} {
		if got := Quantity(in).Canonical(); string(got) != in {
			t.Errorf("Quantity(%q).Canonical() = %q, want it kept", in, got)
		}
	}
}
