package git

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"

	"anvil/internal/git/gitcmd"
)

// Contributor aggregates the non-merge commits of one author email.
type Contributor struct {
	// Name is the author name of the contributor's newest commit.
	Name  string
	Email string
	// Commits counts non-merge commits.
	Commits int
	// Additions and Deletions sum the commits' line counts when asked for, else 0.
	Additions, Deletions int
}

// ContributorsOptions select Contributors' input.
type ContributorsOptions struct {
	// Revision is the commit whose history is counted ("" means HEAD).
	Revision string
	// WithStats sums added and deleted lines (slower: every commit is diffed).
	WithStats bool
}

// Contributors groups the non-merge commits reachable from Revision by author email (exact
// match), in order of each author's newest commit. Commits are read as stored (no .mailmap).
func (r *Repository) Contributors(ctx context.Context, opts ContributorsOptions) ([]Contributor, error) {
	cmd := gitcmd.New("log", "--no-merges", "--no-color", "--format=tformat:%x01%ae%x00%an")
	if opts.WithStats {
		cmd.Flag("--numstat", "-M", "--no-ext-diff", "--no-textconv")
	}
	rev := opts.Revision
	if rev == "" {
		rev = "HEAD"
	}
	if err := ValidateRevision(rev); err != nil {
		return nil, err
	}
	out, err := r.output(ctx, cmd.Arg(rev).Paths())
	if err != nil {
		return nil, revisionErr(err, "contributors")
	}
	var list []Contributor
	index := map[string]int{}
	cur := -1
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		if rec, ok := strings.CutPrefix(line, "\x01"); ok {
			email, name, _ := strings.Cut(rec, "\x00")
			i, seen := index[email]
			if !seen {
				i = len(list)
				index[email] = i
				list = append(list, Contributor{Name: name, Email: email})
			}
			list[i].Commits++
			cur = i
			continue
		}
		add, rest, ok1 := strings.Cut(line, "\t")
		del, _, ok2 := strings.Cut(rest, "\t")
		if !ok1 || !ok2 || cur < 0 {
			continue
		}
		if a, err := strconv.Atoi(add); err == nil {
			list[cur].Additions += a
		}
		if d, err := strconv.Atoi(del); err == nil {
			list[cur].Deletions += d
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("contributors: %w", err)
	}
	return list, nil
}

// Size returns the bytes the repository's files take on disk (what du reports for the
// directory; GitLab's repository_size), without running git.
func (r *Repository) Size(ctx context.Context) (int64, error) {
	var total int64
	err := filepath.WalkDir(r.path, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.Type().IsRegular() {
			info, err := d.Info()
			if err != nil {
				return err
			}
			total += info.Size()
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("repository size: %w", err)
	}
	return total, nil
}
