package versions

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"anvil/ent"
	"anvil/ent/mergerequestdiff"
	"anvil/internal/db"
	"anvil/internal/git"
)

// Version states (GitLab's older values are never written). A version is collected with its
// files, overflow when a limit cut them, empty when it has no file change (GitLab's initial
// state, which its save_diffs keeps when the diff is empty), and without_files once its files
// are deleted: the older versions of a merged merge request (GitLab's clean!).
const (
	StateCollected    = "collected"
	StateOverflow     = "overflow"
	StateEmpty        = "empty"
	StateWithoutFiles = "without_files"
)

// Default diff limits (GitLab's application settings defaults), used when a setting is unset.
const (
	defaultMaxFiles      = 1000
	defaultMaxLines      = 50000
	defaultMaxPatchBytes = 200 << 10
	// bytesPerFile is GitLab's average patch size: the byte limit is max files × 5 KB.
	bytesPerFile = 5 << 10
	// maxCommits bounds the commits a version stores.
	maxCommits = 100000
	// insertBatch keeps bulk inserts under the databases' bound-parameter limits.
	insertBatch = 400
)

// Limits are the diff limits a version is collected within.
type Limits struct {
	MaxFiles, MaxLines, MaxBytes, MaxPatchBytes int
}

// CurrentLimits reads diff_max_files, diff_max_lines and diff_max_patch_bytes.
func (s *Service) CurrentLimits(ctx context.Context) Limits {
	l := Limits{
		MaxFiles:      s.settings.Int(ctx, "diff_max_files"),
		MaxLines:      s.settings.Int(ctx, "diff_max_lines"),
		MaxPatchBytes: s.settings.Int(ctx, "diff_max_patch_bytes"),
	}
	if l.MaxFiles <= 0 {
		l.MaxFiles = defaultMaxFiles
	}
	if l.MaxLines <= 0 {
		l.MaxLines = defaultMaxLines
	}
	if l.MaxPatchBytes <= 0 {
		l.MaxPatchBytes = defaultMaxPatchBytes
	}
	l.MaxBytes = l.MaxFiles * bytesPerFile
	return l
}

// gitOptions maps the limits onto git.Diff's: GitLab stops when the running line or byte
// count reaches its limit (>=), git.Diff when it passes it (>), hence the one less; a patch
// of diff_max_patch_bytes or more is too large.
func (l Limits) gitOptions() git.DiffOptions {
	return git.DiffOptions{MaxFiles: l.MaxFiles, MaxLines: l.MaxLines - 1, MaxBytes: l.MaxBytes - 1, MaxPatchBytes: l.MaxPatchBytes - 1}
}

// ErrNoSource: the source branch (or the source project) is gone, so no version is recorded.
var ErrNoSource = errors.New("merge request source branch not found")

