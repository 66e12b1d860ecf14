package httpx

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"anvil/internal/apperr"
	"anvil/internal/authz"

	"github.com/gin-gonic/gin"
)

// MovedFinder finds the project an old full path names now (projects.Service.Moved): its id,
// and whether the actor may read it.
type MovedFinder func(ctx context.Context, actor *authz.Actor, ref string) (int, bool, error)

const keyMoved = "anvil.moved"

// WithMovedProjects makes finder available to the error renderer of every request.
func WithMovedProjects(finder MovedFinder) gin.HandlerFunc {
	return func(c *gin.Context) {
		c.Set(keyMoved, finder)
		c.Next()
	}
}

// msgMovedNonGet is GitLab's refusal of a write addressed to a moved project's old path.
const msgMovedNonGet = "Non GET methods are not allowed for moved projects"

// answerMoved answers a 404 Project Not Found of a /projects/:id route whose :id is the old
// full path of a project the caller may read, as GitLab's find_project! does: GET and HEAD are
// redirected (301) to the same URL with the project's id, other methods refused with 405. It
// reports whether it answered. Only the route's own :id counts: a moved project named in a
// parameter is not redirected.
func answerMoved(c *gin.Context, err error) bool {
	e, ok := apperr.As(err)
	if !ok || e.Kind != apperr.KindNotFound || e.Resource != "Project" {
		return false
	}
	if !strings.HasPrefix(c.FullPath(), "/api/v4/projects/:id") {
		return false
	}
	v, ok := c.Get(keyMoved)
	finder, isFinder := v.(MovedFinder)
	ref := PathParam(c, "id")
	if !ok || !isFinder || !strings.Contains(ref, "/") {
		return false
	}
	id, moved, ferr := finder(c.Request.Context(), Actor(c), ref)
	if ferr != nil || !moved {
		return false
	}
	if c.Request.Method != http.MethodGet && c.Request.Method != http.MethodHead {
		JSON(c, http.StatusMethodNotAllowed, gin.H{"message": msgMovedNonGet})
		c.Abort()
		return true
	}
	raw := c.Param("id")
	path := strings.Replace(c.Request.URL.EscapedPath(), "/projects/"+raw, "/projects/"+strconv.Itoa(id), 1)
	location := P(c).BaseURL + path
	if q := c.Request.URL.RawQuery; q != "" {
		location += "?" + q
	}
	c.Header("Location", location)
	c.Data(http.StatusMovedPermanently, "application/json", []byte("This resource has been moved permanently to "+location))
	c.Abort()
	return true
}
