package httpx_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"anvil/internal/apperr"
	"anvil/rest/httpx"

	"github.com/gin-gonic/gin"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestError_kinds renders each kind of application error through REST: GitLab's status and
// exact body (and headers where GitLab sends them).
func TestError_kinds(t *testing.T) {
	gin.SetMode(gin.TestMode)
	for _, c := range []struct {
		err    error
		status int
		body   string
		header map[string]string
	}{
		{apperr.NotFound("Project"), 404, `{"message":"404 Project Not Found"}`, nil},
		{apperr.NotFound("User with ID or username 'x'"), 404, `{"message":"404 User with ID or username 'x' Not Found"}`, nil},
		{apperr.NotFound(""), 404, `{"message":"404 Not Found"}`, nil},
		{apperr.RecordNotFound(), 404, `{"message":"404 Not found"}`, nil},
		{apperr.NotFoundMessage("Not Found"), 404, `{"message":"Not Found"}`, nil},
		{apperr.Unauthorized(), 401, `{"message":"401 Unauthorized"}`, nil},
		{apperr.UnauthorizedReason("Target Namespace"), 401, `{"message":"401 Unauthorized - Target Namespace"}`, nil},
		{apperr.InvalidToken("Token is expired. You can either do re-authorization or token refresh."), 401,
			`{"error":"invalid_token","error_description":"Token is expired. You can either do re-authorization or token refresh."}`,
			map[string]string{"WWW-Authenticate": `Bearer realm="Protected by OAuth 2.0", error="invalid_token", error_description="Token is expired. You can either do re-authorization or token refresh."`}},
		{apperr.Forbidden(""), 403, `{"message":"403 Forbidden"}`, nil},
		{apperr.Forbidden("You are not allowed to push into this branch"), 403, `{"message":"403 Forbidden - You are not allowed to push into this branch"}`, nil},
		{apperr.ForbiddenMessage("You cannot ban blocked users."), 403, `{"message":"You cannot ban blocked users."}`, nil},
		{apperr.InsufficientScope("api", "write_repository"), 403,
			`{"error":"insufficient_scope","error_description":"The request requires higher privileges than provided by the access token.","scope":"api write_repository"}`,
			map[string]string{"WWW-Authenticate": `Bearer realm="Protected by OAuth 2.0", error="insufficient_scope", error_description="The request requires higher privileges than provided by the access token.", scope="api write_repository"`}},
		{apperr.Invalid("id"), 400, `{"error":"id is invalid"}`, nil},
		{apperr.Missing("branch"), 400, `{"error":"branch is missing"}`, nil},
		{apperr.NotAllowedValue("visibility"), 400, `{"error":"visibility does not have a valid value"}`, nil},
		{apperr.BadParam("commit_sha is missing, branch is missing"), 400, `{"error":"commit_sha is missing, branch is missing"}`, nil},
		{apperr.BadRequest("Not permitted to revoke"), 400, `{"message":"400 Bad request - Not permitted to revoke"}`, nil},
		{apperr.BadRequest(""), 400, `{"message":"400 Bad request"}`, nil},
		{apperr.Refused("Could not update refs/heads/x. Please refresh and try again."), 400,
			`{"message":"Could not update refs/heads/x. Please refresh and try again."}`, nil},
		{func() error {
			e := apperr.Refused("Sorry, we cannot cherry-pick this commit automatically.")
			e.Code = "conflict"
			return e
		}(), 400,
			`{"message":"Sorry, we cannot cherry-pick this commit automatically.","error_code":"conflict"}`, nil},
		{apperr.Validation(map[string][]string{"path": {"has already been taken"}, "name": {"can't be blank"}}), 400,
			`{"message":{"name":["can't be blank"],"path":["has already been taken"]}}`, nil},
		{apperr.FieldError("limit_reached", "You cannot create projects in your personal namespace."), 400,
			`{"message":{"limit_reached":["You cannot create projects in your personal namespace."]}}`, nil},
		{apperr.Unprocessable(`State cannot transition via "activate"`), 422, `{"message":"State cannot transition via \"activate\""}`, nil},
		{apperr.Unprocessable(""), 422, `{"message":"422 Unprocessable Entity"}`, nil},
		{apperr.UnprocessableMessages([]string{"Name has already been taken"}), 422, `{"message":["Name has already been taken"]}`, nil},
		{apperr.Conflict("Protected branch 'main' already exists"), 409, `{"message":"Protected branch 'main' already exists"}`, nil},
		{apperr.Conflict(""), 409, `{"message":"409 Conflict"}`, nil},
		{apperr.ConflictMessages([]string{"Path has already been taken", "Name has already been taken"}), 409,
			`{"message":["Path has already been taken","Name has already been taken"]}`, nil},
		{apperr.NotAllowed(""), 405, `{"message":"405 Method Not Allowed"}`, nil},
		{apperr.PreconditionFailed(), 412, `{"message":"412 Precondition Failed"}`, nil},
		{apperr.TooLarge(), 413, `{"message":"413 Request Entity Too Large"}`, nil},
		{apperr.RateLimited(1400 * time.Millisecond), 429,
			`{"message":{"error":"This endpoint has been requested too many times. Try again later."}}`, map[string]string{"Retry-After": "1"}},
		{fmt.Errorf("find project: %w", apperr.NotFound("Project")), 404, `{"message":"404 Project Not Found"}`, nil},
		{httpx.GrapeError(405, "Keyset pagination is not yet available for this type of request"), 405,
			`{"error":"Keyset pagination is not yet available for this type of request"}`, nil},
		{errors.New("disk on fire"), 500, `{"message":"500 Internal Server Error"}`, nil},
	} {
		t.Run(c.err.Error(), func(t *testing.T) {
			w := httptest.NewRecorder()
			ctx, _ := gin.CreateTestContext(w)
			ctx.Request = httptest.NewRequest(http.MethodGet, "/api/v4/x", nil)
			httpx.Error(ctx, c.err)
			assert.Equal(t, c.status, w.Code)
			assert.JSONEq(t, c.body, w.Body.String())
			for k, v := range c.header {
				assert.Equal(t, v, w.Header().Get(k), k)
			}
			assert.True(t, ctx.IsAborted())
		})
	}
}

// TestError_everyKindHasAStatus: a kind added to apperr without a REST status would be
// answered 500; every kind from the first to the last must have one.
func TestError_everyKindHasAStatus(t *testing.T) {
	for k := apperr.KindNotFound; k <= apperr.KindRateLimited; k++ {
		status, body := httpx.Render(&apperr.Error{Kind: k, Message: "m"})
		assert.NotEqual(t, http.StatusInternalServerError, status, "%s", k)
		_, err := json.Marshal(body)
		require.NoError(t, err)
	}
	status, _ := httpx.Render(&apperr.Error{Kind: apperr.KindRateLimited + 1})
	assert.Equal(t, http.StatusInternalServerError, status, "an unknown kind is a server fault")
}
