package store

import (
	"encoding/binary"
	"strconv"
)

// eventStrings are the strings a new recorded event gets from the store:
// its name (the involved object's name, a dot, its number in hex), its
// UID, its first resourceVersion and its key in Store.events (seqKey).
// They are cut from one string, one object for the collector where there
// were four (and two more made on the way): events are the most numerous
// objects of a large run, and every one is kept.
type eventStrings struct{ name, uid, rv, key string }

// newEventStrings returns the strings of the event about the object named
// name, numbered v (its name's number) and seq (its key), the store's
// uid-th object, at resourceVersion rv.
func newEventStrings(name string, v int64, uid int64, rv int64, seq uint64) eventStrings {
	var buf [128]byte
	b := append(buf[:0], name...)
	b = append(b, '.')
	b = strconv.AppendInt(b, v, 16)
	nameEnd := len(b)
	b = appendUID(b, uid)
	uidEnd := len(b)
	b = strconv.AppendInt(b, rv, 10)
	rvEnd := len(b)
	b = binary.BigEndian.AppendUint64(b, seq)
	all := string(b)
	return eventStrings{name: all[:nameEnd], uid: all[nameEnd:uidEnd], rv: all[uidEnd:rvEnd], key: all[rvEnd:]}
}

// appendUID appends the UID the store gives its n-th object to b (uidOf).
func appendUID(b []byte, n int64) []byte {
	var hb [16]byte
	h := strconv.AppendInt(hb[:0], n, 16)
	for i := len(h); i < 8; i++ {
		b = append(b, '0')
	}
	b = append(b, h...)
	b = append(b, "-0000-4000-8000-"...)
	for i := len(h); i < 12; i++ {
		b = append(b, '0')
	}
	return append(b, h...)
}
