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
	for _, b := range binarySuffixes {
		if strings.HasSuffix(s, b.suffix) {
			s, mult = strings.TrimSuffix(s, b.suffix), b.mult
			goto parse
		}
	}
	for _, d := range decimalSuffixes {
		if strings.HasSuffix(s, d.suffix) {
			s, mult = strings.TrimSuffix(s, d.suffix), d.mult
			break
		}
	}
parse:
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) || v < 0 {
		return 0, fmt.Errorf("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")
	}
	return v * mult, nil
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
