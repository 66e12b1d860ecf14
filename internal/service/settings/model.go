package settings

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"anvil/internal/apperr"
)

// tokenPrefixRe is GitLab's personal_access_token_prefix format: Base64 letters and @ : .
var tokenPrefixRe = regexp.MustCompile(`^[a-zA-Z0-9_+=/@:.-]+$`)

// checkModel runs the rules on the settings a change leads to (GitLab's model validations),
// collecting every failure by attribute.
func (s *Service) checkModel(c changes, current View) error {
	errs := map[string][]string{}
	add := func(field, msg string) { errs[field] = append(errs[field], msg) }
	for _, f := range Fields {
		v, ok := c.values[f.Name]
		if !ok || v == nil {
			continue
		}
		switch x := v.(type) {
		case int:
			checkRange(f, float64(x), add)
		case float64:
			checkRange(f, x, add)
		case string:
			checkText(f, x, add)
		case []string:
			checkList(f, x, add)
		case map[string]int:
			s.checkWeights(f.Name, x, add)
		}
	}
	checkRestricted(c, current, add)
	if len(errs) > 0 {
		return apperr.Validation(errs)
	}
	return nil
}

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func checkRange(f Field, v float64, add func(string, string)) {
	switch {
	case f.Min != nil && f.MinExclusive && v <= *f.Min:
		add(f.Name, "must be greater than "+fmtNum(*f.Min))
	case f.Min != nil && !f.MinExclusive && v < *f.Min:
		add(f.Name, "must be greater than or equal to "+fmtNum(*f.Min))
	case f.Max != nil && v > *f.Max:
		add(f.Name, "must be less than or equal to "+fmtNum(*f.Max))
	}
}

func checkText(f Field, v string, add func(string, string)) {
	if f.MaxLen > 0 && utf8.RuneCountInString(v) > f.MaxLen {
		add(f.Name, fmt.Sprintf("is too long (maximum is %d characters)", f.MaxLen))
	}
	if f.URL && v != "" {
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			add(f.Name, "must be a valid URL")
		}
	}
	switch f.Name {
	case "personal_access_token_prefix":
		if v != "" && !tokenPrefixRe.MatchString(v) {
			add(f.Name, "can contain only letters of the Base64 alphabet (RFC4648) with the addition of '@', ':' and '.'")
		}
	case "abuse_notification_email":
		if v != "" && !strings.Contains(strings.TrimPrefix(v, "@"), "@") {
			add(f.Name, "is invalid")
		}
	case "user_default_internal_regex", "email_restrictions":
		if _, err := regexp.Compile(v); err != nil {
			add(f.Name, "not valid RE2 syntax: "+err.Error())
		}
	}
}

func checkList(f Field, v []string, add func(string, string)) {
	switch f.Name {
	case RestrictedVisibilityLevels:
		for _, l := range v {
			if !contains(visibilities, l) {
				add(f.Name, fmt.Sprintf("'%s' is not a valid visibility level", l))
			}
		}
	case "valid_runner_registrars":
		ok := len(v) <= 2 && !(len(v) == 2 && v[0] == v[1])
		for _, r := range v {
			ok = ok && contains(f.Values, r)
		}
		if !ok {
			add(f.Name, rubyArray(v)+" is not included in the list")
		}
	}
}

// checkWeights applies GitLab's repository_storages_weighted rules: configured storages only,
// weights from 0 to 100.
func (s *Service) checkWeights(field string, w map[string]int, add func(string, string)) {
	var unknown []string
	names := make([]string, 0, len(w))
	for name := range w {
		names = append(names, name)
		if len(s.storages) > 0 && !contains(s.storages, name) {
			unknown = append(unknown, name)
		}
	}
	sort.Strings(names)
	sort.Strings(unknown)
	if len(unknown) > 0 {
		add(field, "can't include: "+strings.Join(unknown, ", "))
	}
	for _, name := range names {
		if w[name] < 0 || w[name] > 100 {
			add(field, fmt.Sprintf("value for '%s' must be between 0 and 100", name))
		}
	}
}

// checkRestricted refuses default project and group visibilities among the restricted levels.
func checkRestricted(c changes, current View, add func(string, string)) {
	value := func(name string) any {
		if v, ok := c.values[name]; ok {
			return v
		}
		return current.Values[name]
	}
	_, r := c.values[RestrictedVisibilityLevels]
	_, p := c.values[DefaultProjectVisibility]
	_, g := c.values[DefaultGroupVisibility]
	if !r && !p && !g {
		return
	}
	restricted, _ := value(RestrictedVisibilityLevels).([]string)
	for _, name := range []string{DefaultProjectVisibility, DefaultGroupVisibility} {
		var level string
		switch v := value(name).(type) {
		case string:
			level = v
		case *string:
			if v != nil {
				level = *v
			}
		}
		if slices.Contains(restricted, level) {
			add(name, "cannot be set to a restricted visibility level")
		}
	}
}

func rubyArray(v []string) string {
	q := make([]string, len(v))
	for i, s := range v {
		q[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func contains(list []string, v string) bool { return slices.Contains(list, v) }

func containsInt(list []int, v int) bool { return slices.Contains(list, v) }

func itoa(n int) string { return strconv.Itoa(n) }
