package versions

import (
	"context"
	"io"
	"time"

	"anvil/ent"
	"anvil/ent/mergerequestdiff"
	"anvil/ent/mergerequestdiffcommit"
	"anvil/ent/mergerequestdifffile"
	"anvil/internal/apperr"
	"anvil/internal/db"
	"anvil/internal/git"
	"anvil/internal/pagination"
)

// The reads below take a merge request the caller was already allowed to read (the merge
// request service's Find).

// List returns one page of a merge request's versions, newest first (GET .../versions).
func (s *Service) List(ctx context.Context, mr *ent.MergeRequest, page pagination.Offset) (pagination.Result[*ent.MergeRequestDiff], error) {
	q := db.ClientFrom(ctx, s.client).MergeRequestDiff.Query().Where(mergerequestdiff.MergeRequestID(mr.ID))
	total, err := q.Clone().Count(ctx)
	if err != nil {
		return pagination.Result[*ent.MergeRequestDiff]{}, err
	}
	rows, err := q.Order(ent.Desc(mergerequestdiff.FieldID)).Offset(page.Skip()).Limit(page.Limit()).All(ctx)
	if err != nil {
		return pagination.Result[*ent.MergeRequestDiff]{}, err
	}
	return pagination.OffsetResult(rows, total, page), nil
}

// Detail is one version with its commits (newest first) and files (in git's order).
type Detail struct {
	Version *ent.MergeRequestDiff
	Commits []*git.Commit
	Files   []*ent.MergeRequestDiffFile
}

// Get returns one version of a merge request with its commits and files; a version of
// another merge request is 404 Not found (GET .../versions/:version_id).
func (s *Service) Get(ctx context.Context, mr *ent.MergeRequest, versionID int) (*Detail, error) {
	c := db.ClientFrom(ctx, s.client)
	v, err := c.MergeRequestDiff.Query().
		Where(mergerequestdiff.ID(versionID), mergerequestdiff.MergeRequestID(mr.ID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.RecordNotFound()
	}
	if err != nil {
		return nil, err
	}
	d := &Detail{Version: v}
	if d.Commits, err = s.commitsOf(ctx, v, nil); err != nil {
		return nil, err
	}
	if d.Files, err = s.filesOf(ctx, v, nil); err != nil {
		return nil, err
	}
	return d, nil
}

// Files returns the changed files of the latest version, all of them or one page (GET
// .../diffs, .../changes); none before the first version.
func (s *Service) Files(ctx context.Context, mr *ent.MergeRequest, page *pagination.Offset) (pagination.Result[*ent.MergeRequestDiffFile], *ent.MergeRequestDiff, error) {
	var out pagination.Result[*ent.MergeRequestDiffFile]
	v, err := s.Latest(ctx, mr)
	if err != nil || v == nil {
		if page != nil {
			out.Page = *page
		}
		return out, v, err
	}
	files, err := s.filesOf(ctx, v, page)
	if err != nil {
		return out, nil, err
	}
	if page == nil {
		return pagination.Result[*ent.MergeRequestDiffFile]{Items: files, Total: len(files)}, v, nil
	}
	return pagination.OffsetResult(files, v.FilesCount, *page), v, nil
}

// Commits returns the commits of the latest version, newest first, all or one page (GET
// .../commits); none before the first version.
func (s *Service) Commits(ctx context.Context, mr *ent.MergeRequest, page *pagination.Offset) (pagination.Result[*git.Commit], error) {
	var out pagination.Result[*git.Commit]
	if page != nil {
		out.Page = *page
	}
	v, err := s.Latest(ctx, mr)
	if err != nil || v == nil {
		return out, err
	}
	commits, err := s.commitsOf(ctx, v, page)
	if err != nil {
		return out, err
	}
	if page == nil {
		return pagination.Result[*git.Commit]{Items: commits, Total: len(commits)}, nil
	}
	return pagination.OffsetResult(commits, v.CommitsCount, *page), nil
}

func (s *Service) filesOf(ctx context.Context, v *ent.MergeRequestDiff, page *pagination.Offset) ([]*ent.MergeRequestDiffFile, error) {
	q := db.ClientFrom(ctx, s.client).MergeRequestDiffFile.Query().
		Where(mergerequestdifffile.MergeRequestDiffID(v.ID)).Order(ent.Asc(mergerequestdifffile.FieldRelativeOrder))
	if page != nil {
		q.Offset(page.Skip()).Limit(page.Limit())
	}
	return q.All(ctx)
}

func (s *Service) commitsOf(ctx context.Context, v *ent.MergeRequestDiff, page *pagination.Offset) ([]*git.Commit, error) {
	q := db.ClientFrom(ctx, s.client).MergeRequestDiffCommit.Query().
		Where(mergerequestdiffcommit.MergeRequestDiffID(v.ID)).Order(ent.Asc(mergerequestdiffcommit.FieldRelativeOrder))
	if page != nil {
		q.Offset(page.Skip()).Limit(page.Limit())
	}
	rows, err := q.All(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]*git.Commit, len(rows))
	for i, r := range rows {
		out[i] = CommitOf(r)
	}
	return out, nil
}

