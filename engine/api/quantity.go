package api

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Quantity is a resource amount written the Kubernetes way: "500m" or "2" for
// CPU, "256Mi" or "1G" for memory.
type Quantity string

var binarySuffixes = []struct {
	suffix string
	mult   float64
}{{"Ki", 1 << 10}, {"Mi", 1 << 20}, {"Gi", 1 << 30}, {"Ti", 1 << 40}, {"Pi", 1 << 50}, {"Ei", 1 << 60}}

var decimalSuffixes = []struct {
	suffix string
	mult   float64
}{{"n", 1e-9}, {"u", 1e-6}, {"m", 1e-3}, {"k", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}, {"P", 1e15}, {"E", 1e18}}

// Parse returns the value of q as a float in base units (cores, bytes).
func (q Quantity) Parse() (float64, error) {
	s := strings.TrimSpace(string(q))
	if s == "" {
		return 0, fmt.Errorf("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")
	}
	mult := 1.0
	// The suffix, read from the last byte: Ki…Ei end in i, the decimal
	// ones are one letter.
	switch last := s[len(s)-1]; {
	case last == 'i' && len(s) >= 2:
		for _, b := range binarySuffixes {
			if b.suffix[0] == s[len(s)-2] {
				s, mult = s[:len(s)-2], b.mult
				break
			}
		}
	case last > '9':
		for _, d := range decimalSuffixes {
			if d.suffix[0] == last {
				s, mult = s[:len(s)-1], d.mult
				break
			}
		}
	}
	if n, ok := wholeNumber(s); ok {
		// Most quantities are whole numbers ("100m", "128Mi", "2"): the
		// same value ParseFloat gives, without its cost on every pod the
		// scheduler and the kubelets admit.
		return float64(n) * mult, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) || v < 0 {
		return 0, fmt.Errorf("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")
	}
	return v * mult, nil
}

