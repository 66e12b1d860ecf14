package commits

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"time"

	"anvil/ent"
	"anvil/ent/namespace"
	"anvil/ent/user"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/git"
	"anvil/internal/service/commits/changelog"
	"anvil/internal/service/projects"
	"anvil/internal/service/repos"
)

// Changelog defaults and limits (GitLab's).
const (
	DefaultTrailer       = "Changelog"
	DefaultChangelogFile = "CHANGELOG.md"
	// changelogCommitsLimit bounds the range a changelog covers.
	changelogCommitsLimit = 15000
	// changelogConfigLimit bounds the configuration file read.
	changelogConfigLimit = 1 << 20
	// changelogAttempts is how often a changelog commit is redone when the branch moved
	// meanwhile (the file is re-read each time so no concurrent change is lost).
	changelogAttempts = 3
)

// ChangelogInput is GET and POST /projects/:id/repository/changelog, in GitLab's names.
type ChangelogInput struct {
	// Version is the release's version (version), a semantic version, optionally "v"-prefixed.
	Version string
	// From is the commit the range starts after (from); nil means the tag of the newest older
	// stable version. To is the last commit (to); nil means Branch.
	From, To *string
	// Date is the release date (date); nil means now.
	Date *time.Time
	// Trailer selects commits (trailer, case-sensitive); "" means "Changelog".
	Trailer string
	// ConfigFile is the configuration's path (config_file); "" means
	// ".gitlab/changelog_config.yml". ConfigFileRef is the revision it is read at
	// (config_file_ref); "" means the default branch.
	ConfigFile, ConfigFileRef string
	// Branch receives the changelog commit and is the default To (branch); nil means the
	// default branch.
	Branch *string
	// File is the changelog file (file); "" means "CHANGELOG.md".
	File string
	// Message is the commit message (message); nil means "Add changelog for version <version>".
	Message *string
}

// changelogErr is GitLab's answer to a changelog that cannot be generated.
func changelogErr(err error) error {
	var ce *changelog.Error
	if errors.As(err, &ce) {
		return apperr.Unprocessable("Failed to generate the changelog: " + ce.Msg)
	}
	return err
}

// Changelog generates the release section of in.Version from the commits with the trailer
// and returns it, as a changelog file with only this section (GET .../changelog "notes").
func (s *Service) Changelog(ctx context.Context, actor *authz.Actor, projectRef string, in ChangelogInput) (string, error) {
	p, repo, err := s.open(ctx, actor, projectRef)
	if err != nil {
		return "", err
	}
	rel, err := s.release(ctx, actor, p, repo, in)
	if err != nil {
		return "", changelogErr(err)
	}
	notes, err := changelog.Insert("", rel)
	return notes, changelogErr(err)
}

// CommitChangelog generates the release section and commits it into in.File on the branch,
// placed by version among the file's existing sections; a file that already has the version's
// section is left alone (POST .../changelog).
func (s *Service) CommitChangelog(ctx context.Context, actor *authz.Actor, projectRef string, in ChangelogInput) error {
	p, repo, err := s.open(ctx, actor, projectRef)
	if err != nil {
		return err
	}
	if in.Branch == nil || *in.Branch == "" {
		head, err := repo.Head(ctx)
		if err != nil {
			return err
		}
		in.Branch = &head
	}
	if err := s.canPush(ctx, actor, p, *in.Branch, false); err != nil {
		if e, ok := apperr.As(err); ok && (e.Kind == apperr.KindForbidden || e.Kind == apperr.KindUnauthorized) {
			return apperr.Forbidden("You are not allowed to commit a changelog on this branch")
		}
		return err
	}
	file := in.File
	if file == "" {
		file = DefaultChangelogFile
	}
	if git.ValidatePath(file) != nil {
		return apperr.BadParam("file should be a valid file path")
	}
	rel, err := s.release(ctx, actor, p, repo, in)
	if err != nil {
		return changelogErr(err)
	}
	message := "Add changelog for version " + in.Version
	if in.Message != nil && *in.Message != "" {
		message = *in.Message
	}
	for attempt := 1; ; attempt++ {
		err := s.commitRelease(ctx, actor, p, repo, rel, *in.Branch, file, message)
		if err == nil || !errors.Is(err, git.ErrStaleRef) || attempt == changelogAttempts {
			if errors.Is(err, git.ErrStaleRef) {
				return apperr.Unprocessable("Failed to generate the changelog: Could not update refs/heads/" + *in.Branch + ". Please refresh and try again.")
			}
			return changelogErr(err)
		}
	}
}

