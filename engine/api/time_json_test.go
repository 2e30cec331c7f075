package api

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// Time.MarshalJSON quotes the timestamp by hand: the bytes must be those
// json.Marshal writes for the same text.
func TestTimeMarshalJSONIsTheQuotedTimestamp(t *testing.T) {
	for _, at := range []Time{0, 1, 999, Second, 90 * Second, 25 * Hour, 400 * 24 * Hour, -Second, -40 * Hour} {
		got, err := at.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(at.Wall().Format(time.RFC3339))
		if !bytes.Equal(got, want) {
			t.Errorf("Time(%d).MarshalJSON() = %s, want %s", at, got, want)
		}
		var back Time
		if err := json.Unmarshal(got, &back); err != nil || back != at/Second*Second {
			t.Errorf("Time(%d) round trip: %d, %v", at, back, err)
		}
	}
}
