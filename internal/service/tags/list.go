package tags

import (
	"context"
	"sort"
	"time"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/pagination"
	"anvil/internal/service/refs"
)

// Orders of a tag listing (GitLab's order_by).
const (
	OrderName    = "name"
	OrderUpdated = "updated"
	OrderVersion = "version"
)

// Orders are the accepted order_by values.
var Orders = []string{OrderName, OrderUpdated, OrderVersion}

// ListParams are the filters of GET /projects/:id/repository/tags, in GitLab's spelling.
type ListParams struct {
	// Project is the id or full path of the project (:id).
	Project string
	// Search (search) keeps tags whose name contains the term, ignoring case; "^term" and
	// "term$" anchor it; without those, an exact match comes first.
	Search string
}

// Order is a tag listing's order.
type Order struct {
	// By (order_by) is name, updated (the tagger's date of an annotated tag, the commit's date
	// of a lightweight one; also for "") or version (numbers compared as numbers).
	By string
	// Sort (sort) is asc or desc (also for "").
	Sort string
}

// List returns one page of the tags of p.Project matching p, in o's order, and the project
// they belong to. A keyset page continues after the tag its refs.PageToken names. Tags, their
// tag objects and commits are read in a few round trips whatever their number.
func (s *Service) List(ctx context.Context, actor *authz.Actor, p ListParams, o Order, page pagination.Page) (pagination.Result[git.Tag], *ent.Project, error) {
	var res pagination.Result[git.Tag]
	proj, repo, err := s.open.Read(ctx, actor, p.Project)
	if err != nil {
		return res, nil, err
	}
	all, err := repo.Tags(ctx, git.ListRefsOptions{})
	if err != nil {
		return res, nil, err
	}
	items := refs.Search(all, tagName, p.Search)
	sortTags(items, o.By, o.Sort != "asc")
	items = refs.ExactFirst(items, tagName, p.Search)
	res, err = refs.Paginate(items, tagName, page, git.TagPrefix)
	if err != nil {
		return res, nil, err
	}
	return res, proj, nil
}

func tagName(t git.Tag) string { return t.Name }

// sortTags orders tags; names break ties in the direction asked, as git's ref sorting does.
func sortTags(ts []git.Tag, orderBy string, desc bool) {
	less := func(a, b *git.Tag) int {
		switch orderBy {
		case OrderName:
			return compareStrings(a.Name, b.Name)
		case OrderVersion:
			if c := compareVersions(a.Name, b.Name); c != 0 {
				return c
			}
			return compareStrings(a.Name, b.Name)
		}
		da, db := updated(a), updated(b)
		switch {
		case da.Before(db):
			return -1
		case da.After(db):
			return 1
		}
		return compareStrings(a.Name, b.Name)
	}
	sort.SliceStable(ts, func(i, j int) bool {
		c := less(&ts[i], &ts[j])
		if desc {
			return c > 0
		}
		return c < 0
	})
}

// updated is a tag's date for order_by=updated (git's creatordate).
func updated(t *git.Tag) time.Time {
	if t.Tagger != nil {
		return t.Tagger.When
	}
	if t.Commit != nil {
		return t.Commit.Committer.When
	}
	return time.Time{}
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// compareVersions compares names as git's version sort does for ordinary tags: runs of digits
// compare as numbers, everything else byte by byte ("v1.10" after "v1.9").
func compareVersions(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if isDigit(a[i]) && isDigit(b[j]) {
			si, sj := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			na, nb := trimZeros(a[si:i]), trimZeros(b[sj:j])
			if len(na) != len(nb) {
				return compareInts(len(na), len(nb))
			}
			if c := compareStrings(na, nb); c != 0 {
				return c
			}
			continue
		}
		if a[i] != b[j] {
			return compareInts(int(a[i]), int(b[j]))
		}
		i++
		j++
	}
	return compareInts(len(a)-i, len(b)-j)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func trimZeros(s string) string {
	for len(s) > 1 && s[0] == '0' {
		s = s[1:]
	}
	return s
}

func compareInts(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
