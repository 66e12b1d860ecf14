package forkapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// GET /projects/:id/forks pages like GET /projects (one binder): keyset pages walk the id order
// only, and any other order_by (the default created_at included) is GitLab's 405; offset pages
// are capped at 50,000 rows.
func TestForks_ListPaginationStrategies(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	src := f.Project(t, "src", "public")
	seed(t, f, src)
	var ids []int
	for _, role := range []string{"developer", "reporter", "outsider"} {
		r := f.Do(t, "POST", fmt.Sprintf("/projects/%d/fork", src.ID), role, `{}`)
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		ids = append(ids, int(servertest.Object(t, r)["id"].(float64)))
	}
	forks := fmt.Sprintf("/projects/%d/forks", src.ID)

	t.Run("keyset in id order", func(t *testing.T) {
		r := f.Do(t, "GET", forks+"?pagination=keyset&order_by=id&sort=asc&per_page=2", "", nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.Equal(t, []float64{float64(ids[0]), float64(ids[1])}, idsOf(t, r))
		link := r.Header.Get("Link")
		assert.True(t, strings.HasSuffix(link, `>; rel="next"`), link)
		assert.Contains(t, link, fmt.Sprintf("id_after=%d", ids[1]))
		assert.Empty(t, r.Header.Get("X-Total"))
		assert.Empty(t, r.Header.Get("X-Page"))

		next := link[strings.Index(link, "/projects/"):strings.Index(link, ">")]
		r = f.Do(t, "GET", next, "", nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.Equal(t, []float64{float64(ids[2])}, idsOf(t, r))
		assert.Empty(t, r.Header.Get("Link"), "the last page has no next link")

		r = f.Do(t, "GET", forks+"?pagination=keyset&order_by=id&per_page=2", "", nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.Equal(t, []float64{float64(ids[2]), float64(ids[1])}, idsOf(t, r), "sort desc by default")
		assert.Contains(t, r.Header.Get("Link"), fmt.Sprintf("id_before=%d", ids[1]))
	})

	t.Run("keyset in another order is 405", func(t *testing.T) {
		for _, q := range []string{"pagination=keyset", "pagination=keyset&order_by=name", "pagination=keyset&order_by=created_at&sort=asc"} {
			servertest.RequireError(t, f.Do(t, "GET", forks+"?"+q, "", nil),
				http.StatusMethodNotAllowed, "error", "Keyset pagination is not yet available for this type of request")
		}
		// The refusal comes before the source is looked up, as GitLab's parameter checks do.
		servertest.RequireError(t, f.Do(t, "GET", "/projects/999999/forks?pagination=keyset", "", nil),
			http.StatusMethodNotAllowed, "error", "Keyset pagination is not yet available for this type of request")
		// Without pagination=keyset, the same order gives an offset page with totals.
		r := f.Do(t, "GET", forks+"?order_by=name", "", nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.Equal(t, "3", r.Header.Get("X-Total"))
	})

	t.Run("offset pages are capped", func(t *testing.T) {
		servertest.RequireError(t, f.Do(t, "GET", forks+"?page=501&per_page=100", "", nil), http.StatusMethodNotAllowed, "error",
			"Offset pagination has a maximum allowed offset of 50000 for requests that return objects of type Project. Remaining records can be retrieved using keyset pagination.")
	})

	t.Run("the project listing's filters", func(t *testing.T) {
		// Filters GET /projects accepts and the fork listing did not read before (bound once now).
		servertest.RequireError(t, f.Do(t, "GET", forks+"?active=maybe", "", nil), http.StatusBadRequest, "error", "active is invalid")
		r := f.Do(t, "GET", forks+"?topic=none-such", "", nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		assert.Equal(t, "[]", string(r.Body))
	})
}

func idsOf(t *testing.T, r *servertest.Response) []float64 {
	t.Helper()
	var out []float64
	for _, it := range servertest.List(t, r) {
		out = append(out, it["id"].(float64))
	}
	return out
}
