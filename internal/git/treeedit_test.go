package git_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"anvil/internal/git"
	"anvil/internal/git/gittest"
)

// snapshot lists a tree as "mode path content" lines (submodules show their commit id).
func snapshot(t *testing.T, repo *gittest.Repo, tree git.ObjectID) []string {
	t.Helper()
	entries, err := repo.ListTree(ctx, string(tree), "", git.ListTreeOptions{Recursive: true})
	require.NoError(t, err)
	var out []string
	for _, e := range entries {
		switch e.Type {
		case git.TypeBlob:
			b, err := repo.ReadBlob(ctx, string(e.ID), -1)
			require.NoError(t, err)
			out = append(out, e.Mode+" "+e.Path+" "+string(b.Data))
		case git.TypeCommit:
			out = append(out, e.Mode+" "+e.Path+" "+string(e.ID))
		}
	}
	sort.Strings(out)
	return out
}

func TestRepository_editTree(t *testing.T) {
	t.Parallel()
	sub := git.ObjectID("1111111111111111111111111111111111111111")
	sub2 := git.ObjectID("2222222222222222222222222222222222222222")
	repo := gittest.NewRepo(t, gittest.Spec{Commits: []gittest.CommitSpec{{
		Label: "base",
		Files: map[string]string{"a.txt": "a\n", "dir/b.txt": "b\n", "dir/deep/c.txt": "c\n", "only/one.txt": "1\n"},
		Actions: []git.TreeAction{
			{Action: git.ActionCreate, Path: "run.sh", Content: []byte("#!/bin/sh\n")},
			{Action: git.ActionChmod, Path: "run.sh", Executable: true},
		},
	}}})
	// A submodule and a symlink, written with git itself.
	vendor := strings.TrimSpace(gittest.Git(t, repo.Path(), []byte("160000 commit "+string(sub)+"\tlib\x00"), "mktree", "-z", "--missing"))
	treeWithSub := strings.TrimSpace(gittest.Git(t, repo.Path(), []byte(
		"100644 blob "+strings.TrimSpace(gittest.Git(t, repo.Path(), []byte("target"), "hash-object", "-w", "--stdin"))+"\tlink-as-file\x00"+
			"120000 blob "+strings.TrimSpace(gittest.Git(t, repo.Path(), []byte("a.txt"), "hash-object", "-w", "--stdin"))+"\tlink\x00"+
			"040000 tree "+vendor+"\tvendor\x00"), "mktree", "-z"))
	base := "main"
	for _, tc := range []struct {
		desc    string
		base    string
		actions []git.TreeAction
		want    []string
		err     error
		index   int
	}{
		{desc: "no actions keeps the tree", actions: nil, want: []string{
			"100644 a.txt a\n", "100644 dir/b.txt b\n", "100644 dir/deep/c.txt c\n", "100644 only/one.txt 1\n", "100755 run.sh #!/bin/sh\n"}},
		{desc: "create in a new directory and update", actions: []git.TreeAction{
			{Action: git.ActionCreate, Path: "new/deeper/n.txt", Content: []byte("n\n")},
			{Action: git.ActionUpdate, Path: "dir/b.txt", Content: []byte("B\n")},
			{Action: git.ActionUpdate, Path: "run.sh", Content: []byte("#!/bin/sh\nexit 0\n")},
		}, want: []string{"100644 a.txt a\n", "100644 dir/b.txt B\n", "100644 dir/deep/c.txt c\n", "100644 new/deeper/n.txt n\n",
			"100644 only/one.txt 1\n", "100755 run.sh #!/bin/sh\nexit 0\n"}},
		{desc: "delete removes emptied directories", actions: []git.TreeAction{
			{Action: git.ActionDelete, Path: "only/one.txt"},
			{Action: git.ActionDelete, Path: "dir/deep/c.txt"},
		}, want: []string{"100644 a.txt a\n", "100644 dir/b.txt b\n", "100755 run.sh #!/bin/sh\n"}},
		{desc: "move keeps mode and content", actions: []git.TreeAction{
			{Action: git.ActionMove, PreviousPath: "run.sh", Path: "bin/run.sh"},
			{Action: git.ActionMove, PreviousPath: "dir/deep/c.txt", Path: "c.txt", Content: []byte("")},
		}, want: []string{"100644 a.txt a\n", "100644 c.txt ", "100644 dir/b.txt b\n", "100644 only/one.txt 1\n", "100755 bin/run.sh #!/bin/sh\n"}},
		{desc: "move onto itself with content", actions: []git.TreeAction{
			{Action: git.ActionMove, PreviousPath: "a.txt", Path: "a.txt", Content: []byte("A\n")},
		}, want: []string{"100644 a.txt A\n", "100644 dir/b.txt b\n", "100644 dir/deep/c.txt c\n", "100644 only/one.txt 1\n", "100755 run.sh #!/bin/sh\n"}},
		{desc: "chmod both ways", actions: []git.TreeAction{
			{Action: git.ActionChmod, Path: "run.sh", Executable: false},
			{Action: git.ActionChmod, Path: "a.txt", Executable: true},
		}, want: []string{"100644 dir/b.txt b\n", "100644 dir/deep/c.txt c\n", "100644 only/one.txt 1\n", "100644 run.sh #!/bin/sh\n", "100755 a.txt a\n"}},
		{desc: "actions see earlier actions", actions: []git.TreeAction{
			{Action: git.ActionCreate, Path: "x.txt", Content: []byte("1")},
			{Action: git.ActionUpdate, Path: "x.txt", Content: []byte("2")},
			{Action: git.ActionMove, PreviousPath: "x.txt", Path: "y/x.txt"},
			{Action: git.ActionDelete, Path: "a.txt"},
			{Action: git.ActionCreate, Path: "a.txt/now-a-dir.txt", Content: []byte("d")},
		}, want: []string{"100644 a.txt/now-a-dir.txt d", "100644 dir/b.txt b\n", "100644 dir/deep/c.txt c\n", "100644 only/one.txt 1\n",
			"100644 y/x.txt 2", "100755 run.sh #!/bin/sh\n"}},
		{desc: "from the empty tree", base: "-", actions: []git.TreeAction{
			{Action: git.ActionCreate, Path: "README", Content: nil},
		}, want: []string{"100644 README "}},
		{desc: "delete everything", actions: []git.TreeAction{
			{Action: git.ActionDelete, Path: "a.txt"}, {Action: git.ActionDelete, Path: "dir/b.txt"},
			{Action: git.ActionDelete, Path: "dir/deep/c.txt"}, {Action: git.ActionDelete, Path: "only/one.txt"},
			{Action: git.ActionDelete, Path: "run.sh"},
		}, want: nil},
		{desc: "submodule update", base: treeWithSub, actions: []git.TreeAction{
			{Action: git.ActionSubmodule, Path: "vendor/lib", SubmoduleCommit: sub2},
		}, want: []string{"100644 link-as-file target", "120000 link a.txt", "160000 vendor/lib " + string(sub2)}},

		{desc: "create existing file", actions: []git.TreeAction{{Action: git.ActionCreate, Path: "a.txt"}}, err: git.ErrFileExists},
		{desc: "create over a directory", actions: []git.TreeAction{{Action: git.ActionCreate, Path: "dir"}}, err: git.ErrDirectoryExists},
		{desc: "create under a file", actions: []git.TreeAction{{Action: git.ActionCreate, Path: "a.txt/x"}}, err: git.ErrFileExists},
		{desc: "update missing", actions: []git.TreeAction{{Action: git.ActionUpdate, Path: "nope.txt"}}, err: git.ErrFileNotFound},
		{desc: "update a directory", actions: []git.TreeAction{{Action: git.ActionUpdate, Path: "dir"}}, err: git.ErrFileNotFound},
		{desc: "delete missing", index: 1, actions: []git.TreeAction{
			{Action: git.ActionCreate, Path: "ok.txt"}, {Action: git.ActionDelete, Path: "dir/nope"}}, err: git.ErrFileNotFound},
		{desc: "delete under a file", actions: []git.TreeAction{{Action: git.ActionDelete, Path: "a.txt/b"}}, err: git.ErrFileNotFound},
		{desc: "move missing", actions: []git.TreeAction{{Action: git.ActionMove, PreviousPath: "nope", Path: "x"}}, err: git.ErrFileNotFound},
		{desc: "move onto existing", actions: []git.TreeAction{{Action: git.ActionMove, PreviousPath: "a.txt", Path: "dir/b.txt"}}, err: git.ErrFileExists},
		{desc: "move without source", actions: []git.TreeAction{{Action: git.ActionMove, Path: "x"}}, err: git.ErrInvalidPath},
		{desc: "chmod missing", actions: []git.TreeAction{{Action: git.ActionChmod, Path: "nope"}}, err: git.ErrFileNotFound},
		{desc: "chmod a symlink", base: treeWithSub, actions: []git.TreeAction{{Action: git.ActionChmod, Path: "link"}}, err: git.ErrInvalidArgument},
		{desc: "submodule on a file", base: treeWithSub, actions: []git.TreeAction{
			{Action: git.ActionSubmodule, Path: "link-as-file", SubmoduleCommit: sub2}}, err: git.ErrNotSubmodule},
		{desc: "submodule missing", actions: []git.TreeAction{{Action: git.ActionSubmodule, Path: "x", SubmoduleCommit: sub2}}, err: git.ErrFileNotFound},
		{desc: "submodule bad id", base: treeWithSub, actions: []git.TreeAction{{Action: git.ActionSubmodule, Path: "vendor/lib", SubmoduleCommit: "x"}}, err: git.ErrInvalidArgument},
		{desc: "update a submodule", base: treeWithSub, actions: []git.TreeAction{{Action: git.ActionUpdate, Path: "vendor/lib"}}, err: git.ErrInvalidArgument},
		{desc: "traversal", actions: []git.TreeAction{{Action: git.ActionCreate, Path: "../x"}}, err: git.ErrInvalidPath},
		{desc: "dot git", actions: []git.TreeAction{{Action: git.ActionCreate, Path: "sub/.git/config"}}, err: git.ErrInvalidPath},
		{desc: "empty path", actions: []git.TreeAction{{Action: git.ActionCreate, Path: ""}}, err: git.ErrInvalidPath},
		{desc: "leading slash", actions: []git.TreeAction{{Action: git.ActionCreate, Path: "/x"}}, err: git.ErrInvalidPath},
		{desc: "unknown action", actions: []git.TreeAction{{Action: "rename", Path: "x"}}, err: git.ErrInvalidArgument},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			b := base
			switch tc.base {
			case "-":
				b = ""
			case "":
			default:
				b = tc.base
			}
			tree, err := repo.EditTree(ctx, b, tc.actions)
			if tc.err != nil {
				require.ErrorIs(t, err, tc.err)
				var ae *git.ActionError
				require.ErrorAs(t, err, &ae)
				require.Equal(t, tc.index, ae.Index)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, snapshot(t, repo, tree))
			// Git agrees the result is well-formed: a strict fsck of a commit of it.
			c, err := repo.CommitTree(ctx, git.CommitTreeOptions{Tree: tree, Message: "m", Author: gittest.Author})
			require.NoError(t, err)
			gittest.Git(t, repo.Path(), nil, "update-ref", "refs/heads/check", string(c))
			if tc.base != treeWithSub {
				gittest.Git(t, repo.Path(), nil, "fsck", "--strict", "--no-dangling")
			}
		})
	}
	empty, err := repo.EditTree(ctx, "", nil)
	require.NoError(t, err)
	require.Equal(t, git.EmptyTreeOID, empty)
	_, err = os.Stat(filepath.Join(repo.Path(), "objects", "4b", "825dc642cb6eb9a060e54bf8d69288fbee4904"))
	require.NoError(t, err, "the empty tree is stored, not only known to git")
	_, err = repo.EditTree(ctx, "nope", nil)
	require.ErrorIs(t, err, git.ErrReferenceNotFound)
	_, err = repo.EditTree(ctx, "-x", nil)
	require.ErrorIs(t, err, git.ErrInvalidRevision)
	var ae *git.ActionError
	_, err = repo.EditTree(ctx, "main", []git.TreeAction{{Action: git.ActionCreate, Path: "a.txt"}})
	require.True(t, errors.As(err, &ae))
	require.Equal(t, `action 0 (create "a.txt"): a file with this name already exists`, err.Error())
}

