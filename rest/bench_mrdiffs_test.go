package rest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/git/gittest"
	"anvil/internal/service/projects"
)

// benchMRFiles is the size of the benchmarked merge request: files changed, lines each.
const (
	benchMRFiles = 1000
	benchMRLines = 20
)

// BenchmarkMergeRequestDiffsVsGit times reading the diffs of a merge request that changes
// 1,000 files (20 lines each) through HTTP next to `git diff base head` on the same
// repository: the whole version in one answer (GET .../versions/:version_id, 1,000 diffs),
// and the ten pages of GET .../diffs?per_page=100 in a row. The target is at most 1.25× git.
func BenchmarkMergeRequestDiffsVsGit(b *testing.B) {
	ctx := context.Background()
	in := servertest.Start(b)
	u, token := in.NewUser(b, "mr-owner")
	name, vis := "mrbench", "private"
	p, _, err := in.Services.Projects.Create(ctx, &authz.Actor{User: u}, projects.CreateInput{
		Attributes: projects.Attributes{Name: &name, Path: &name, Visibility: &vis}, InitializeWithReadme: true,
	})
	if err != nil {
		b.Fatal(err)
	}
	in.WaitJobs(b)
	repo, err := in.Services.Repos.Repository(p)
	if err != nil {
		b.Fatal(err)
	}
	main, err := repo.Branch(ctx, "main")
	if err != nil {
		b.Fatal(err)
	}
	files := make(map[string]string, benchMRFiles)
	for i := range benchMRFiles {
		var sb strings.Builder
		for l := range benchMRLines {
			fmt.Fprintf(&sb, "file %d line %d: the quick brown fox jumps over the lazy dog\n", i, l)
		}
		files[fmt.Sprintf("dir%02d/file%04d.txt", i%50, i)] = sb.String()
	}
	head := gittest.WriteCommit(b, repo, gittest.Write{Base: main.Commit.ID, Parents: []git.ObjectID{main.Commit.ID}, Files: files})
	gittest.SetRef(b, repo, git.BranchRef("big"), head)
	mrBase := fmt.Sprintf("%s/api/v4/projects/%d/merge_requests", in.URL, p.ID)
	r := in.Do(b, "POST", fmt.Sprintf("/projects/%d/merge_requests", p.ID), token,
		`{"source_branch":"big","target_branch":"main","title":"Big"}`)
	if r.Status != 201 {
		b.Fatalf("create merge request: %d %s", r.Status, r.Body)
	}
	r = in.Do(b, "GET", fmt.Sprintf("/projects/%d/merge_requests/1/versions", p.ID), token, nil)
	var versions []struct {
		ID   int    `json:"id"`
		Base string `json:"base_commit_sha"`
		Head string `json:"head_commit_sha"`
	}
	if err := json.Unmarshal(r.Body, &versions); err != nil || len(versions) != 1 {
		b.Fatalf("versions: %v %s", err, r.Body)
	}
	v := versions[0]
	client := &http.Client{}
	gitDiff := func() error {
		_, err := rawGit(repo.Path(), io.Discard, "diff", v.Base, v.Head)
		return err
	}
	b.Run("version", func(b *testing.B) {
		url := mrBase + "/1/versions/" + strconv.Itoa(v.ID)
		var body strings.Builder
		if err := apiGet(client, url, token, &body); err != nil {
			b.Fatal(err)
		}
		var full struct {
			Diffs []json.RawMessage `json:"diffs"`
		}
		if err := json.Unmarshal([]byte(body.String()), &full); err != nil || len(full.Diffs) != benchMRFiles {
			b.Fatalf("version: %d diffs, %v", len(full.Diffs), err)
		}
		measurePair(b, 0, func() error { return apiGet(client, url, token, io.Discard) }, gitDiff)
	})
	b.Run("diffs-pages", func(b *testing.B) {
		measurePair(b, 0, func() error {
			for page := 1; page <= benchMRFiles/100; page++ {
				if err := apiGet(client, mrBase+"/1/diffs?per_page=100&page="+strconv.Itoa(page), token, io.Discard); err != nil {
					return err
				}
			}
			return nil
		}, gitDiff)
	})
}