// CommitOf turns a stored commit back into a commit (dates in UTC, as GitLab reads them from
// its table; trailers parsed from the message).
func CommitOf(r *ent.MergeRequestDiffCommit) *git.Commit {
	parents := make([]git.ObjectID, len(r.ParentIds))
	for i, p := range r.ParentIds {
		parents[i] = git.ObjectID(p)
	}
	return &git.Commit{
		ID: git.ObjectID(r.Sha), Parents: parents, Message: r.Message,
		Author:    git.Signature{Name: r.AuthorName, Email: r.AuthorEmail, When: r.AuthoredDate.In(time.UTC)},
		Committer: git.Signature{Name: r.CommitterName, Email: r.CommitterEmail, When: r.CommittedDate.In(time.UTC)},
		Trailers:  git.ParseTrailers(r.Message),
	}
}

// RawFiles reads the latest version's files from the repository instead of the stored rows
// (changes with access_raw_diffs): no file, line or byte limit, only the per-file patch limit.
// The files are built in memory, shaped as the stored ones.
func (s *Service) RawFiles(ctx context.Context, mr *ent.MergeRequest) ([]*ent.MergeRequestDiffFile, error) {
	v, err := s.Latest(ctx, mr)
	if err != nil || v == nil || v.HeadCommitSha == nil {
		return nil, err
	}
	target, err := db.ClientFrom(ctx, s.client).Project.Get(ctx, mr.ProjectID)
	if err != nil {
		return nil, err
	}
	repo, err := s.repos.Repository(target)
	if err != nil {
		return nil, err
	}
	limits := s.CurrentLimits(ctx)
	res, err := repo.Diff(ctx, str(v.BaseCommitSha), *v.HeadCommitSha, git.DiffOptions{MaxPatchBytes: limits.MaxPatchBytes - 1})
	if err != nil {
		return nil, err
	}
	rules, err := attributesAt(ctx, repo, git.ObjectID(*v.HeadCommitSha))
	if err != nil {
		return nil, err
	}
	out := make([]*ent.MergeRequestDiffFile, len(res.Files))
	for i, f := range res.Files {
		out[i] = fileRow(file{DiffFile: f, generated: isGenerated(rules, f.NewPath)}, v.ID, i)
	}
	return out, nil
}

// fileRow shapes a changed file as its stored row: binary and too-large files without a diff.
func fileRow(f file, diffID, order int) *ent.MergeRequestDiffFile {
	patch := f.Patch
	if f.Binary || f.TooLarge {
		patch = ""
	}
	return &ent.MergeRequestDiffFile{
		MergeRequestDiffID: diffID, RelativeOrder: order, OldPath: text(f.OldPath), NewPath: text(f.NewPath),
		AMode: mode(f.OldMode), BMode: mode(f.NewMode),
		NewFile: f.NewFile(), RenamedFile: f.RenamedFile(), DeletedFile: f.DeletedFile(),
		TooLarge: f.TooLarge, Binary: f.Binary, GeneratedFile: f.generated, Diff: text(patch),
	}
}

// RawDiff is a merge request's plain-text diff ready to stream (GitLab's raw_diffs): its
// latest version, base..head; nothing before the first version is recorded.
type RawDiff struct {
	repo     *git.Repository
	from, to string
}

// WriteTo streams the diff into w as git writes it.
func (d *RawDiff) WriteTo(ctx context.Context, w io.Writer) error {
	if d.repo == nil {
		return nil
	}
	return d.repo.RawDiff(ctx, w, d.from, d.to)
}

// RawDiff prepares the plain-text diff of mr's latest version (its diff_refs' base and head),
// read from the target project's repository, which keeps the version's commits.
func (s *Service) RawDiff(ctx context.Context, mr *ent.MergeRequest) (*RawDiff, error) {
	v, err := s.Latest(ctx, mr)
	if err != nil || v == nil || v.HeadCommitSha == nil {
		return &RawDiff{}, err
	}
	target, err := db.ClientFrom(ctx, s.client).Project.Get(ctx, mr.ProjectID)
	if err != nil {
		return nil, err
	}
	repo, err := s.repos.Repository(target)
	if err != nil {
		return nil, err
	}
	return &RawDiff{repo: repo, from: str(v.BaseCommitSha), to: *v.HeadCommitSha}, nil
}