// Record takes a new diff version of mr when its source or target head moved since the latest
// version (none otherwise; nil is returned) and points the merge request at it: sha,
// latest_diff_id and merge_status back to unchecked. It runs in the transaction of ctx when
// there is one (a merge request's creation), else in its own. authorID is who moved the
// source branch (the added commits' system note), nil when unknown.
func (s *Service) Record(ctx context.Context, mr *ent.MergeRequest, authorID *int) (*ent.MergeRequestDiff, error) {
	c := db.ClientFrom(ctx, s.client)
	target, err := c.Project.Get(ctx, mr.ProjectID)
	if err != nil {
		return nil, err
	}
	if mr.SourceProjectID == nil {
		return nil, ErrNoSource
	}
	source := target
	if *mr.SourceProjectID != target.ID {
		if source, err = c.Project.Get(ctx, *mr.SourceProjectID); err != nil {
			if ent.IsNotFound(err) {
				return nil, ErrNoSource
			}
			return nil, err
		}
	}
	repo, err := s.repos.Repository(target)
	if err != nil {
		return nil, err
	}
	srcRepo := repo
	if source != target {
		if srcRepo, err = s.repos.Repository(source); err != nil {
			return nil, err
		}
	}
	head, ok, err := srcRepo.BranchTip(ctx, mr.SourceBranch)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ErrNoSource
	}
	if srcRepo != repo {
		// The version is read in the target repository: bring the fork's commits over.
		if err := repo.FetchFrom(ctx, srcRepo, git.FetchOptions{Objects: []git.ObjectID{head}}); err != nil {
			return nil, err
		}
	}
	start, ok, err := repo.BranchTip(ctx, mr.TargetBranch)
	if err != nil {
		return nil, err
	}
	if !ok {
		start = ""
	}
	if mr.LatestDiffID != nil {
		latest, err := c.MergeRequestDiff.Get(ctx, *mr.LatestDiffID)
		if err != nil && !ent.IsNotFound(err) {
			return nil, err
		}
		if latest != nil && str(latest.HeadCommitSha) == string(head) && str(latest.StartCommitSha) == string(start) {
			return nil, nil
		}
	}
	v, err := s.collect(ctx, repo, head, start)
	if err != nil {
		return nil, err
	}
	if err := s.keepAround(ctx, repo, mr, v); err != nil {
		return nil, err
	}
	return s.save(ctx, mr, authorID, v)
}

// collected is a version read from git, not yet stored.
type collected struct {
	head, base, start git.ObjectID
	patchID           git.ObjectID
	commits           []*git.Commit
	files             []file
	overflow          bool
}

// file is one changed file as stored.
type file struct {
	git.DiffFile
	generated bool
}

// collect reads a version: the merge base, the commits start..head (newest first), the files
// base..head within the limits, the patch id and the generated files.
func (s *Service) collect(ctx context.Context, repo *git.Repository, head, start git.ObjectID) (*collected, error) {
	v := &collected{head: head, start: start}
	if start != "" {
		mb, err := repo.MergeBase(ctx, string(start), string(head))
		switch {
		case errors.Is(err, git.ErrUnrelatedHistories):
			// Unrelated histories: everything in the source is new.
		case err != nil:
			return nil, err
		default:
			v.base = mb
		}
	}
	revs := []string{string(head)}
	if start != "" {
		revs = append(revs, "^"+string(start))
	}
	commits, err := repo.Log(ctx, git.LogOptions{Revisions: revs, Limit: maxCommits})
	if err != nil {
		return nil, err
	}
	v.commits = commits
	limits := s.CurrentLimits(ctx)
	res, err := repo.Diff(ctx, string(v.base), string(head), limits.gitOptions())
	if err != nil {
		return nil, err
	}
	v.overflow = res.Overflow
	if len(res.Files) > 0 {
		if v.patchID, err = repo.PatchID(ctx, string(v.base), string(head)); err != nil {
			return nil, err
		}
	}
	rules, err := attributesAt(ctx, repo, head)
	if err != nil {
		return nil, err
	}
	v.files = make([]file, len(res.Files))
	for i, f := range res.Files {
		v.files[i] = file{DiffFile: f, generated: isGenerated(rules, f.NewPath)}
	}
	return v, nil
}

// maxAttributesBytes bounds the .gitattributes read.
const maxAttributesBytes = 100 << 10

// attributesAt reads the generated-file rules of the root .gitattributes at head.
func attributesAt(ctx context.Context, repo *git.Repository, head git.ObjectID) ([]attrRule, error) {
	b, err := repo.ReadBlobAt(ctx, string(head), ".gitattributes", maxAttributesBytes)
	switch {
	case err == nil:
		return parseAttributes(string(b.Data)), nil
	case errors.Is(err, git.ErrPathNotFound), errors.Is(err, git.ErrObjectNotFound), errors.Is(err, git.ErrReferenceNotFound):
		return nil, nil
	}
	return nil, fmt.Errorf("read .gitattributes: %w", err)
}

