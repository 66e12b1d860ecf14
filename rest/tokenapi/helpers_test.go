package tokenapi_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"
	"anvil/ent/personalaccesstoken"
	"anvil/internal/authz"
	"anvil/internal/service/tokens"

	"github.com/stretchr/testify/require"
)

// timeRe matches GitLab's timestamps, "2020-10-14T11:58:53.526Z".
const timeRe = `^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$`

// date renders a day offset from today as GitLab's YYYY-MM-DD.
func date(days int) string {
	return time.Now().UTC().AddDate(0, 0, days).Format("2006-01-02")
}

// array decodes a JSON array body.
func array(t *testing.T, r *servertest.Response) []map[string]any {
	t.Helper()
	var m []map[string]any
	require.NoError(t, json.Unmarshal(r.Body, &m), r.String())
	return m
}

// ids returns the "id" of each object, as ints.
func ids(rows []map[string]any) []int {
	out := make([]int, 0, len(rows))
	for _, r := range rows {
		out = append(out, int(r["id"].(float64)))
	}
	return out
}

// raw sends a request with arbitrary headers (no token is added).
func raw(t *testing.T, in *servertest.Instance, method, path string, header map[string]string) *servertest.Response {
	t.Helper()
	req, err := http.NewRequest(method, in.URL+"/api/v4"+path, nil)
	require.NoError(t, err)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return &servertest.Response{Status: resp.StatusCode, Header: resp.Header, Body: body}
}

// issue creates a token through the service (a fixture), with a chosen expiry.
func issue(t *testing.T, in *servertest.Instance, userID int, expires *time.Time, scopes ...string) (*ent.PersonalAccessToken, string) {
	t.Helper()
	tok, secret, err := in.Services.Tokens.Create(context.Background(), nil, tokens.CreateInput{
		UserID: userID, Name: "fixture", Scopes: scopes, ExpiresAt: expires,
	})
	require.NoError(t, err)
	return tok, secret
}

// jsonBody builds a JSON request body.
func jsonBody(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// keys returns the sorted keys of an object, for shape assertions.
func keys(m map[string]any) string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}

// actorFor is an actor authenticated with tok (its user is not needed by the callers).
func actorFor(tok *ent.PersonalAccessToken) *authz.Actor { return &authz.Actor{Token: tok} }

// adminActor is root, for service-level fixtures.
func adminActor(t *testing.T, in *servertest.Instance) *authz.Actor {
	t.Helper()
	u, err := in.Services.Users.Get(context.Background(), 1)
	require.NoError(t, err)
	return &authz.Actor{User: u}
}

// tokenID finds the id of the token with a secret.
func tokenID(t *testing.T, in *servertest.Instance, secret string) int {
	t.Helper()
	tok, err := in.DB.Client.PersonalAccessToken.Query().
		Where(personalaccesstoken.TokenDigest(tokens.Digest(secret))).Only(context.Background())
	require.NoError(t, err)
	return tok.ID
}

func ptr[T any](v T) *T { return &v }
