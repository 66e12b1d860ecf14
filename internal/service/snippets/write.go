package snippets

import (
	"context"
	"strings"

	"anvil/ent"
	"anvil/ent/snippet"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/git"
	"anvil/internal/git/storage"
)

// Commit messages of the commits the API makes, GitLab's.
const (
	initialCommitMessage = "Initial commit"
	updateCommitMessage  = "Update snippet"
)

// defaultBranch is the branch of new snippet repositories (GitLab's default branch name).
const defaultBranch = "main"

// CreateInput is POST /snippets and POST /projects/:id/snippets: files[] (each a create), or
// the older file_name with content.
type CreateInput struct {
	Title       string
	Description *string
	// Visibility is private, internal or public; empty is internal, GitLab's default for
	// personal snippets (the project form requires it).
	Visibility string
	Files      []FileAction
	FileName   string
	Content    *string
	// UserAgent and IPAddress describe the creating request (GitLab's user agent detail).
	UserAgent, IPAddress string
}

// UpdateInput is PUT /snippets/:id and PUT /projects/:id/snippets/:snippet_id; nil fields are
// left alone. Files changes a snippet's files with actions; FileName and Content change the
// only file of a single-file snippet.
type UpdateInput struct {
	Title, Description, Visibility *string
	FileName, Content              *string
	Files                          []FileAction
}

// errMultipleFiles refuses file_name and content on a snippet of several files.
var errMultipleFiles = apperr.Refused("To update Snippets with multiple files, you must use the `files` parameter")

// validateTitle checks a title as GitLab's model does.
func validateTitle(title string) error {
	if strings.TrimSpace(title) == "" {
		return apperr.FieldError("title", "can't be blank")
	}
	if len([]rune(title)) > 255 {
		return apperr.FieldError("title", "is too long (maximum is 255 characters)")
	}
	return nil
}

// Create creates a personal snippet (projectRef empty) or a snippet of project projectRef
// (create_snippet: Reporters and up), its repository and the first commit of its files, and
// returns it loaded. If the files cannot be committed, nothing is kept.
func (s *Service) Create(ctx context.Context, actor *authz.Actor, projectRef string, in CreateInput) (*ent.Snippet, error) {
	var projectID *int
	if projectRef != "" {
		proj, level, err := s.ProjectFor(ctx, actor, projectRef)
		if err != nil {
			return nil, err
		}
		if actor.IsAnonymous() {
			return nil, apperr.Unauthorized()
		}
		if !authz.CanProject(actor, proj, level, authz.CreateSnippet) {
			return nil, apperr.Forbidden("")
		}
		projectID = &proj.ID
	} else if actor.IsAnonymous() {
		return nil, apperr.Unauthorized()
	}
	actions := in.Files
	if actions == nil {
		actions = []FileAction{{FilePath: in.FileName, Content: in.Content}}
	}
	for i := range actions {
		actions[i].Action = "create"
	}
	edits, err := treeActions(actions, nil)
	if err != nil {
		return nil, err
	}
	if err := validateTitle(in.Title); err != nil {
		return nil, err
	}
	visibility := snippet.VisibilityInternal
	if in.Visibility != "" {
		visibility = snippet.Visibility(in.Visibility)
	}
	name, err := s.storage.Pick()
	if err != nil {
		return nil, err
	}
	var id int
	var created string // the new repository's path, removed again if the creation fails
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		sn, err := c.Snippet.Create().SetTitle(in.Title).SetNillableDescription(in.Description).
			SetVisibility(visibility).SetAuthorID(actor.UserID()).SetNillableProjectID(projectID).
			SetFileName(edits[0].Path).SetDefaultBranch(defaultBranch).SetRepositoryStorage(name).
			SetUserAgent(in.UserAgent).SetIPAddress(in.IPAddress).Save(ctx)
		if err != nil {
			return err
		}
		id = sn.ID
		rel := storage.SnippetHashedPath(int64(sn.ID))
		repo, err := s.storage.Create(ctx, name, rel, defaultBranch)
		if err != nil {
			return err
		}
		created = rel
		files, err := commitFiles(ctx, repo, sn, actor, initialCommitMessage, edits)
		if err != nil {
			return repositoryError(true, err)
		}
		return c.Snippet.UpdateOneID(sn.ID).SetDiskPath(rel).SetFiles(files).Exec(ctx)
	})
	if err != nil {
		if created != "" {
			if rerr := s.storage.Remove(context.WithoutCancel(ctx), name, created); rerr != nil {
				s.log.WarnContext(ctx, "snippet repository left behind", "storage", name, "disk_path", created, "err", rerr)
			}
		}
		return nil, err
	}
	return Load(s.client.Snippet.Query().Where(snippet.ID(id))).Only(ctx)
}

// UpdateInProject changes snippet idText of project projectRef: its author or a Maintainer
// (update_snippet), never in an archived project.
func (s *Service) UpdateInProject(ctx context.Context, actor *authz.Actor, projectRef, idText string, in UpdateInput) (*ent.Snippet, error) {
	proj, level, err := s.ProjectFor(ctx, actor, projectRef)
	if err != nil {
		return nil, err
	}
	if actor.IsAnonymous() {
		return nil, apperr.Unauthorized()
	}
	sn, err := s.findIn(ctx, actor, proj, level, idText)
	if err != nil {
		return nil, err
	}
	if !authz.CanProjectSnippet(actor, proj, level, sn, authz.UpdateSnippet) {
		return nil, apperr.Forbidden("")
	}
	return s.update(ctx, actor, sn, in)
}