// wholeNumber reads s when it is only decimal digits, at most 15 of them
// (below 2^53: the float64 holds it exactly, as ParseFloat would).
func wholeNumber(s string) (int64, bool) {
	if s == "" || len(s) > 15 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// Milli returns q in thousandths of the base unit (millicores), rounded up.
// Invalid quantities count as zero; validation reports them.
func (q Quantity) Milli() int64 {
	v, err := q.Parse()
	if err != nil {
		return 0
	}
	return int64(math.Ceil(v*1000 - 1e-9))
}

// Value returns q in base units (bytes), rounded up.
func (q Quantity) Value() int64 {
	v, err := q.Parse()
	if err != nil {
		return 0
	}
	return int64(math.Ceil(v - 1e-9))
}

// FormatMilliCPU renders millicores as kubectl does: "500m", "2".
func FormatMilliCPU(m int64) string {
	if m%1000 == 0 {
		return strconv.FormatInt(m/1000, 10)
	}
	return strconv.FormatInt(m, 10) + "m"
}

// FormatBytes renders bytes with the largest exact binary suffix: "256Mi".
func FormatBytes(b int64) string {
	for i := len(binarySuffixes) - 1; i >= 0; i-- {
		m := int64(binarySuffixes[i].mult)
		if b != 0 && b%m == 0 {
			return strconv.FormatInt(b/m, 10) + binarySuffixes[i].suffix
		}
	}
	return strconv.FormatInt(b, 10)
}

// siExponents are the decimal SI suffixes by power of ten, as the API
// server writes them.
var siExponents = [...]struct {
	exp    int
	suffix string
}{{-9, "n"}, {-6, "u"}, {-3, "m"}, {0, ""}, {3, "k"}, {6, "M"}, {9, "G"}, {12, "T"}, {15, "P"}, {18, "E"}}

// Canonical returns q as the API server stores and prints it
// (apimachinery's ParseQuantity then String): "0.5" is "500m", "1000M" is
// "1G", "2048Mi" is "2Gi", "1.5Gi" is "1536Mi". As apimachinery does, a
// string already in a form it keeps is kept as written ("1Gi", "100m",
// "1E3", "1.001"); a binary amount under 1024 or not a whole number is
// written in decimal SI; a value finer than 1n is rounded up to it. A
// quantity that does not parse, is negative, or is too large to hold
// exactly is returned as it is (validation reports the first two).
func (q Quantity) Canonical() Quantity {
	s := string(q)
	if s == "" || s[0] == '-' {
		return q
	}
	i := 0
	if s[0] == '+' {
		i++
	}
	for i < len(s) && s[i] == '0' { // leading zeros
		i++
	}
	numStart := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	num, denom := s[numStart:i], ""
	if i < len(s) && s[i] == '.' {
		i++
		d := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		denom = s[d:i]
	}
	if i == 0 || (num == "" && denom == "" && !strings.ContainsRune(s[:i], '0')) {
		return q
	}
	if num == "" {
		num = "0"
	}
	suf, binary, exp := s[i:], 0, 0
	switch {
	case suf == "":
	case len(suf) == 2 && suf[1] == 'i':
		for n, b := range binarySuffixes {
			if b.suffix == suf {
				binary = n + 1
			}
		}
		if binary == 0 {
			return q
		}
	case len(suf) > 1 && (suf[0] == 'e' || suf[0] == 'E'):
		e, err := strconv.Atoi(suf[1:])
		if err != nil || e > 100 || e < -100 || suf[1:] == "" || suf[1] == '+' && len(suf) == 2 {
			return q
		}
		exp = e
	default:
		found := false
		for _, d := range siExponents {
			if d.suffix == suf && suf != "" {
				exp, found = d.exp, true
			}
		}
		if !found {
			return q
		}
	}
	shifted := num + denom
	if len(shifted) > 18 {
		return q
	}
	digits, err := strconv.ParseInt(shifted, 10, 64)
	if err != nil {
		return q
	}
	// a form apimachinery keeps as it was written
	if binary > 0 {
		if denom == "" && 15-len(num)-binary*3-1 >= 0 && digits&7 != 0 {
			return q
		}
	} else if scale := exp - len(denom); 18-len(shifted) >= 0 && scale >= -9 &&
		scale%3 == 0 && !strings.HasSuffix(shifted, "000") && shifted[0] != '0' {
		return q
	}
	if digits == 0 {
		return "0"
	}
	scale := exp - len(denom)
	for ; binary > 0; binary-- { // a binary suffix multiplies by 1024 per step
		if digits > math.MaxInt64/1024 {
			return q
		}
		digits *= 1024
	}
	for digits%10 == 0 {
		digits, scale = digits/10, scale+1
	}
	if scale < -9 { // finer than a nano: rounded up
		for ; scale < -9; scale++ {
			digits = (digits + 9) / 10
		}
		for digits%10 == 0 {
			digits, scale = digits/10, scale+1
		}
	}
	if strings.HasSuffix(s, "i") {
		// binary stays binary when whole and at least 1024
		if whole, ok := scaled(digits, scale); ok && whole >= 1024 {
			n := 0
			for whole%1024 == 0 && n < len(binarySuffixes) {
				whole, n = whole/1024, n+1
			}
			suffix := ""
			if n > 0 {
				suffix = binarySuffixes[n-1].suffix
			}
			return Quantity(strconv.FormatInt(whole, 10) + suffix)
		}
	}
	// decimal: the exponent a multiple of three, the mantissa whole
	for scale%3 != 0 {
		if digits > math.MaxInt64/10 {
			return q
		}
		digits, scale = digits*10, scale-1
	}
	if len(suf) > 1 && (suf[0] == 'e' || suf[0] == 'E') {
		if scale == 0 {
			return Quantity(strconv.FormatInt(digits, 10))
		}
		return Quantity(strconv.FormatInt(digits, 10) + "e" + strconv.Itoa(scale))
	}
	for _, d := range siExponents {
		if d.exp == scale {
			return Quantity(strconv.FormatInt(digits, 10) + d.suffix)
		}
	}
	return q
}

// scaled is digits × 10^scale as a whole number, when it is one and fits.
func scaled(digits int64, scale int) (int64, bool) {
	for ; scale > 0; scale-- {
		if digits > math.MaxInt64/10 {
			return 0, false
		}
		digits *= 10
	}
	return digits, scale == 0
}

// CanonicalList returns m with every quantity Canonical: m itself when
// each already is, else a new map (a stored object's map is never written).
func CanonicalList(m map[string]Quantity) map[string]Quantity {
	var out map[string]Quantity
	// order does not matter: any change makes a copy
	for _, v := range m {
		if v.Canonical() != v {
			out = make(map[string]Quantity, len(m))
			break
		}
	}
	if out == nil {
		return m
	}
	// order does not matter: each key is copied
	for k, v := range m {
		out[k] = v.Canonical()
	}
	return out
}