// commitRelease writes one commit adding rel to file on branch, with a compare-and-swap on
// the branch; a moved branch fails with git.ErrStaleRef for the caller to retry.
func (s *Service) commitRelease(ctx context.Context, actor *authz.Actor, p *ent.Project, repo *git.Repository, rel *changelog.Release, branch, file, message string) error {
	tip, ok, err := repo.BranchTip(ctx, branch)
	if err != nil {
		return err
	}
	if !ok {
		return &changelog.Error{Msg: msgNotOnBranch}
	}
	action := git.ActionCreate
	content := ""
	blob, err := repo.ReadBlobAt(ctx, string(tip), file, -1)
	switch {
	case err == nil:
		action, content = git.ActionUpdate, string(blob.Data)
	case isMissing(err):
	default:
		return err
	}
	if rel.In(content) {
		return nil
	}
	updated, err := changelog.Insert(content, rel)
	if err != nil {
		return err
	}
	tree, err := repo.EditTree(ctx, string(tip), []git.TreeAction{{Action: action, Path: file, Content: []byte(updated)}})
	if err != nil {
		if e, ok := actionErr(err).(*apperr.Error); ok && e.Kind == apperr.KindBadRequest {
			return &changelog.Error{Msg: e.Message}
		}
		return err
	}
	_, committer, err := identities(actor, "", "")
	if err != nil {
		return err
	}
	_, err = s.repos.CommitToBranch(ctx, actor, p, repo, repos.BranchCommit{Branch: branch, Old: tip, Commit: git.CommitTreeOptions{
		Tree: tree, Parents: []git.ObjectID{tip}, Message: message, Author: committer, Committer: committer,
	}})
	return err
}

// release builds the release section: configuration, range, and the commits of the range that
// carry the trailer, minus commits reverted within the range.
func (s *Service) release(ctx context.Context, actor *authz.Actor, p *ent.Project, repo *git.Repository, in ChangelogInput) (*changelog.Release, error) {
	head, err := repo.Head(ctx)
	if err != nil {
		return nil, err
	}
	branch := head
	if in.Branch != nil && *in.Branch != "" {
		branch = *in.Branch
	}
	cfg, err := s.changelogConfig(ctx, repo, in, head)
	if err != nil {
		return nil, err
	}
	from := ""
	if in.From != nil && *in.From != "" {
		from = *in.From
	} else {
		tags, err := repo.Tags(ctx, git.ListRefsOptions{})
		if err != nil {
			return nil, err
		}
		list := make([]changelog.Tag, 0, len(tags))
		for _, t := range tags {
			if t.TargetType == git.TypeCommit {
				list = append(list, changelog.Tag{Name: t.Name, Commit: string(t.TargetID)})
			}
		}
		prev, ok, err := changelog.PreviousTag(in.Version, cfg.TagRegex, list)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, &changelog.Error{Msg: "The commit start range is unspecified, and no previous tag could be found to use instead"}
		}
		from = prev.Commit
	}
	to := branch
	if in.To != nil && *in.To != "" {
		to = *in.To
	}
	fromID, err1 := repo.ResolveCommit(ctx, from)
	toID, err2 := repo.ResolveCommit(ctx, to)
	if err1 != nil || err2 != nil {
		for _, e := range []error{err1, err2} {
			if e != nil && !isMissing(e) {
				return nil, e
			}
		}
		return nil, &changelog.Error{Msg: "Invalid or not found commit value in the given range"}
	}
	rangeSpec := string(fromID) + ".." + string(toID)
	n, err := repo.CountCommits(ctx, git.LogOptions{Revisions: []string{rangeSpec}})
	if err != nil {
		return nil, err
	}
	if n > changelogCommitsLimit {
		return nil, &changelog.Error{Msg: "The commits range exceeds 15000 elements."}
	}
	commits, err := repo.Log(ctx, git.LogOptions{Revisions: []string{rangeSpec}, Limit: changelogCommitsLimit})
	if err != nil {
		return nil, err
	}
	date := time.Now().UTC()
	if in.Date != nil {
		date = *in.Date
	}
	trailer := in.Trailer
	if trailer == "" {
		trailer = DefaultTrailer
	}
	rel := changelog.NewRelease(in.Version, date, cfg)
	authors := s.newAuthorCache(actor, p, cfg.IncludeGroups)
	full := projects.FullPath(p)
	reverted := map[git.ObjectID]bool{}
	for _, c := range commits {
		// Commits come newest first, so a revert is seen before the commit it reverts.
		if reverted[c.ID] {
			continue
		}
		if id, ok := revertedCommit(c.Message); ok {
			reverted[id] = true
		}
		trailers := c.TrailerMap()
		category, ok := trailers[trailer]
		if !ok {
			continue
		}
		author, err := authors.get(ctx, c.Author.Email)
		if err != nil {
			return nil, err
		}
		rel.Add(changelog.Entry{
			Title: shortTitle(c), Category: category, Trailers: trailers, Author: author,
			CommitReference: full + "@" + string(c.ID),
			CommitWebURL:    s.baseURL + "/" + full + "/-/commit/" + string(c.ID),
		})
	}
	return rel, nil
}

