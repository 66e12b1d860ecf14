package service_test

import (
	"context"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/git"
	"anvil/internal/git/gittest"
	"anvil/internal/service/commits"
	"anvil/internal/service/projects"
	"anvil/internal/service/protectedbranches"
	"anvil/internal/service/repofiles"
	"anvil/internal/service/wire"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNew_wiresEveryCollaborator walks every service service.New builds and checks that no
// collaborator it holds (pointer, interface, func, map, channel) is nil: a rule that depends on
// a collaborator can never be skipped for want of one.
func TestNew_wiresEveryCollaborator(t *testing.T) {
	in := servertest.Start(t)
	svcs := reflect.ValueOf(in.Services).Elem()
	for i := range svcs.NumField() {
		field := svcs.Type().Field(i)
		v := svcs.Field(i)
		if v.Kind() != reflect.Pointer || !strings.HasPrefix(v.Type().Elem().PkgPath(), "anvil/internal/service/") {
			continue
		}
		require.False(t, v.IsNil(), "Services.%s is not built", field.Name)
		checked := 0
		s := v.Elem()
		for j := range s.NumField() {
			f := s.Field(j)
			switch f.Kind() {
			case reflect.Pointer, reflect.Interface, reflect.Func, reflect.Map, reflect.Chan:
				checked++
				assert.False(t, isNil(f), "%s.%s is nil", field.Name, s.Type().Field(j).Name)
			}
		}
		assert.NotZero(t, checked, "Services.%s has collaborators", field.Name)
	}
}

// isNil reports whether v is nil or is an interface holding a nil pointer.
func isNil(v reflect.Value) bool {
	if v.IsNil() {
		return true
	}
	if v.Kind() == reflect.Interface {
		e := v.Elem()
		switch e.Kind() {
		case reflect.Pointer, reflect.Func, reflect.Map, reflect.Chan:
			return e.IsNil()
		}
	}
	return false
}

// TestConstructors_refuseMissingCollaborators: a service built without one of its
// collaborators fails at once, naming it, instead of serving without the rule it carries.
func TestConstructors_refuseMissingCollaborators(t *testing.T) {
	in := servertest.Start(t)
	s := in.Services
	var noGuard *protectedbranches.Service
	assert.PanicsWithValue(t, "commits: built without its branch guard", func() {
		commits.New(s.DB.Client, s.Policy, s.Projects, s.Repos, nil, "")
	})
	assert.PanicsWithValue(t, "commits: built without its branch guard", func() {
		commits.New(s.DB.Client, s.Policy, s.Projects, s.Repos, noGuard, "")
	}, "a typed nil is no collaborator either")
	assert.PanicsWithValue(t, "repofiles: built without its branch guard", func() {
		repofiles.New(s.Projects, s.Repos, noGuard)
	})
	assert.PanicsWithValue(t, "protectedbranches: built without its projects", func() {
		protectedbranches.New(s.DB.Client, s.Policy, nil, s.Settings, "")
	})
	assert.PanicsWithValue(t, "projects: Complete called twice", func() {
		s.Projects.Complete(projects.Later{Repos: s.Repos})
	})
	assert.PanicsWithValue(t, "projects: built without its repositories", func() {
		projects.New(s.DB.Client, s.Policy, s.Settings).Complete(projects.Later{})
	})
	assert.PanicsWithValue(t, "projects: built without its storage moves", func() {
		projects.New(s.DB.Client, s.Policy, s.Settings).Complete(projects.Later{Repos: s.Repos})
	})
	assert.True(t, wire.IsNil(map[string]int(nil)))
	assert.False(t, wire.IsNil(0))
}

// TestNew_commitsAndFilesHonourProtectedBranches builds the services as the server does and
// checks that every way of committing through them (commits, files, submodules) asks branch
// protection: a Developer may commit to an unprotected branch but not to a branch only
// Maintainers may push to.
func TestNew_commitsAndFilesHonourProtectedBranches(t *testing.T) {
	f := servertest.NewRepoFixture(t)
	s, ctx := f.In.Services, context.Background()
	p := f.Project(t, "guarded", "private")
	r := f.Repo(t, p)
	ref := strconv.Itoa(p.ID)
	base := servertest.Commit(t, r, "", "README.md", 0)
	// A submodule entry, which the git layer only moves (tests add one with git mktree).
	listing := gittest.Git(t, r.Path(), nil, "ls-tree", string(base)+"^{tree}") +
		"160000 commit " + strings.Repeat("12", 20) + "\tlib\n"
	tree := git.ObjectID(strings.TrimSpace(gittest.Git(t, r.Path(), []byte(listing), "mktree", "--missing")))
	head, err := r.CommitTree(ctx, git.CommitTreeOptions{Tree: tree, Parents: []git.ObjectID{base},
		Message: "add lib\n", Author: servertest.Author, Committer: servertest.Author})
	require.NoError(t, err)
	servertest.SetBranch(t, r, "main", head)
	servertest.SetBranch(t, r, "topic", head)
	maintainers := 40
	_, err = s.ProtectedBranches.Create(ctx, authz.System(f.Root), ref, protectedbranches.CreateInput{
		Name: "main", PushAccessLevel: &maintainers,
	})
	require.NoError(t, err)

	developer := &authz.Actor{User: f.Users["developer"]}
	commit := func(branch, file string) error {
		_, err := s.Commits.Create(ctx, developer, ref, commits.CreateInput{
			Branch: &branch, CommitMessage: ptr("add " + file),
			Actions: []commits.Action{{Action: ptr("create"), FilePath: &file, Content: ptr("x\n")}},
		})
		return err
	}
	file := func(branch, file string) error {
		_, err := s.Files.CreateFile(ctx, developer, ref, repofiles.WriteInput{
			Path: file, Branch: branch, CommitMessage: "add " + file, Content: "x\n", Encoding: "text",
		})
		return err
	}
	submodule := func(branch, sha string) error {
		_, err := s.Commits.UpdateSubmodule(ctx, developer, ref, commits.SubmoduleInput{
			Submodule: "lib", Branch: &branch, CommitSHA: &sha,
		})
		return err
	}

	const refusal = "You are not allowed to push into this branch"
	requireRefused(t, commit("main", "a.txt"), apperr.KindForbidden, refusal)
	requireRefused(t, file("main", "b.txt"), apperr.KindBadRequest, refusal)
	requireRefused(t, submodule("main", strings.Repeat("34", 20)), apperr.KindBadRequest, refusal)
	tip, ok, err := r.BranchTip(ctx, "main")
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, head, tip, "nothing reached the protected branch")

	require.NoError(t, commit("topic", "a.txt"))
	require.NoError(t, file("topic", "b.txt"))
	require.NoError(t, submodule("topic", strings.Repeat("34", 20)))
}

func requireRefused(t *testing.T, err error, kind apperr.Kind, text string) {
	t.Helper()
	e, ok := apperr.As(err)
	require.True(t, ok, "want a %s error, got %v", kind, err)
	assert.Equal(t, kind, e.Kind, "%v", err)
	assert.Equal(t, text, e.Text())
}

func ptr[T any](v T) *T { return &v }
