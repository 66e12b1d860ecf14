package server

import (
	"net/http"
	"path/filepath"

	"anvil/internal/gitserver"
)

// withGit mounts git's smart HTTP routes ({base_url}/<project>.git/info/refs, git-upload-pack,
// git-receive-pack) in front of the router: project paths have any depth, which gin's
// patterns cannot express, so git requests are recognised before routing.
func (s *Server) withGit(next http.Handler) http.Handler {
	svc := s.Services
	gs := gitserver.New(gitserver.Deps{
		Projects: svc.Projects, Repos: svc.Repos,
		Protected: svc.ProtectedBranches, ClientAuth: svc.ClientAuth, Log: s.Log,
		DataDir: s.Config.DataDir, GitHome: filepath.Join(s.Config.DataDir, "git-home"),
		ExternalURL: s.Config.ExternalURL,
	})
	return gs.Handler(next)
}
