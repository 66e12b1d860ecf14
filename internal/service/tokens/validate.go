package tokens

import (
	"slices"
	"strings"
	"time"

	"anvil/internal/apperr"
)

// fieldErrors are model validation failures in the order GitLab reports them.
type fieldErrors struct {
	keys []string
	msgs map[string][]string
}

func (f *fieldErrors) add(field, msg string) {
	if f.msgs == nil {
		f.msgs = map[string][]string{}
	}
	if _, ok := f.msgs[field]; !ok {
		f.keys = append(f.keys, field)
	}
	f.msgs[field] = append(f.msgs[field], msg)
}

func (f *fieldErrors) empty() bool { return len(f.keys) == 0 }

// sentence renders the errors as Rails' full_messages.to_sentence: "Name can't be blank and
// Expires at must be before 2026-01-01".
func (f *fieldErrors) sentence() string {
	var parts []string
	for _, k := range f.keys {
		label := strings.ReplaceAll(k, "_", " ")
		label = strings.ToUpper(label[:1]) + label[1:]
		for _, m := range f.msgs[k] {
			parts = append(parts, label+" "+m)
		}
	}
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// validation is the errors as a 400 {"message":{"field":["..."]}} body.
func (f *fieldErrors) validation() error { return apperr.Validation(f.msgs) }

// tokenAttrs are the attributes every new token is validated on.
type tokenAttrs struct {
	Name          string
	Description   string
	Scopes        []string
	ExpiresAt     *time.Time
	RequireExpiry bool
}

// validate applies GitLab's token model rules: a name, a description of at most 255
// characters, at least one known scope, an expiry (when required) no further than
// MaxLifetimeDays ahead.
func (a *tokenAttrs) validate() *fieldErrors {
	f := &fieldErrors{}
	a.Name = strings.TrimSpace(a.Name)
	if a.Name == "" {
		f.add("name", "can't be blank")
	} else if len(a.Name) > 255 { // bytes, as ent's MaxLen counts: never a 500 on long UTF-8
		f.add("name", "is too long (maximum is 255 characters)")
	}
	if len(a.Description) > 255 {
		f.add("description", "is too long (maximum is 255 characters)")
	}
	if len(a.Scopes) == 0 {
		f.add("scopes", "can't be blank")
	}
	for _, sc := range a.Scopes {
		if !slices.Contains(Scopes, sc) {
			f.add("scopes", "can only contain available scopes")
			break
		}
	}
	if a.ExpiresAt == nil {
		if a.RequireExpiry {
			f.add("expires_at", "can't be blank")
		}
	} else {
		d := a.ExpiresAt.UTC().Truncate(24 * time.Hour)
		a.ExpiresAt = &d
		if limit := today().AddDate(0, 0, MaxLifetimeDays); d.After(limit) {
			f.add("expires_at", "must be before "+limit.Format("2006-01-02"))
		}
	}
	return f
}