// changelogConfig reads the configuration file, or returns the defaults when there is none.
func (s *Service) changelogConfig(ctx context.Context, repo *git.Repository, in ChangelogInput, head string) (*changelog.Config, error) {
	path := in.ConfigFile
	if path == "" {
		path = changelog.DefaultConfigFile
	}
	if git.ValidatePath(path) != nil {
		return nil, apperr.BadParam("config_file should be a valid file path")
	}
	ref := in.ConfigFileRef
	if ref == "" {
		ref = head
	}
	if git.ValidateRevision(ref) != nil {
		return nil, apperr.Invalid("config_file_ref")
	}
	blob, err := repo.ReadBlobAt(ctx, ref, path, changelogConfigLimit)
	if err != nil {
		if isMissing(err) {
			return changelog.DefaultConfig(), nil
		}
		return nil, err
	}
	return changelog.ParseConfig(blob.Data)
}

// revertedCommit finds "This reverts commit <sha>" at the start of a line of a message.
func revertedCommit(msg string) (git.ObjectID, bool) {
	m := revertRe.FindStringSubmatch(msg)
	if m == nil {
		return "", false
	}
	return git.ObjectID(toLower(m[1])), true
}

// authorCache resolves commit author emails to users once per email.
type authorCache struct {
	s       *Service
	actor   *authz.Actor
	project *ent.Project
	groups  []string
	groupNS []*ent.Namespace
	loaded  bool
	byEmail map[string]*changelog.Author
}

func (s *Service) newAuthorCache(actor *authz.Actor, p *ent.Project, groups []string) *authorCache {
	return &authorCache{s: s, actor: actor, project: p, groups: groups, byEmail: map[string]*changelog.Author{}}
}

// get returns the author entry of a commit email: nil when no user has it; contributor when
// the user is not a member of the project; credit for contributors and members of the
// configured include_groups the caller can read.
func (c *authorCache) get(ctx context.Context, email string) (*changelog.Author, error) {
	if a, ok := c.byEmail[email]; ok {
		return a, nil
	}
	client := db.ClientFrom(ctx, c.s.client)
	u, err := client.User.Query().Where(user.Or(user.EmailEqualFold(email), user.CommitEmailEqualFold(email))).First(ctx)
	if ent.IsNotFound(err) || email == "" {
		c.byEmail[email] = nil
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	level, err := c.s.policy.ProjectAccess(ctx, authz.System(u), c.project)
	if err != nil {
		return nil, err
	}
	a := &changelog.Author{Reference: "@" + u.Username, Contributor: level < authz.Guest}
	a.Credit = a.Contributor
	if !a.Credit {
		if err := c.loadGroups(ctx); err != nil {
			return nil, err
		}
		for _, ns := range c.groupNS {
			l, err := c.s.policy.GroupAccess(ctx, authz.System(u), ns)
			if err != nil {
				return nil, err
			}
			if l >= authz.Guest {
				a.Credit = true
				break
			}
		}
	}
	c.byEmail[email] = a
	return a, nil
}

// loadGroups finds the include_groups the caller may read (others give no credit).
func (c *authorCache) loadGroups(ctx context.Context) error {
	if c.loaded || len(c.groups) == 0 {
		c.loaded = true
		return nil
	}
	c.loaded = true
	rows, err := db.ClientFrom(ctx, c.s.client).Namespace.Query().
		Where(namespace.FullPathIn(c.groups...), namespace.KindEQ(namespace.KindGroup)).All(ctx)
	if err != nil {
		return err
	}
	for _, ns := range rows {
		if c.s.policy.Group(ctx, c.actor, ns, authz.ReadGroup) == nil {
			c.groupNS = append(c.groupNS, ns)
		}
	}
	return nil
}

var revertRe = regexp.MustCompile(`(?im)^This reverts commit ([0-9a-f]{40})`)

func toLower(s string) string { return strings.ToLower(s) }

// shortTitle is GitLab's Commit#title: the full title, or when it is 100 characters or longer
// its first 80 cut back to a word boundary, with "…".
func shortTitle(c *git.Commit) string {
	t := []rune(title(c))
	if len(t) < 100 {
		return string(t)
	}
	cut := string(t[:80])
	if i := strings.LastIndex(cut, " "); i > 0 {
		cut = cut[:i]
	}
	return cut + "…"
}
