package presenter

import (
	"strings"

	"anvil/ent"
	"anvil/internal/git"
	"anvil/internal/service/commits"
)

// Commit is GitLab's Commit entity (lists, cherry-pick, revert, a branch's commit). Dates keep
// the time zone the commit recorded.
type Commit struct {
	ID            string   `json:"id"`
	ShortID       string   `json:"short_id"`
	CreatedAt     gitDate  `json:"created_at"`
	ParentIDs     []string `json:"parent_ids"`
	Title         string   `json:"title"`
	Message       string   `json:"message"`
	AuthorName    string   `json:"author_name"`
	AuthorEmail   string   `json:"author_email"`
	AuthoredDate  gitDate  `json:"authored_date"`
	CommitterName string   `json:"committer_name"`
	// CommitterEmail and CommittedDate: created_at is always the committed date.
	CommitterEmail string  `json:"committer_email"`
	CommittedDate  gitDate `json:"committed_date"`
	// Trailers (last value per key) and ExtendedTrailers (every value) are filled only when
	// the listing asked for trailers, as GitLab parses them only then; otherwise both are {}.
	Trailers         map[string]string   `json:"trailers"`
	ExtendedTrailers map[string][]string `json:"extended_trailers"`
	WebURL           string              `json:"web_url"`
}

// CommitStats is a commit's line counts.
type CommitStats struct {
	Additions int `json:"additions"`
	Deletions int `json:"deletions"`
	Total     int `json:"total"`
}

// CommitWithStats is GitLab's CommitWithStats entity (listings with with_stats=true).
type CommitWithStats struct {
	Commit
	Stats CommitStats `json:"stats"`
}

// CommitDetail is GitLab's CommitDetail entity (a single commit, a created commit, a submodule
// update): stats when requested, and the CI fields, null while Anvil runs no pipelines.
type CommitDetail struct {
	Commit
	Stats        *CommitStats `json:"stats,omitempty"`
	Status       *string      `json:"status"`
	ProjectID    int          `json:"project_id"`
	LastPipeline *struct{}    `json:"last_pipeline"`
}

// CommitRef is GitLab's BasicRef entity: a branch or tag containing a commit.
type CommitRef struct {
	Type string `json:"type"`
	Name string `json:"name"`
}

// CommitSequence is GitLab's CommitSequence entity.
type CommitSequence struct {
	Count int `json:"count"`
}

// Commit renders a commit of project pr; withTrailers fills the trailer fields.
func (p *Presenter) Commit(pr *ent.Project, c *git.Commit, withTrailers bool) Commit {
	parents := make([]string, len(c.Parents))
	for i, id := range c.Parents {
		parents[i] = string(id)
	}
	trailers, extended := map[string]string{}, map[string][]string{}
	if withTrailers {
		if m := c.TrailerMap(); m != nil {
			trailers = m
		}
		if m := c.ExtendedTrailers(); m != nil {
			extended = m
		}
	}
	return Commit{
		ID: string(c.ID), ShortID: c.ID.Short(), CreatedAt: gitDate(c.Committer.When), ParentIDs: parents,
		Title: commitTitle(c), Message: c.Message,
		AuthorName: c.Author.Name, AuthorEmail: c.Author.Email, AuthoredDate: gitDate(c.Author.When),
		CommitterName: c.Committer.Name, CommitterEmail: c.Committer.Email, CommittedDate: gitDate(c.Committer.When),
		Trailers: trailers, ExtendedTrailers: extended,
		WebURL: p.ProjectWebURL(pr) + "/-/commit/" + string(c.ID),
	}
}

// commitTitle is GitLab's full_title: the first line of the message, or "No commit message".
func commitTitle(c *git.Commit) string {
	if strings.TrimSpace(c.Message) == "" {
		return "No commit message"
	}
	return c.Subject()
}

func statsOf(s git.CommitStats) CommitStats {
	return CommitStats{Additions: s.Additions, Deletions: s.Deletions, Total: s.Total()}
}

// CommitList renders a page of commits of proj: Commit, or CommitWithStats with withStats.
func (p *Presenter) CommitList(proj *ent.Project, items []*git.Commit, withStats, withTrailers bool) []any {
	out := make([]any, len(items))
	for i, c := range items {
		base := p.Commit(proj, c, withTrailers)
		if withStats {
			var st git.CommitStats
			if c.Stats != nil {
				st = *c.Stats
			}
			out[i] = CommitWithStats{Commit: base, Stats: statsOf(st)}
			continue
		}
		out[i] = base
	}
	return out
}

// CommitDetail renders a single commit with its stats (when d has them).
func (p *Presenter) CommitDetail(d *commits.Detail) CommitDetail {
	out := CommitDetail{Commit: p.Commit(d.Project, d.Commit, false), ProjectID: d.Project.ID}
	if d.Stats != nil {
		st := statsOf(*d.Stats)
		out.Stats = &st
	}
	return out
}

// CommitRefs renders the refs containing a commit.
func CommitRefs(refs []commits.Ref) []CommitRef {
	out := make([]CommitRef, len(refs))
	for i, r := range refs {
		out[i] = CommitRef{Type: r.Type, Name: r.Name}
	}
	return out
}
