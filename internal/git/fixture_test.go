package git_test

import (
	"context"
	"testing"

	"anvil/internal/git"
	"anvil/internal/git/gittest"
)

var ctx = context.Background()

// history builds the standard repository of these tests:
//
//	init ── readme ── merge ── rename     (main)
//	    \           /
//	     feature ──┘                      (feature)
//
// with tags v1.0 (annotated, at init) and v1.1 (lightweight, at readme).
func history(t *testing.T) *gittest.Repo {
	t.Helper()
	return gittest.NewRepo(t, gittest.Spec{
		Commits: []gittest.CommitSpec{
			{Label: "init", Files: map[string]string{
				"README.md":      "# Project\n\nHello.\n",
				"docs/guide.md":  "line 1\nline 2\nline 3\nline 4\nline 5\n",
				"assets/bin.dat": "\x00\x01\x02binary",
			}, Actions: []git.TreeAction{
				{Action: git.ActionCreate, Path: "run.sh", Content: []byte("#!/bin/sh\necho hi\n")},
				{Action: git.ActionChmod, Path: "run.sh", Executable: true},
			}},
			{Label: "feature", Branch: "feature", Parents: []string{"init"},
				Files:   map[string]string{"feature.txt": "feature\n"},
				Message: "Add feature\n\nLonger description.\n\nSigned-off-by: Jane Doe <jane@example.com>\nIssue: #1\n"},
			{Label: "readme", Files: map[string]string{"README.md": "# Project\n\nHello, world.\n"},
				Author: &git.Signature{Name: "Alice", Email: "alice@example.com"}},
			{Label: "merge", Parents: []string{"readme", "feature"}, Files: map[string]string{"feature.txt": "feature\n"},
				Message: "Merge branch 'feature'\n"},
			{Label: "rename", Actions: []git.TreeAction{{Action: git.ActionMove, PreviousPath: "docs/guide.md", Path: "docs/manual.md"}}},
		},
		Tags: []gittest.TagSpec{
			{Name: "v1.0", Target: "init", Message: "Version 1.0"},
			{Name: "v1.1", Target: "readme"},
		},
	})
}
