package webhooks

import (
	"errors"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestMaskURL: the userinfo of a hook URL is masked as GitLab's sanitize_masked_url does,
// {name} segments included; URLs without one are left alone.
func TestMaskURL(t *testing.T) {
	for in, want := range map[string]string{
		"http://user:pass@example.com/hook":        "http://*****:*****@example.com/hook",
		"https://token@example.com/":               "https://*****:*****@example.com/",
		"http://{user}:{pass}@{host}.com/{path}":   "http://*****:*****@{host}.com/{path}",
		"http://us%40er:p%3Ass@example.com:8080/x": "http://*****:*****@example.com:8080/x",
		"http://example.com/{secret}?a=b":          "http://example.com/{secret}?a=b",
		"http://example.com/path@not-userinfo":     "http://example.com/path@not-userinfo",
	} {
		assert.Equal(t, want, MaskURL(in), in)
	}
}

// TestRedactEmails: every string value that is an email address becomes [REDACTED], at any
// depth; a payload without one is kept byte for byte; numbers keep their precision.
func TestRedactEmails(t *testing.T) {
	in := `{"id":12345678901234567,"user_email":"a.b@example.com","commits":[{"author":{"email":"x@y.org","name":"X"}}],"note":"mail me at a@b.c please"}`
	assert.JSONEq(t, `{"id":12345678901234567,"user_email":"[REDACTED]","commits":[{"author":{"email":"[REDACTED]","name":"X"}}],"note":"mail me at a@b.c please"}`,
		string(redactEmails([]byte(in))))
	plain := `{"b":1, "a":"no mail here"}`
	assert.Equal(t, plain, string(redactEmails([]byte(plain))))
	withAt := `{"b":1, "a":"@someone"}`
	assert.Equal(t, withAt, string(redactEmails([]byte(withAt))))
}

// TestSafeError: a delivery error keeps its cause without the request's URL, and a URL
// variable's value is replaced by its {name}.
func TestSafeError(t *testing.T) {
	err := &url.Error{Op: "Post", URL: "http://hooks.example.com/s3cret-path", Err: errors.New("dial tcp: lookup hooks.example.com: no such host")}
	assert.Equal(t, "dial tcp: lookup {host}.example.com: no such host",
		safeError(err, map[string]string{"host": "hooks", "path": "s3cret-path", "x": "a"}))
	assert.Equal(t, "boom", safeError(errors.New("boom"), nil))
}