// Update changes the actor's snippet idText (PUT /snippets/:id finds among the actor's own
// snippets).
func (s *Service) Update(ctx context.Context, actor *authz.Actor, idText string, in UpdateInput) (*ent.Snippet, error) {
	sn, can, err := s.findOwn(ctx, actor, idText, authz.UpdateSnippet)
	if err != nil {
		return nil, err
	}
	if !can {
		return nil, apperr.Forbidden("")
	}
	return s.update(ctx, actor, sn, in)
}

// update writes the change: the attributes, and a commit when files change.
func (s *Service) update(ctx context.Context, actor *authz.Actor, sn *ent.Snippet, in UpdateInput) (*ent.Snippet, error) {
	if (in.FileName != nil || in.Content != nil) && len(sn.Files) > 1 {
		return nil, errMultipleFiles
	}
	actions := in.Files
	if actions == nil && (in.FileName != nil || in.Content != nil) {
		actions = legacyActions(sn, in.FileName, in.Content)
	}
	var edits []git.TreeAction
	if len(actions) > 0 {
		var err error
		if edits, err = treeActions(actions, sn.Files); err != nil {
			return nil, err
		}
	}
	if in.Title != nil {
		if err := validateTitle(*in.Title); err != nil {
			return nil, err
		}
	}
	err := db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		upd := c.Snippet.UpdateOneID(sn.ID).SetNillableTitle(in.Title).SetNillableDescription(in.Description)
		if in.Visibility != nil {
			upd.SetVisibility(snippet.Visibility(*in.Visibility))
		}
		if len(edits) > 0 {
			repo, err := s.repository(sn)
			if err != nil {
				return err
			}
			files, err := commitFiles(ctx, repo, sn, actor, updateCommitMessage, edits)
			if err != nil {
				return repositoryError(false, err)
			}
			upd.SetFiles(files).SetFileName(files[0])
		}
		return upd.Exec(ctx)
	})
	if err != nil {
		return nil, err
	}
	return Load(s.client.Snippet.Query().Where(snippet.ID(sn.ID))).Only(ctx)
}

// legacyActions turns file_name and content into the action on a single-file snippet's file:
// a move when file_name names another path (with the new content if given), else an update of
// the content; nothing when neither changes anything.
func legacyActions(sn *ent.Snippet, fileName, content *string) []FileAction {
	current := sn.FileName
	if len(sn.Files) > 0 {
		current = sn.Files[0]
	}
	if fileName != nil && *fileName != "" && *fileName != current {
		return []FileAction{{Action: "move", PreviousPath: current, FilePath: *fileName, Content: content}}
	}
	if content == nil {
		return nil
	}
	return []FileAction{{Action: "update", FilePath: current, Content: content}}
}

// DeleteInProject deletes snippet idText of project projectRef (admin_snippet: Maintainers,
// and authors who are Reporters).
func (s *Service) DeleteInProject(ctx context.Context, actor *authz.Actor, projectRef, idText string) error {
	proj, level, err := s.ProjectFor(ctx, actor, projectRef)
	if err != nil {
		return err
	}
	if actor.IsAnonymous() {
		return apperr.Unauthorized()
	}
	sn, err := s.findIn(ctx, actor, proj, level, idText)
	if err != nil {
		return err
	}
	if !authz.CanProjectSnippet(actor, proj, level, sn, authz.AdminSnippet) {
		return apperr.Forbidden("")
	}
	return s.delete(ctx, sn)
}

// Delete deletes the actor's snippet idText.
func (s *Service) Delete(ctx context.Context, actor *authz.Actor, idText string) error {
	sn, can, err := s.findOwn(ctx, actor, idText, authz.AdminSnippet)
	if err != nil {
		return err
	}
	if !can {
		return apperr.Forbidden("")
	}
	return s.delete(ctx, sn)
}

// delete removes the row and queues the removal of the repository in the same transaction.
func (s *Service) delete(ctx context.Context, sn *ent.Snippet) error {
	return db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		if err := c.Snippet.DeleteOneID(sn.ID).Exec(ctx); err != nil {
			return err
		}
		if err := s.observer.SnippetsDeleted(ctx, []int{sn.ID}); err != nil {
			return err
		}
		return s.queueRemoval(ctx, sn)
	})
}

// OnProjectDelete is the projects service's delete hook: a deleted project's snippets go with
// it, their repositories removed once the deletion commits.
func (s *Service) OnProjectDelete(ctx context.Context, c *ent.Client, p *ent.Project) error {
	rows, err := c.Snippet.Query().Where(snippet.ProjectID(p.ID)).
		Select(snippet.FieldID, snippet.FieldRepositoryStorage, snippet.FieldDiskPath).All(ctx)
	if err != nil {
		return err
	}
	if _, err := c.Snippet.Delete().Where(snippet.ProjectID(p.ID)).Exec(ctx); err != nil {
		return err
	}
	ids := make([]int, 0, len(rows))
	for _, sn := range rows {
		ids = append(ids, sn.ID)
	}
	if err := s.observer.SnippetsDeleted(ctx, ids); err != nil {
		return err
	}
	for _, sn := range rows {
		if err := s.queueRemoval(ctx, sn); err != nil {
			return err
		}
	}
	return nil
}

// repository opens a snippet's repository.
func (s *Service) repository(sn *ent.Snippet) (*git.Repository, error) {
	if sn.DiskPath == "" {
		return nil, apperr.NotFound("Snippet")
	}
	return s.storage.Repository(sn.RepositoryStorage, sn.DiskPath)
}
