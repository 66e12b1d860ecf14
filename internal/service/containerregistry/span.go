package containerregistry

import (
	"errors"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// spanUnits are the units of a human-readable span and their length in seconds, as GitLab's
// ChronicDuration reads them (a month is 30 days, a year 365.25 days; a bare "m" is minutes).
var spanUnits = map[string]float64{
	"s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1,
	"m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60,
	"h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600,
	"d": 86400, "day": 86400, "days": 86400,
	"w": 604800, "wk": 604800, "wks": 604800, "week": 604800, "weeks": 604800,
	"mo": 2592000, "mos": 2592000, "month": 2592000, "months": 2592000,
	"y": 31557600, "yr": 31557600, "yrs": 31557600, "year": 31557600, "years": 31557600,
}

// ParseSpan reads a span such as "1h", "7d", "1month", "2 weeks" or "1d 12h" (numbers with
// units, summed; a bare number is seconds).
func ParseSpan(s string) (time.Duration, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return 0, errors.New("empty span")
	}
	var total float64
	for s != "" {
		s = strings.TrimLeftFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == ',' })
		if strings.HasPrefix(s, "and ") {
			s = s[4:]
			continue
		}
		i := strings.IndexFunc(s, func(r rune) bool { return !(unicode.IsDigit(r) || r == '.') })
		if i == 0 {
			return 0, errors.New("span: number expected")
		}
		if i < 0 {
			i = len(s)
		}
		n, err := strconv.ParseFloat(s[:i], 64)
		if err != nil {
			return 0, err
		}
		s = strings.TrimLeft(s[i:], " ")
		j := strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
		if j < 0 {
			j = len(s)
		}
		unit := s[:j]
		s = s[j:]
		if unit == "" {
			total += n
			continue
		}
		secs, ok := spanUnits[unit]
		if !ok {
			return 0, errors.New("span: unknown unit " + strconv.Quote(unit))
		}
		total += n * secs
	}
	return time.Duration(total * float64(time.Second)), nil
}
