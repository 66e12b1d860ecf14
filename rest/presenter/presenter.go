// Package presenter holds the exact JSON shape of every REST resource, one file per resource.
// Presenters are pure: they read ent values (with the edges a finder loaded) and never query.
package presenter

import (
	"encoding/json"
	"time"
)

// Presenter renders resources for one server; BaseURL prefixes every web_url.
type Presenter struct {
	BaseURL string
	// RegistryHost is the container registry's host and port as image names spell it; empty
	// means the host of BaseURL.
	RegistryHost string
	// HoursOnly reports the time_tracking_limit_to_hours setting when a duration is presented
	// (nil: false); it is read only when time stats are rendered.
	HoursOnly func() bool
}

// New returns a presenter for the external base URL.
func New(baseURL string) *Presenter { return &Presenter{BaseURL: baseURL} }

// Time is a timestamp rendered as GitLab does: UTC with milliseconds, "2020-10-14T11:58:53.526Z".
type Time time.Time

// MarshalJSON renders the timestamp.
func (t Time) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Time(t).UTC().Format("2006-01-02T15:04:05.000Z"))
}

// TimePtr renders an optional timestamp: nil is null.
func TimePtr(t *time.Time) *Time {
	if t == nil {
		return nil
	}
	v := Time(*t)
	return &v
}

// Date is a date rendered as "YYYY-MM-DD".
type Date time.Time

// MarshalJSON renders the date.
func (d Date) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Time(d).UTC().Format("2006-01-02"))
}

// DatePtr renders an optional date: nil is null.
func DatePtr(t *time.Time) *Date {
	if t == nil {
		return nil
	}
	v := Date(*t)
	return &v
}

// strPtrOrNil renders an empty string as null.
func strPtrOrNil(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
