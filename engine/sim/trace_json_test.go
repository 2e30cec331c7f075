package sim

import (
	"bytes"
	"encoding/json"
	"testing"
)

// The chain hashes appendPassRecord's bytes where it hashed json.Marshal's:
// they must be the same bytes, or every digest changes.
func TestAppendPassRecordIsJSON(t *testing.T) {
	odd := []string{"", "plain", `quote " and \ backslash`, "<b>&amp;</b>", "tab\tnew\nline\rret\bbs\fff",
		"\x00\x01\x1f\x7f", "é ü 日本 🙂", "\u2028\u2029", "bad \xff\xfe utf8 \xe6\x97", "\xed\xa0\x80 surrogate"}
	recs := []passRecord{
		{},
		{N: 1, AtText: "0s", Controller: "kubelet", Host: "node-1", Key: "default/web-1", Trigger: "initial list",
			Desired: "3 replicas", Observed: "2", Difference: "1 missing", Actions: []string{"create pod web-x"},
			Outcome: "acted", Lines: []int{1, 2, 10}, Variant: "level"},
		{N: -7, Actions: []string{}, Lines: []int{}},
	}
	for i, s := range odd {
		recs = append(recs, passRecord{N: i, AtText: s, Controller: s, Host: s, Key: s, Trigger: s, Desired: s,
			Observed: s, Difference: s, Actions: []string{s, s}, Outcome: s, Lines: []int{i}, Variant: s})
	}
	for _, r := range recs {
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendPassRecord(nil, &r); !bytes.Equal(got, want) {
			t.Errorf("appendPassRecord(%+v)\n got %s\nwant %s", r, got, want)
		}
	}
}

func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "a<b>&c", "\u2028", "\xff", "\"\\\n\t\x00", "日本"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := appendJSONString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("appendJSONString(%q) = %s, want %s", s, got, want)
		}
	})
}
