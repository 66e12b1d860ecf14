package timetracking

import "testing"

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in       string
		keepZero bool
		want     int
		ok       bool
	}{
		{"3h30m", false, 12600, true},
		{"3h 30m", false, 12600, true},
		{"3H30M", false, 12600, true},
		{"1w2d", false, 201600, true},
		{"1w, 2d", false, 201600, true},
		{"1mo", false, 576000, true},
		{"1 month", false, 576000, true},
		{"1y", false, 31557600, true},
		{"1d", false, 28800, true},
		{"-1h", false, -3600, true},
		{"-3h 20m", false, -12000, true},
		{"1.5h", false, 5400, true},
		{"90m", false, 5400, true},
		{"30s", false, 30, true},
		{"2", false, 7200, true}, // a bare number is hours
		{"0.5", false, 1800, true},
		{"hour", false, 3600, true}, // a unit alone is one of it
		{"3 hours and 20 minutes", false, 12000, true},
		{"1:30", false, 90, true},      // the clock form reads from seconds
		{"2:15:00", false, 8100, true}, // hours:minutes:seconds
		{"5x", false, 18000, true},     // unknown words are ignored: 5 hours
		{"1 2h", false, 7200, true},    // a number followed by a number counts for nothing
		{"0", false, 0, false},
		{"0", true, 0, true},
		{"0h", true, 0, true},
		{"", false, 0, false},
		{"", true, 0, false},
		{"abc", true, 0, false},
		{"h", false, 3600, true},
		{"-", false, 0, false},
		{"  ", false, 0, false},
	} {
		got, ok := Parse(tc.in, tc.keepZero)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Parse(%q, %v) = %d, %v; want %d, %v", tc.in, tc.keepZero, got, ok, tc.want, tc.ok)
		}
	}
}

func TestHuman(t *testing.T) {
	for _, tc := range []struct {
		secs  int
		hours bool
		want  string
	}{
		{0, false, ""},
		{30, false, "30s"},
		{59, false, "59s"},
		{60, false, "1m"},
		{3661, false, "1h 1m 1s"},
		{12600, false, "3h 30m"},
		{28800, false, "1d"},
		{93600, false, "3d 2h"},
		{93600, true, "26h"},
		{201600, false, "1w 2d"},
		{201600, true, "56h"},
		{576000, false, "1mo"},
		{2880000, false, "5mo"},
		{2000000, false, "3mo 1w 4d 3h 33m 20s"},
		{31557600, false, "1y"},
		{31557600, true, "1y"},
		{-3600, false, "-1h"},
		{-93600, true, "-26h"},
	} {
		if got := Human(tc.secs, tc.hours); got != tc.want {
			t.Errorf("Human(%d, %v) = %q; want %q", tc.secs, tc.hours, got, tc.want)
		}
	}
}

// TestRoundTrip: what Human writes, Parse reads back.
func TestRoundTrip(t *testing.T) {
	for _, secs := range []int{60, 3661, 12600, 93600, 201600, 576000, 2000000, 31557600} {
		got, ok := Parse(Human(secs, false), false)
		if !ok || got != secs {
			t.Errorf("Parse(Human(%d)) = %d, %v", secs, got, ok)
		}
	}
}
