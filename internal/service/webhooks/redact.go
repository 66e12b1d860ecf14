package webhooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"regexp"
	"sort"
	"strings"

	"anvil/ent/webhooklog"
)

// What a delivery log keeps of a hook's secrets, as GitLab's WebHookLog: the URL as configured,
// each URL variable shown as its {name} and the userinfo's credentials as *****:*****; the
// secret token and every custom header value as [REDACTED] (execute); every email address of
// the request data as [REDACTED]; and an error message with neither the interpolated URL nor
// a variable's value.

// userinfoRE finds a URL's userinfo, masked segments ({name}) included (GitLab's
// MASKED_USERINFO_REGEX).
var userinfoRE = regexp.MustCompile(`//(?:[-_.!~*'()a-zA-Z0-9;:&=+$,{}]|%[a-fA-F0-9]{2})*@`)

// MaskURL hides the credentials of a hook URL's userinfo (http://user:pass@host becomes
// http://*****:*****@host), as the delivery log shows it.
func MaskURL(u string) string {
	return userinfoRE.ReplaceAllString(u, "//*****:*****@")
}

// emailRE is a whole value that is an email address (Ruby's URI::MailTo::EMAIL_REGEXP).
var emailRE = regexp.MustCompile(`^[a-zA-Z0-9.!#$%&'*+/=?^_` + "`" + `{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$`)

// redactEmails replaces every string value of a JSON payload that is an email address by
// [REDACTED] (GitLab's redact_user_emails); a payload without one is kept byte for byte.
func redactEmails(payload []byte) []byte {
	if !bytes.Contains(payload, []byte("@")) {
		return payload
	}
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return payload
	}
	changed := false
	var walk func(any) any
	walk = func(v any) any {
		switch t := v.(type) {
		case map[string]any:
			for k, e := range t {
				t[k] = walk(e)
			}
		case []any:
			for i, e := range t {
				t[i] = walk(e)
			}
		case string:
			if emailRE.MatchString(t) {
				changed = true
				return redacted
			}
		}
		return v
	}
	v = walk(v)
	if !changed {
		return payload
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return payload
	}
	return bytes.TrimRight(out.Bytes(), "\n")
}

// safeError is a delivery's error message without the URL it was sent to: Go's client names
// the request's URL (the interpolated one, URL variables' values in it), and a variable's value
// may still appear (a host name); each is replaced by its {name}.
func safeError(err error, vars map[string]string) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	msg := err.Error()
	keys := make([]string, 0, len(vars))
	for k, v := range vars {
		if len(v) >= 3 { // shorter values are no secret, and would mangle the message
			keys = append(keys, k)
		}
	}
	// Longer values first, so a value inside another is not replaced within it.
	sort.Slice(keys, func(i, j int) bool {
		if len(vars[keys[i]]) != len(vars[keys[j]]) {
			return len(vars[keys[i]]) > len(vars[keys[j]])
		}
		return keys[i] < keys[j]
	})
	for _, k := range keys {
		msg = strings.ReplaceAll(msg, vars[k], "{"+k+"}")
	}
	return msg
}

// maskLogURLs masks the URL of every delivery log written before logs were masked.
func (s *Service) maskLogURLs(ctx context.Context) error {
	logs, err := s.Client.WebHookLog.Query().Where(webhooklog.URLContains("@")).
		Select(webhooklog.FieldID, webhooklog.FieldURL).All(ctx)
	if err != nil {
		return err
	}
	for _, l := range logs {
		if m := MaskURL(l.URL); m != l.URL {
			if err := s.Client.WebHookLog.UpdateOneID(l.ID).SetURL(m).Exec(ctx); err != nil {
				return err
			}
		}
	}
	return nil
}
