package graph_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/graph"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/service/protectedbranches"
	"anvil/rest/httpx"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

const accessMsg = "The resource that you are attempting to access does not exist or you don't have permission to perform this action"

// present is the GraphQL error a resolver's err becomes.
func present(err error) *gqlerror.Error {
	return graph.PresentError(slog.New(slog.NewTextHandler(io.Discard, nil)))(context.Background(), err)
}

// TestErrors_kinds maps each kind of application error to its GraphQL message and
// extensions.code, with no HTTP status in between.
func TestErrors_kinds(t *testing.T) {
	for _, c := range []struct {
		err       error
		msg, code string
	}{
		{apperr.NotFound("Project"), accessMsg, "NOT_FOUND"},
		{apperr.RecordNotFound(), accessMsg, "NOT_FOUND"},
		{apperr.NotFoundMessage("Not Found"), accessMsg, "NOT_FOUND"},
		{apperr.Unauthorized(), accessMsg, "UNAUTHENTICATED"},
		{apperr.UnauthorizedReason("Target Namespace"), accessMsg, "UNAUTHENTICATED"},
		{apperr.InvalidToken("Token was revoked. You have to re-authorize from the user."), accessMsg, "UNAUTHENTICATED"},
		{apperr.Forbidden(""), accessMsg, "FORBIDDEN"},
		{apperr.Forbidden("You are not allowed to push into this branch"), "You are not allowed to push into this branch", "FORBIDDEN"},
		{apperr.ForbiddenMessage("You cannot ban blocked users."), "You cannot ban blocked users.", "FORBIDDEN"},
		{apperr.InsufficientScope("api"), accessMsg, "INSUFFICIENT_SCOPE"},
		{apperr.Invalid("id"), "id is invalid", "BAD_USER_INPUT"},
		{apperr.BadRequest("Not permitted to revoke"), "Not permitted to revoke", "BAD_USER_INPUT"},
		{apperr.BadRequest(""), "Bad request", "BAD_USER_INPUT"},
		{apperr.Refused("Could not update refs/heads/x. Please refresh and try again."), "Could not update refs/heads/x. Please refresh and try again.", "BAD_USER_INPUT"},
		{apperr.Validation(map[string][]string{"path": {"has already been taken"}, "base": {"Failed to create repository"}}),
			"Failed to create repository, Path has already been taken", "BAD_USER_INPUT"},
		{apperr.Unprocessable("Invalid page token: x"), "Invalid page token: x", "BAD_USER_INPUT"},
		{apperr.UnprocessableMessages([]string{"Name has already been taken", "Push access levels access level has already been taken"}),
			"Name has already been taken, Push access levels access level has already been taken", "BAD_USER_INPUT"},
		{apperr.Conflict("User cannot be removed while is the sole-owner of a group"), "User cannot be removed while is the sole-owner of a group", "CONFLICT"},
		{apperr.Conflict(""), "Conflict", "CONFLICT"},
		{apperr.NotAllowed(""), "Operation not allowed", "NOT_ALLOWED"},
		{apperr.PreconditionFailed(), "Precondition failed", "PRECONDITION_FAILED"},
		{apperr.TooLarge(), "Request too large", "PAYLOAD_TOO_LARGE"},
		{apperr.RateLimited(time.Second), "This endpoint has been requested too many times. Try again later.", "RATE_LIMITED"},
		{fmt.Errorf("read: %w", apperr.NotFound("Group")), accessMsg, "NOT_FOUND"},
		{errors.New("disk on fire"), "Internal server error", "INTERNAL_SERVER_ERROR"},
		{&apperr.Error{Kind: apperr.KindRateLimited + 1}, "Internal server error", "INTERNAL_SERVER_ERROR"},
	} {
		t.Run(c.err.Error(), func(t *testing.T) {
			g := present(c.err)
			assert.Equal(t, c.msg, g.Message)
			assert.Equal(t, map[string]any{"code": c.code}, g.Extensions)
		})
	}
}

// TestErrors_payload: a mutation's refused change is its payload's errors; whatever concerns
// access or the server stays a GraphQL error.
func TestErrors_payload(t *testing.T) {
	for _, c := range []struct {
		err  error
		msgs []string
	}{
		{nil, []string{}},
		{apperr.FieldError("path", "has already been taken"), []string{"Path has already been taken"}},
		{apperr.Invalid("visibility"), []string{"visibility is invalid"}},
		{apperr.Refused("Tag v1 already exists"), []string{"Tag v1 already exists"}},
		{apperr.BadRequest("Not permitted to revoke"), []string{"Not permitted to revoke"}},
		{apperr.Conflict("Protected branch 'main' already exists"), []string{"Protected branch 'main' already exists"}},
		{apperr.Unprocessable("Failed to generate the changelog: no tags"), []string{"Failed to generate the changelog: no tags"}},
		{apperr.UnprocessableMessages([]string{"Name is too long (maximum is 255 characters)"}), []string{"Name is too long (maximum is 255 characters)"}},
	} {
		msgs, err := graph.PayloadErrors(c.err)
		require.NoError(t, err, "%v", c.err)
		assert.Equal(t, c.msgs, msgs, "%v", c.err)
	}
	for _, err := range []error{apperr.NotFound("Project"), apperr.Forbidden(""), apperr.Unauthorized(), apperr.PreconditionFailed(), errors.New("boom")} {
		msgs, got := graph.PayloadErrors(err)
		assert.Nil(t, msgs)
		assert.Same(t, err, got)
	}
}

// TestErrors_protectedBranchValidation: an invalid protection rule, as the protected branches
// service refuses it, is a user error in GraphQL (it was a 500 while the service had an error
// type of its own) and REST's 422 with the full messages.
func TestErrors_protectedBranchValidation(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	p := f.Project(t, "rules", "private")
	outsider := f.Users["outsider"].ID
	_, err := f.In.Services.ProtectedBranches.Create(context.Background(), authz.System(f.Root), strconv.Itoa(p.ID),
		protectedbranches.CreateInput{Name: "main", AllowedToPush: []protectedbranches.AccessInput{{UserID: &outsider}}})
	require.Error(t, err)
	e, ok := apperr.As(err)
	require.True(t, ok, "%v", err)
	require.Equal(t, apperr.KindUnprocessable, e.Kind)
	require.NotEmpty(t, e.Messages)

	g := present(err)
	assert.Equal(t, map[string]any{"code": "BAD_USER_INPUT"}, g.Extensions)
	assert.Equal(t, e.Messages[0], g.Message)
	msgs, perr := graph.PayloadErrors(err)
	require.NoError(t, perr)
	assert.Equal(t, e.Messages, msgs)

	status, body := httpx.Render(err)
	assert.Equal(t, 422, status)
	raw, jerr := json.Marshal(body)
	require.NoError(t, jerr)
	want, jerr := json.Marshal(map[string]any{"message": e.Messages})
	require.NoError(t, jerr)
	assert.JSONEq(t, string(want), string(raw))
}
