// Package tokenapi serves the access token endpoints: personal access tokens
// (/personal_access_tokens, /users/:id/personal_access_tokens, /user/personal_access_tokens),
// impersonation tokens (/users/:id/impersonation_tokens) and project and group access tokens
// (/projects/:id/access_tokens, /groups/:id/access_tokens).
package tokenapi

import (
	"slices"
	"strconv"

	"anvil/internal/apperr"
	"anvil/internal/service/tokens"
	"anvil/rest/httpx"
	"anvil/rest/params"
	"anvil/rest/route"

	"github.com/gin-gonic/gin"
)

type handlers struct {
	tokens *tokens.Service
	// base is the external URL, for pagination links.
	base string
}

// Register adds the token routes.
func Register(t *route.Table) {
	h := &handlers{tokens: t.S.Tokens, base: t.S.Config.ExternalURL}

	t.GET("/personal_access_tokens", h.list, route.SignedIn)
	t.GET("/personal_access_tokens/self", h.getSelf, route.SignedIn, route.AnyScope)
	t.DELETE("/personal_access_tokens/self", h.revokeSelf, route.SignedIn, route.AnyScope)
	t.POST("/personal_access_tokens/self/rotate", h.rotateSelf, route.SignedIn, route.SelfRotateScope)
	t.GET("/personal_access_tokens/:id", h.get, route.SignedIn)
	t.DELETE("/personal_access_tokens/:id", h.revoke, route.SignedIn)
	t.POST("/personal_access_tokens/:id/rotate", h.rotate, route.SignedIn)
	t.POST("/users/:id/personal_access_tokens", h.createForUser, route.AdminOnly)
	t.POST("/user/personal_access_tokens", h.createOwn, route.SignedIn)

	t.GET("/users/:id/impersonation_tokens", h.listImpersonation, route.AdminOnly, route.UserScope)
	t.POST("/users/:id/impersonation_tokens", h.createImpersonation, route.AdminOnly)
	t.GET("/users/:id/impersonation_tokens/:token_id", h.getImpersonation, route.AdminOnly, route.UserScope)
	t.DELETE("/users/:id/impersonation_tokens/:token_id", h.revokeImpersonation, route.AdminOnly)

	for _, r := range []struct {
		path string
		typ  tokens.ResourceType
	}{{"/projects", tokens.ProjectResource}, {"/groups", tokens.GroupResource}} {
		rh := &resourceHandlers{handlers: h, typ: r.typ}
		t.GET(r.path+"/:id/access_tokens", rh.list, route.SignedIn)
		t.POST(r.path+"/:id/access_tokens", rh.create, route.SignedIn)
		t.POST(r.path+"/:id/access_tokens/self/rotate", rh.rotateSelf, route.SignedIn, route.SelfRotateScope)
		t.GET(r.path+"/:id/access_tokens/:token_id", rh.get, route.SignedIn)
		t.DELETE(r.path+"/:id/access_tokens/:token_id", rh.revoke, route.SignedIn)
		t.POST(r.path+"/:id/access_tokens/:token_id/rotate", rh.rotate, route.SignedIn)
	}
}

// idParam reads a token id path parameter. GitLab's token routes take any string and simply
// find nothing for a non-number, so a malformed id becomes 0, which matches no token.
func idParam(c *gin.Context, name string) int {
	n, err := strconv.Atoi(httpx.PathParam(c, name))
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// rotateInput reads the optional expires_at of a rotation.
func rotateInput(c *gin.Context) (tokens.RotateInput, error) {
	b, err := httpx.Bind(c)
	if err != nil {
		return tokens.RotateInput{}, err
	}
	in := tokens.RotateInput{ExpiresAt: b.Date("expires_at")}
	return in, b.Err()
}

// createInput reads the attributes shared by every token creation.
func createInput(b *params.Binder) tokens.CreateInput {
	return tokens.CreateInput{
		Name: b.StringDefault("name", ""), Description: b.StringDefault("description", ""),
		Scopes: b.Strings("scopes"), ExpiresAt: b.Date("expires_at"),
	}
}

// checkScopes is Grape's values check on scopes[]: 400 "scopes does not have a valid value".
func checkScopes(b *params.Binder, scopes, allowed []string) error {
	if err := b.Err(); err != nil {
		return err
	}
	for _, sc := range scopes {
		if !slices.Contains(allowed, sc) {
			return apperr.NotAllowedValue("scopes")
		}
	}
	return nil
}

// str dereferences an optional string parameter.
func str(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
