package userapi_test

import (
	"context"
	"crypto/md5" //nolint:gosec // the expected avatar URL is the MD5 of the email
	"encoding/hex"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/ent/user"
	"anvil/internal/nullable"
	"anvil/internal/service/users"

	entsql "entgo.io/ent/dialect/sql"
	"github.com/stretchr/testify/require"
)

// sorted returns names sorted.
func sorted(names ...string) []string {
	out := append([]string(nil), names...)
	sort.Strings(out)
	return out
}

// usernames lists the usernames of GET path as token, in response order.
func usernames(t *testing.T, in *servertest.Instance, path, token string) []string {
	t.Helper()
	r := in.Do(t, "GET", path, token, nil)
	require.Equal(t, 200, r.Status, r.String())
	out := []string{}
	for _, u := range servertest.List(t, r) {
		out = append(out, u["username"].(string))
	}
	return out
}

// avatar is the default avatar URL of an email.
func avatar(email string) string {
	sum := md5.Sum([]byte(email)) //nolint:gosec
	return "https://www.gravatar.com/avatar/" + hex.EncodeToString(sum[:]) + "?s=80&d=identicon"
}

// str returns a pointer to s.
func str(s string) *string { return &s }

// withPublicEmail makes the user's public email its primary email.
func withPublicEmail(in *users.CreateInput) { in.Profile.PublicEmail = nullable.Of(in.Email) }

// withType sets the user type (bots and internal users have no namespace).
func withType(typ string) servertest.UserOption {
	return func(in *users.CreateInput) { in.UserType, in.SkipNamespace = typ, true }
}

// setState puts a user in a state directly in the database.
func setState(t *testing.T, in *servertest.Instance, u *ent.User, state user.State) {
	t.Helper()
	require.NoError(t, in.DB.Client.User.UpdateOneID(u.ID).SetState(state).Exec(context.Background()))
}

// setCreatedAt rewrites a user's immutable created_at (a fixture for the date filters).
func setCreatedAt(t *testing.T, in *servertest.Instance, u *ent.User, at time.Time) {
	t.Helper()
	q, args := entsql.Dialect(in.DB.Dialect).Update("users").Set("created_at", at).
		Where(entsql.EQ("id", u.ID)).Query()
	_, err := in.DB.SQL.Exec(q, args...)
	require.NoError(t, err)
}

// query builds a path with a query string.
func query(path string, kv ...string) string {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Add(kv[i], kv[i+1])
	}
	return path + "?" + v.Encode()
}

// relURL strips the server's base from an absolute API URL, for in.Do.
func relURL(in *servertest.Instance, abs string) string {
	return strings.TrimPrefix(abs, in.URL+"/api/v4")
}