// keepAround keeps the version's commits alive after force pushes (refs/keep-around/<sha>, as
// GitLab) and points refs/merge-requests/:iid/head at the head.
func (s *Service) keepAround(ctx context.Context, repo *git.Repository, mr *ent.MergeRequest, v *collected) error {
	updates := []git.RefUpdate{{Name: "refs/merge-requests/" + strconv.Itoa(mr.Iid) + "/head", NewOID: v.head}}
	seen := map[git.ObjectID]bool{}
	for _, id := range []git.ObjectID{v.head, v.base, v.start} {
		if id != "" && !seen[id] {
			seen[id] = true
			updates = append(updates, git.RefUpdate{Name: "refs/keep-around/" + string(id), NewOID: id})
		}
	}
	return repo.UpdateRefs(ctx, updates...)
}

// save stores the version with its commits and files and points the merge request at it.
func (s *Service) save(ctx context.Context, mr *ent.MergeRequest, authorID *int, v *collected) (*ent.MergeRequestDiff, error) {
	var out *ent.MergeRequestDiff
	err := db.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Client) error {
		var previous *ent.MergeRequestDiff
		if mr.LatestDiffID != nil {
			p, err := tx.MergeRequestDiff.Get(ctx, *mr.LatestDiffID)
			if err != nil && !ent.IsNotFound(err) {
				return err
			}
			previous = p
		}
		state := StateCollected
		switch {
		case v.overflow:
			state = StateOverflow
		case len(v.files) == 0:
			state = StateEmpty
		}
		realSize := strconv.Itoa(len(v.files))
		if v.overflow {
			realSize += "+"
		}
		create := tx.MergeRequestDiff.Create().SetMergeRequestID(mr.ID).SetHeadCommitSha(string(v.head)).
			SetState(state).SetRealSize(realSize).SetCommitsCount(len(v.commits)).SetFilesCount(len(v.files))
		if v.base != "" {
			create.SetBaseCommitSha(string(v.base))
		}
		if v.start != "" {
			create.SetStartCommitSha(string(v.start))
		}
		if v.patchID != "" {
			create.SetPatchIDSha(string(v.patchID))
		}
		d, err := create.Save(ctx)
		if err != nil {
			return err
		}
		rows, err := saveCommits(ctx, tx, d.ID, v.commits)
		if err != nil {
			return err
		}
		if err := saveFiles(ctx, tx, d.ID, v.files); err != nil {
			return err
		}
		if err := tx.MergeRequest.UpdateOneID(mr.ID).SetSha(string(v.head)).SetLatestDiffID(d.ID).
			SetMergeStatus("unchecked").Exec(ctx); err != nil {
			return err
		}
		if previous != nil {
			for _, f := range s.versions {
				if err := f(ctx, mr, authorID, previous, d); err != nil {
					return err
				}
			}
		}
		out = d // before the added commits: a target move may add none
		if len(s.added) > 0 && previous != nil {
			added, err := addedCommits(ctx, tx, previous, rows)
			if err != nil || len(added) == 0 {
				return err
			}
			for _, f := range s.added {
				if err := f(ctx, mr, authorID, previous, d, added); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	id := out.ID
	mr.Sha, mr.LatestDiffID, mr.MergeStatus = out.HeadCommitSha, &id, "unchecked"
	// A merge request loaded with its versions (its creation's observers) sees the new one.
	mr.Edges.Diffs = append(mr.Edges.Diffs, out)
	return out, nil
}

// addedCommits are the commits of the new version that the previous one did not have.
func addedCommits(ctx context.Context, tx *ent.Client, previous *ent.MergeRequestDiff, rows []*ent.MergeRequestDiffCommit) ([]*ent.MergeRequestDiffCommit, error) {
	old, err := tx.MergeRequestDiff.QueryCommits(previous).Select("sha").Strings(ctx)
	if err != nil {
		return nil, err
	}
	had := make(map[string]bool, len(old))
	for _, sha := range old {
		had[sha] = true
	}
	var added []*ent.MergeRequestDiffCommit
	for _, r := range rows {
		if !had[r.Sha] {
			added = append(added, r)
		}
	}
	return added, nil
}

func saveCommits(ctx context.Context, tx *ent.Client, diffID int, commits []*git.Commit) ([]*ent.MergeRequestDiffCommit, error) {
	var rows []*ent.MergeRequestDiffCommit
	for lo := 0; lo < len(commits); lo += insertBatch {
		hi := min(lo+insertBatch, len(commits))
		batch := make([]*ent.MergeRequestDiffCommitCreate, 0, hi-lo)
		for i, c := range commits[lo:hi] {
			parents := make([]string, len(c.Parents))
			for j, p := range c.Parents {
				parents[j] = string(p)
			}
			batch = append(batch, tx.MergeRequestDiffCommit.Create().SetMergeRequestDiffID(diffID).
				SetRelativeOrder(lo+i).SetSha(string(c.ID)).SetParentIds(parents).SetMessage(text(c.Message)).
				SetAuthorName(text(c.Author.Name)).SetAuthorEmail(text(c.Author.Email)).SetAuthoredDate(c.Author.When.UTC()).
				SetCommitterName(text(c.Committer.Name)).SetCommitterEmail(text(c.Committer.Email)).
				SetCommittedDate(c.Committer.When.UTC()))
		}
		saved, err := tx.MergeRequestDiffCommit.CreateBulk(batch...).Save(ctx)
		if err != nil {
			return nil, err
		}
		rows = append(rows, saved...)
	}
	return rows, nil
}

func saveFiles(ctx context.Context, tx *ent.Client, diffID int, files []file) error {
	for lo := 0; lo < len(files); lo += insertBatch {
		hi := min(lo+insertBatch, len(files))
		batch := make([]*ent.MergeRequestDiffFileCreate, 0, hi-lo)
		for i, f := range files[lo:hi] {
			r := fileRow(f, diffID, lo+i)
			batch = append(batch, tx.MergeRequestDiffFile.Create().SetMergeRequestDiffID(diffID).
				SetRelativeOrder(r.RelativeOrder).SetOldPath(r.OldPath).SetNewPath(r.NewPath).
				SetAMode(r.AMode).SetBMode(r.BMode).
				SetNewFile(r.NewFile).SetRenamedFile(r.RenamedFile).SetDeletedFile(r.DeletedFile).
				SetTooLarge(r.TooLarge).SetBinary(r.Binary).SetGeneratedFile(r.GeneratedFile).SetDiff(r.Diff))
		}
		if err := tx.MergeRequestDiffFile.CreateBulk(batch...).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// mode is a mode as GitLab stores it (Gitaly's integer in octal): a missing side is "0".
func mode(m string) string {
	if strings.Trim(m, "0") == "" {
		return "0"
	}
	return m
}

// text makes a value storable in a text column: valid UTF-8 (GitLab replaces invalid bytes
// with U+FFFD too), without NUL, which PostgreSQL refuses.
func text(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return strings.ReplaceAll(s, "\x00", "\uFFFD")
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// Latest returns the newest version of a merge request, nil when it has none.
func (s *Service) Latest(ctx context.Context, mr *ent.MergeRequest) (*ent.MergeRequestDiff, error) {
	c := db.ClientFrom(ctx, s.client)
	if mr.LatestDiffID != nil {
		d, err := c.MergeRequestDiff.Get(ctx, *mr.LatestDiffID)
		if err == nil || !ent.IsNotFound(err) {
			return d, err
		}
	}
	d, err := c.MergeRequestDiff.Query().Where(mergerequestdiff.MergeRequestID(mr.ID)).
		Order(ent.Desc(mergerequestdiff.FieldID)).First(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return d, err
}
