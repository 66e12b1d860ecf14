package authz

import (
	"anvil/ent"
	"anvil/ent/predicate"
	"anvil/ent/project"
	"anvil/ent/snippet"
)

// Snippet abilities follow GitLab's PersonalSnippetPolicy and ProjectSnippetPolicy: a snippet's
// own visibility narrows what its project (for a project snippet) allows.
//
//   - Personal snippets: public ones are read by everyone, internal ones by signed-in users who
//     are not external, private ones by their author; the author and administrators update and
//     delete them.
//   - Project snippets: read_snippet of the project (readable, snippets feature available) and
//     then the snippet's visibility: public for every reader of the project, internal for
//     signed-in users who are not external, private for project members; authors and
//     administrators always read their own. Authors update their snippets, Maintainers every
//     snippet (update_snippet); deletion is admin_snippet (Maintainers, and authors who are
//     still Reporters). An archived project takes every change away.

// isSnippetAuthor reports whether a wrote s.
func isSnippetAuthor(a *Actor, s *ent.Snippet) bool {
	return !a.IsAnonymous() && s.AuthorID != nil && *s.AuthorID == a.UserID()
}

// CanPersonalSnippet decides ReadSnippet, UpdateSnippet or AdminSnippet on a personal snippet.
func CanPersonalSnippet(a *Actor, s *ent.Snippet, ability Ability) bool {
	owner := a.IsAdmin() || isSnippetAuthor(a, s)
	switch ability {
	case ReadSnippet:
		return owner || canSeeVisibility(a, string(s.Visibility))
	case UpdateSnippet, AdminSnippet:
		return owner
	}
	return false
}

// CanProjectSnippet decides ReadSnippet, UpdateSnippet or AdminSnippet on a snippet of p, where
// the actor's level is level.
func CanProjectSnippet(a *Actor, p *ent.Project, level Level, s *ent.Snippet, ability Ability) bool {
	if a.IsAdmin() {
		level = Admin
	}
	if !canReadProject(a, p, level) || !CanProject(a, p, level, ReadSnippet) {
		return false
	}
	author := isSnippetAuthor(a, s)
	readable := level >= Guest || author || canSeeVisibility(a, string(s.Visibility))
	switch ability {
	case ReadSnippet:
		return readable
	case UpdateSnippet:
		return readable && !p.Archived && (author || CanProject(a, p, level, UpdateSnippet))
	case AdminSnippet:
		return readable && !p.Archived && (CanProject(a, p, level, AdminSnippet) || (author && level >= Reporter))
	}
	return false
}

// VisibleSnippetsIn selects the snippets the actor may read (the finder's form of
// CanPersonalSnippet and CanProjectSnippet's ReadSnippet): all for administrators; personal
// snippets by visibility or authorship; project snippets of projects whose snippets the actor
// may read, by visibility, membership or authorship.
func VisibleSnippetsIn(a *Actor, s *Scope) predicate.Snippet {
	if a.IsAdmin() {
		return snippet.IDGT(0)
	}
	open := []snippet.Visibility{snippet.VisibilityPublic}
	if !a.IsAnonymous() && !a.IsExternal() {
		open = append(open, snippet.VisibilityInternal)
	}
	shown := []predicate.Snippet{snippet.VisibilityIn(open...)}
	if !a.IsAnonymous() {
		shown = append(shown, snippet.AuthorID(a.UserID()))
	}
	personal := snippet.And(snippet.ProjectIDIsNil(), snippet.Or(shown...))
	readable := project.And(project.PendingDelete(false), VisibleProjectsIn(a, s),
		FeatureAvailableIn(a, s, FeatureSnippets))
	inProject := snippet.And(snippet.HasProjectWith(readable),
		snippet.Or(append(shown, snippet.HasProjectWith(ProjectsWithLevelIn(a, s, Guest)))...))
	return snippet.Or(personal, inProject)
}
