package git

import "context"

// LogInProcess exposes Log's in-process walk: handled is false when Log runs git log instead.
func (r *Repository) LogInProcess(ctx context.Context, opts LogOptions) (commits []*Commit, handled bool, err error) {
	return r.logInProcess(ctx, opts)
}

// MaxWalkedCommits is the deepest page (Skip+Limit) Log walks in process.
const MaxWalkedCommits = maxWalkedCommits

// CommitDate exposes the committer date the walk orders commits by.
var CommitDate = commitDate
