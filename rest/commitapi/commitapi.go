// Package commitapi serves the commit endpoints of a project's repository: listing, reading
// and creating commits, their refs, sequence and diff, cherry-pick and revert, submodule
// updates, and the changelog pair.
package commitapi

import (
	"anvil/internal/service/commits"
	"anvil/rest/route"
)

type handlers struct{ svc *commits.Service }

// Register adds the commit routes. Reads are open to whoever may read the project's code;
// writes check the caller themselves, so an invisible project answers 404 before an anonymous
// caller gets 401, as in GitLab. The submodule route authenticates first (401).
func Register(t *route.Table) {
	h := &handlers{svc: t.S.Commits}

	const repo = "/projects/:id/repository"
	const commit = repo + "/commits/:sha"
	t.GET(repo+"/commits", h.list)
	t.POST(repo+"/commits", h.create)
	t.GET(commit, h.get)
	t.GET(commit+"/refs", h.refs)
	t.GET(commit+"/sequence", h.sequence)
	t.GET(commit+"/diff", h.diff)
	t.POST(commit+"/cherry_pick", h.cherryPick)
	t.POST(commit+"/revert", h.revert)
	t.PUT(repo+"/submodules/:submodule", h.updateSubmodule, route.SignedIn)
	t.GET(repo+"/changelog", h.changelog)
	t.POST(repo+"/changelog", h.commitChangelog)
}
