package git_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"anvil/internal/git"
	"anvil/internal/git/gittest"
)

func TestParseSignature(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in          string
		name, email string
		unix        int64
		offset      int
	}{
		{"Jane Doe <jane@example.com> 1600000000 +0200", "Jane Doe", "jane@example.com", 1600000000, 7200},
		{"J <j@x> 1600000000 -0130", "J", "j@x", 1600000000, -5400},
		{"Odd <name> <e@x> 1 +0000", "Odd <name>", "e@x", 1, 0},
		{"No Date <n@x>", "No Date", "n@x", 0, 0},
		{"<only@mail> 5 +0100", "", "only@mail", 5, 3600},
		{"garbage", "garbage", "", 0, 0},
		{"Bad Zone <b@x> 10 +2", "Bad Zone", "b@x", 10, 0},
	} {
		t.Run(tc.in, func(t *testing.T) {
			s := git.ParseSignature(tc.in)
			require.Equal(t, tc.name, s.Name)
			require.Equal(t, tc.email, s.Email)
			if tc.unix == 0 && !strings.Contains(tc.in, " 0 ") {
				require.True(t, s.When.IsZero() || s.When.Unix() == 0)
				return
			}
			require.Equal(t, tc.unix, s.When.Unix())
			_, off := s.When.Zone()
			require.Equal(t, tc.offset, off)
		})
	}
}

func TestParseCommit(t *testing.T) {
	t.Parallel()
	raw := "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n" +
		"parent 1111111111111111111111111111111111111111\n" +
		"parent 2222222222222222222222222222222222222222\n" +
		"author Jane <jane@x> 1600000000 +0200\n" +
		"committer John <john@x> 1600000100 -0500\n" +
		"encoding ISO-8859-1\n" +
		"gpgsig -----BEGIN PGP SIGNATURE-----\n \n abc\n -----END PGP SIGNATURE-----\n" +
		"mergetag object 3333333333333333333333333333333333333333\n type commit\n" +
		"\n" +
		"Subject line\r\n\nBody.\n\nSigned-off-by: Jane <jane@x>\nFixes: #1\nFixes: #2\n"
	c, err := git.ParseCommit("abc", []byte(raw))
	require.NoError(t, err)
	require.Equal(t, git.ObjectID("4b825dc642cb6eb9a060e54bf8d69288fbee4904"), c.Tree)
	require.Equal(t, []git.ObjectID{"1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222"}, c.Parents)
	require.Equal(t, "Jane", c.Author.Name)
	require.Equal(t, time.Unix(1600000100, 0).Unix(), c.Committer.When.Unix())
	_, off := c.Committer.When.Zone()
	require.Equal(t, -5*3600, off)
	require.Equal(t, "ISO-8859-1", c.Encoding)
	require.Equal(t, "-----BEGIN PGP SIGNATURE-----\n\nabc\n-----END PGP SIGNATURE-----", c.Signature)
	require.Equal(t, "Subject line", c.Subject())
	require.Equal(t, "Subject line\r\n\nBody.\n\nSigned-off-by: Jane <jane@x>\nFixes: #1\nFixes: #2\n", c.Message)
	require.Equal(t, map[string]string{"Signed-off-by": "Jane <jane@x>", "Fixes": "#2"}, c.TrailerMap())
	require.Equal(t, map[string][]string{"Signed-off-by": {"Jane <jane@x>"}, "Fixes": {"#1", "#2"}}, c.ExtendedTrailers())

	_, err = git.ParseCommit("x", []byte("author a <b> 1 +0000\n\nmsg"))
	require.ErrorContains(t, err, "no tree header")
	_, err = git.ParseCommit("x", []byte(" continuation first\n"))
	require.Error(t, err)
	c, err = git.ParseCommit("x", []byte("tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor a <b> 1 +0000\ncommitter a <b> 1 +0000\n\nno newline"))
	require.NoError(t, err)
	require.Equal(t, "no newline", c.Message)
	require.Empty(t, c.Parents)
}

func TestParseTagObject(t *testing.T) {
	t.Parallel()
	raw := "object 1111111111111111111111111111111111111111\ntype commit\ntag v1\ntagger T <t@x> 1600000000 +0000\n\nRelease 1\n-----BEGIN PGP SIGNATURE-----\nsig\n-----END PGP SIGNATURE-----\n"
	tag, err := git.ParseTagObject("t", []byte(raw))
	require.NoError(t, err)
	require.Equal(t, git.ObjectID("1111111111111111111111111111111111111111"), tag.Object)
	require.Equal(t, git.TypeCommit, tag.Type)
	require.Equal(t, "v1", tag.Name)
	require.Equal(t, "T", tag.Tagger.Name)
	require.Equal(t, "Release 1\n", tag.Message)
	require.Equal(t, "-----BEGIN PGP SIGNATURE-----\nsig\n-----END PGP SIGNATURE-----\n", tag.Signature)
	_, err = git.ParseTagObject("t", []byte("type commit\n\nx"))
	require.Error(t, err)
}

func TestParseTree(t *testing.T) {
	t.Parallel()
	// Build a real tree with git and parse its raw content.
	repo := gittest.NewRepo(t, gittest.Spec{Commits: []gittest.CommitSpec{{
		Label: "c",
		Files: map[string]string{"a.txt": "a", "dir/b.txt": "b", "z": "z"},
		Actions: []git.TreeAction{
			{Action: git.ActionCreate, Path: "run.sh", Content: []byte("#!/bin/sh\n")},
			{Action: git.ActionChmod, Path: "run.sh", Executable: true},
		},
	}}})
	raw := gittest.Git(t, repo.Path(), nil, "cat-file", "tree", "main^{tree}")
	entries, err := git.ParseTree("root", []byte(raw))
	require.NoError(t, err)
	var got []string
	for _, e := range entries {
		got = append(got, e.Mode+" "+string(e.Type)+" "+string(e.ID)+"\t"+e.Path)
		require.EqualValues(t, -1, e.Size)
	}
	want := gittest.Git(t, repo.Path(), nil, "ls-tree", "main")
	want = strings.ReplaceAll(want, "\t", "\troot/")
	require.Equal(t, want, strings.Join(got, "\n")+"\n")

	_, err = git.ParseTree("", []byte("100644 name\x00short"))
	require.Error(t, err)
}
