package repos

import (
	"context"
	"time"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/git"
)

// initReadme makes the first commit of a new project: a README.md with the project's name and
// description, authored by the project's creator, on defaultBranch. It lands as every API commit
// does (CommitToBranch): recorded as the creator's push, which makes the branch the default one
// and protects it, as GitLab's project creation does.
func (s *Service) initReadme(ctx context.Context, p *ent.Project, repo *git.Repository, branch string) error {
	author := git.Signature{Name: "Administrator", Email: "admin@example.com", When: time.Now()}
	var creator *ent.User
	if p.CreatorID != nil {
		if u, err := s.client.User.Get(ctx, *p.CreatorID); err == nil {
			creator = u
			author.Name, author.Email = u.Name, u.Email
			if u.CommitEmail != "" {
				author.Email = u.CommitEmail
			}
		}
	}
	body := "# " + p.Name + "\n"
	if p.Description != "" {
		body += "\n" + p.Description + "\n"
	}
	tree, err := repo.EditTree(ctx, "", []git.TreeAction{{Action: git.ActionCreate, Path: "README.md", Content: []byte(body)}})
	if err != nil {
		return err
	}
	_, err = s.CommitToBranch(ctx, authz.System(creator), p, repo, BranchCommit{Branch: branch, Old: git.ZeroOID, WasEmpty: true,
		Commit: git.CommitTreeOptions{Tree: tree, Message: "Initial commit", Author: author}})
	return err
}
