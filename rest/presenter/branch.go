package presenter

import (
	"net/url"
	"strings"

	"anvil/ent"
	"anvil/internal/service/branches"
)

// Branch is GitLab's Branch entity: a branch with its tip commit and the flags the caller sees.
type Branch struct {
	Name               string `json:"name"`
	Commit             Commit `json:"commit"`
	Merged             bool   `json:"merged"`
	Protected          bool   `json:"protected"`
	DevelopersCanPush  bool   `json:"developers_can_push"`
	DevelopersCanMerge bool   `json:"developers_can_merge"`
	CanPush            bool   `json:"can_push"`
	Default            bool   `json:"default"`
	WebURL             string `json:"web_url"`
}

// Branch renders a branch of project pr.
func (p *Presenter) Branch(pr *ent.Project, b branches.Branch) Branch {
	return Branch{
		Name: b.Name, Commit: p.Commit(pr, b.Commit, false),
		Merged: b.Merged, Protected: b.Protected,
		DevelopersCanPush: b.DevelopersCanPush, DevelopersCanMerge: b.DevelopersCanMerge,
		CanPush: b.CanPush, Default: b.Default,
		WebURL: p.ProjectWebURL(pr) + "/-/tree/" + escapeRefPath(b.Name),
	}
}

// Branches renders a page of branches of project pr.
func (p *Presenter) Branches(pr *ent.Project, bs []branches.Branch) []Branch {
	out := make([]Branch, len(bs))
	for i, b := range bs {
		out[i] = p.Branch(pr, b)
	}
	return out
}

// escapeRefPath escapes a ref name for a web URL path, keeping its slashes as the tree route
// does ("feature/x" stays "feature/x").
func escapeRefPath(name string) string {
	parts := strings.Split(name, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}
