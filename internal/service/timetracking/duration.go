package timetracking

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

// GitLab's time tracking units (Gitlab::TimeTrackingFormatter over ChronicDuration): a day is
// 8 hours, a month 20 days, a week a quarter of a month (5 days); a year stays the calendar's
// 365.25 days of 24 hours.
const (
	Minute = 60
	Hour   = 60 * Minute
	Day    = 8 * Hour
	Week   = 5 * Day
	Month  = 20 * Day
	Year   = 31557600
)

// weeksPerMonth is how many weeks the formatter folds into a month.
const weeksPerMonth = Month / Week

// unitWords maps every spelling ChronicDuration accepts to its unit's seconds.
var unitWords = map[string]int{
	"seconds": 1, "second": 1, "secs": 1, "sec": 1, "s": 1,
	"minutes": Minute, "minute": Minute, "mins": Minute, "min": Minute, "m": Minute,
	"hours": Hour, "hour": Hour, "hrs": Hour, "hr": Hour, "h": Hour,
	"days": Day, "day": Day, "dy": Day, "d": Day,
	"weeks": Week, "week": Week, "wks": Week, "wk": Week, "w": Week,
	"months": Month, "month": Month, "mos": Month, "mo": Month,
	"years": Year, "year": Year, "yrs": Year, "yr": Year, "y": Year,
}

var (
	number = regexp.MustCompile(`[0-9]*\.?[0-9]+`)
	// chrono is the clock form "1:30" or "2:15:00" (spaces ignored).
	chrono = regexp.MustCompile(`^[0-9]*\.?[0-9]+(:[0-9]*\.?[0-9]+)+$`)
)

// chronoUnits are the units of a clock form's fields, from the right (weeks are skipped, as
// ChronicDuration does): "1:30" is one minute thirty seconds, "2:15:00" two hours fifteen.
var chronoUnits = []string{"seconds", "minutes", "hours", "days", "months", "years"}

// Parse reads a human duration as GitLab's time tracking does ("3h30m", "1w 2d", "1mo",
// "-1h", "1.5h", "90m", "2:30:00"): numbers followed by a unit word, a number without one in
// hours, unknown words ignored, a leading "-" negating the whole. It returns the seconds
// (fractions dropped) and whether the text held a duration: no number at all is invalid, and
// so is a zero unless keepZero (a time estimate may be 0, spent time may not).
//
// This is a hand-written reading of ChronicDuration's rules (no maintained Go library offers
// them); numbers spelled as words ("one hour") are not read.
func Parse(text string, keepZero bool) (int, bool) {
	negative := strings.HasPrefix(text, "-")
	s := strings.ToLower(strings.TrimPrefix(text, "-"))
	if compact := strings.ReplaceAll(s, " ", ""); chrono.MatchString(compact) {
		fields := strings.Split(compact, ":")
		words := make([]string, 0, 2*len(fields))
		for i, f := range fields {
			pos := len(fields) - 1 - i
			if pos >= len(chronoUnits) {
				continue
			}
			words = append(words, f, chronoUnits[pos])
		}
		s = strings.Join(words, " ")
	}
	s = number.ReplaceAllString(s, " $0 ")
	var tokens []string
	for _, w := range strings.Fields(s) {
		if number.MatchString(w) {
			tokens = append(tokens, w)
			continue
		}
		if _, ok := unitWords[strings.Trim(w, ",")]; ok {
			tokens = append(tokens, strings.Trim(w, ","))
		}
	}
	if len(tokens) > 0 && !number.MatchString(tokens[0]) {
		tokens = append([]string{"1"}, tokens...) // "hour" is one hour
	}
	seen := false
	total := 0.0
	for i, t := range tokens {
		if !number.MatchString(t) {
			continue
		}
		n, err := strconv.ParseFloat(t, 64)
		if err != nil {
			continue
		}
		seen = true
		unit := Hour
		if i+1 < len(tokens) {
			unit = unitWords[tokens[i+1]] // a number followed by a number counts for nothing
		}
		total += n * float64(unit)
	}
	if !seen || total > math.MaxInt32*float64(Year) {
		return 0, false
	}
	secs := int(total)
	if secs == 0 && !keepZero {
		return 0, false
	}
	if negative {
		secs = -secs
	}
	return secs, true
}

// Human formats seconds as GitLab's human_time_estimate and human_total_time_spent
// (ChronicDuration's short format with weeks): "3h 30m", "1w 2d", "1mo 1w", "1y"; negative
// durations get a leading "-". hoursOnly is the time_tracking_limit_to_hours setting: no
// unit above hours ("26h"). Zero is "" (the API's null).
func Human(seconds int, hoursOnly bool) string {
	if seconds < 0 {
		if h := Human(-seconds, hoursOnly); h != "" {
			return "-" + h
		}
		return ""
	}
	var years, months, weeks, days, hours, minutes int
	secs := seconds
	switch {
	case secs >= Year && secs%Year < secs%Month:
		// A whole number of years reads better in years than in months.
		years, secs = secs/Year, secs%Year
		months, secs = secs/Month, secs%Month
		days, secs = secs/Day, secs%Day
		hours, secs = secs/Hour, secs%Hour
		minutes, secs = secs/Minute, secs%Minute
	case secs >= Minute:
		minutes, secs = secs/Minute, secs%Minute
		hours, minutes = minutes/60, minutes%60
		if !hoursOnly && hours >= Day/Hour {
			days, hours = hours/(Day/Hour), hours%(Day/Hour)
			if days >= Week/Day {
				weeks, days = days/(Week/Day), days%(Week/Day)
				if weeks >= weeksPerMonth {
					months, weeks = weeks/weeksPerMonth, weeks%weeksPerMonth
				}
			}
		}
	}
	var parts []string
	for _, u := range []struct {
		n    int
		unit string
	}{{years, "y"}, {months, "mo"}, {weeks, "w"}, {days, "d"}, {hours, "h"}, {minutes, "m"}, {secs, "s"}} {
		if u.n != 0 {
			parts = append(parts, strconv.Itoa(u.n)+u.unit)
		}
	}
	return strings.Join(parts, " ")
}