func TestRepository_editTreeMatchesGitIndex(t *testing.T) {
	t.Parallel()
	// Tree ordering is subtle (directories sort as "name/"): the same files written through
	// git's own index must give the same tree id.
	names := []string{"a", "a-b", "a.b", "a/b", "a0", "b", "ab/c", "a b", "Z", "_x", "a!", "ä"}
	var actions []git.TreeAction
	var index strings.Builder
	repo := gittest.NewRepo(t, gittest.Spec{})
	blob := strings.TrimSpace(gittest.Git(t, repo.Path(), []byte("x"), "hash-object", "-w", "--stdin"))
	for _, n := range names {
		actions = append(actions, git.TreeAction{Action: git.ActionCreate, Path: n + "/f", Content: []byte("x")})
		index.WriteString("100644 " + blob + "\t" + n + "/f\x00")
	}
	tree, err := repo.EditTree(ctx, "", actions)
	require.NoError(t, err)

	want := gitWithIndex(t, repo.Path(), index.String())
	require.Equal(t, want, tree)
}

// gitWithIndex builds a tree the classic way: update-index into a temporary index file, then
// write-tree.
func gitWithIndex(t *testing.T, repo, indexInfo string) git.ObjectID {
	t.Helper()
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_INDEX_FILE=" + filepath.Join(t.TempDir(), "index")}
	run := func(stdin string, args ...string) string {
		cmd := exec.Command("git", append([]string{"--git-dir=" + repo}, args...)...)
		cmd.Env = env
		cmd.Stdin = strings.NewReader(stdin)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, string(out))
		return strings.TrimSpace(string(out))
	}
	run(indexInfo, "update-index", "--add", "-z", "--index-info")
	return git.ObjectID(run("", "write-tree"))
}
