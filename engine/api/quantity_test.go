package api

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// parseFloat is Parse without its whole-number path: what every quantity
// read as before it.
func parseFloat(q Quantity) (float64, error) {
	s, mult := string(q), 1.0
	for _, b := range binarySuffixes {
		if strings.HasSuffix(s, b.suffix) {
			s, mult = s[:len(s)-len(b.suffix)], b.mult
			goto parse
		}
	}
	for _, d := range decimalSuffixes {
		if strings.HasSuffix(s, d.suffix) {
			s, mult = s[:len(s)-len(d.suffix)], d.mult
			break
		}
	}
parse:
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) || v < 0 {
		return 0, strconv.ErrSyntax
	}
	return v * mult, nil
}

// The whole-number path gives what ParseFloat gives, bit for bit, for every
// suffix; what it does not read (fractions, exponents, signs, too many
// digits) goes to ParseFloat as before.
func TestQuantityWholeNumbers(t *testing.T) {
	numbers := []string{"0", "1", "2", "7", "10", "100", "250", "500", "999", "1000", "1024", "4096", "65536",
		"123456789", "999999999999999", "000123", "1000000000000"}
	suffixes := []string{"", "m", "n", "u", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}
	for _, n := range numbers {
		for _, sfx := range suffixes {
			q := Quantity(n + sfx)
			if _, ok := wholeNumber(n); !ok {
				t.Fatalf("wholeNumber(%q) refused", n)
			}
			got, err := q.Parse()
			want, werr := parseFloat(q)
			if err != nil || werr != nil || math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("%q: Parse = %v, %v; ParseFloat gives %v, %v", q, got, err, want, werr)
			}
			if q.Milli() != int64(math.Ceil(want*1000-1e-9)) || q.Value() != int64(math.Ceil(want-1e-9)) {
				t.Errorf("%q: Milli %d, Value %d differ from ParseFloat's", q, q.Milli(), q.Value())
			}
		}
	}
	for _, s := range []string{"", "1.5", "0.5", "1e3", "+1", "-1", "1234567890123456", " 1", "1 ", "0x10", "١"} {
		if _, ok := wholeNumber(s); ok {
			t.Errorf("wholeNumber(%q) read it: ParseFloat must", s)
		}
	}
	// Whatever the string, Parse reads its suffix as the loops over the
	// suffixes did and gives the same value, or refuses it the same.
	heads := []string{"0", "1", "1.5", "0.25", ".5", "5.", "1e3", "1E3", "2.5e-3", "1e", "", "abc", "-1", "+2", "12345678901234567890", " 3"}
	tails := append(suffixes, "i", "ki", "x", "K", "mi", "iM", "E3")
	for _, h := range heads {
		for _, sfx := range tails {
			q := Quantity(h + sfx)
			got, err := q.Parse()
			want, werr := parseFloat(Quantity(strings.TrimSpace(string(q))))
			if (err == nil) != (werr == nil) || err == nil && math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("%q: Parse = %v, %v; the loops over the suffixes give %v, %v", q, got, err, want, werr)
			}
		}
	}
}

func BenchmarkQuantityMilli(b *testing.B) {
	qs := []Quantity{"100m", "250m", "2", "500m"}
	for b.Loop() {
		for _, q := range qs {
			_ = q.Milli()
		}
	}
}
