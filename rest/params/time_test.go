package params

import (
	"testing"
	"time"
)

func TestParseTime(t *testing.T) {
	at := time.Date(2017, 10, 17, 23, 11, 13, 0, time.UTC)
	for _, tc := range []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"2017-10-17T23:11:13Z", at, true},
		{"2017-10-17T23:11:13.000+05:30", at.Add(-5*time.Hour - 30*time.Minute), true},
		{"2017-10-17T23:11:13", at, true},
		{"2017-10-17 23:11:13", at, true},                                    // Python's str(datetime)
		{"2017-10-17 23:11:13.250000", at.Add(250 * time.Millisecond), true}, // with microseconds
		{"2017-10-17 23:11:13+00:00", at, true},                              // and with its zone
		{"2017-10-17", time.Date(2017, 10, 17, 0, 0, 0, 0, time.UTC), true},
		{"yesterday", time.Time{}, false},
		{"2017-10-17 25:00:00", time.Time{}, false},
	} {
		got, ok := ParseTime(tc.in)
		if ok != tc.ok || !got.Equal(tc.want) {
			t.Errorf("ParseTime(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
