package branches

import (
	"context"
	"regexp"
	"sort"
	"strings"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/pagination"
	"anvil/internal/service/refs"
)

// Sort orders of a branch listing (GitLab's sort parameter).
const (
	SortNameAsc     = "name_asc"
	SortUpdatedAsc  = "updated_asc"
	SortUpdatedDesc = "updated_desc"
)

// Sorts are the accepted sort values.
var Sorts = []string{SortNameAsc, SortUpdatedAsc, SortUpdatedDesc}

// ListParams are the filters of GET /projects/:id/repository/branches, in GitLab's spelling.
// The zero value of all but Project lists every branch.
type ListParams struct {
	// Project is the id or full path of the project (:id).
	Project string
	// Search (search) keeps branches whose name contains the term, ignoring case; "^term" and
	// "term$" anchor it, "*" matches anything; without those, an exact match comes first.
	Search string
	// Regex (regex) keeps branches whose name matches this RE2 regular expression.
	Regex string
}

// Order is a branch listing's order (sort): name_asc (default), updated_asc or updated_desc
// (by the tip's committer date).
type Order struct {
	Sort string
}

// List returns one page of the branches of p.Project matching p, in o's order, with their
// flags for actor, and the project they belong to. A keyset page continues after the branch
// its refs.PageToken names. An invalid regex answers 400 before anything is read. The refs are
// listed once; only the page's commits are read (all of them when sorting by date).
func (s *Service) List(ctx context.Context, actor *authz.Actor, p ListParams, o Order, page pagination.Page) (pagination.Result[Branch], *ent.Project, error) {
	var res pagination.Result[Branch]
	var re *regexp.Regexp
	if p.Regex != "" {
		var err error
		if re, err = regexp.Compile(p.Regex); err != nil {
			return res, nil, apperr.BadParam("regex is invalid")
		}
	}
	proj, repo, err := s.open.Read(ctx, actor, p.Project)
	if err != nil {
		return res, nil, err
	}
	all, err := repo.ListRefs(ctx, git.ListRefsOptions{Patterns: []string{git.BranchPrefix}})
	if err != nil {
		return res, nil, err
	}
	items := make([]Branch, 0, len(all))
	targets := map[string]git.ObjectID{}
	for _, r := range all {
		if r.TargetType != git.TypeCommit || !strings.HasPrefix(r.Name, git.BranchPrefix) {
			continue // a branch must point at a commit; anything else is not shown
		}
		name := r.ShortName()
		items = append(items, Branch{Name: name})
		targets[name] = r.Target
	}
	items = refs.Search(items, branchName, p.Search)
	if re != nil {
		kept := items[:0:0]
		for _, b := range items {
			if re.MatchString(b.Name) {
				kept = append(kept, b)
			}
		}
		items = kept
	}
	if o.Sort == SortUpdatedAsc || o.Sort == SortUpdatedDesc {
		if err := readCommits(ctx, repo, items, targets); err != nil {
			return res, nil, err
		}
		sortByUpdated(items, o.Sort == SortUpdatedDesc)
		items = refs.ExactFirst(items, branchName, p.Search)
	}
	res, err = refs.Paginate(items, branchName, page, git.BranchPrefix)
	if err != nil {
		return res, nil, err
	}
	if err := readCommits(ctx, repo, res.Items, targets); err != nil {
		return res, nil, err
	}
	f, err := s.newFlagger(ctx, actor, proj, repo)
	if err != nil {
		return res, nil, err
	}
	if err := f.fill(ctx, res.Items); err != nil {
		return res, nil, err
	}
	return res, proj, nil
}

func branchName(b Branch) string { return b.Name }

// readCommits reads the tip commits of the branches that lack them in one round trip.
func readCommits(ctx context.Context, repo *git.Repository, bs []Branch, targets map[string]git.ObjectID) error {
	var ids []git.ObjectID
	var idx []int
	for i, b := range bs {
		if b.Commit == nil {
			ids = append(ids, targets[b.Name])
			idx = append(idx, i)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	commits, err := repo.ReadCommits(ctx, ids)
	if err != nil {
		return err
	}
	for j, i := range idx {
		bs[i].Commit = commits[j]
	}
	return nil
}

// sortByUpdated orders branches by their tip's committer date, names breaking ties.
func sortByUpdated(bs []Branch, desc bool) {
	sort.SliceStable(bs, func(i, j int) bool {
		a, b := bs[i].Commit.Committer.When, bs[j].Commit.Committer.When
		if a.Equal(b) {
			return bs[i].Name < bs[j].Name
		}
		if desc {
			return a.After(b)
		}
		return a.Before(b)
	})
}
