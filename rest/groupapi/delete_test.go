package groupapi_test

import (
	"context"
	"net/http"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent/groupgrouplink"
	"anvil/ent/member"
	"anvil/ent/namespace"
	"anvil/ent/project"
	"anvil/ent/projectgrouplink"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGroups_Delete_removesTree(t *testing.T) {
	in := servertest.Start(t)
	owner, tok := in.NewUser(t, "owner")
	dev, _ := in.NewUser(t, "dev")
	top := in.NewGroup(t, "doomed", "private", nil)
	sub := in.NewGroup(t, "sub", "private", top)
	deep := in.NewGroup(t, "deep", "private", sub)
	keep := in.NewGroup(t, "doomed-not", "private", nil)
	outside := in.NewGroup(t, "outside", "private", nil)
	in.AddGroupMember(t, top, owner, 50)
	in.AddGroupMember(t, deep, dev, 30)
	in.AddGroupMember(t, keep, owner, 50)
	p1 := in.NewProject(t, top, "p1", "private")
	p2 := in.NewProject(t, deep, "p2", "private")
	survivor := in.NewProject(t, outside, "survivor", "private")
	in.AddProjectMember(t, p2, dev, 30)
	ctx := context.Background()
	c := in.DB.Client
	require.NoError(t, c.Project.UpdateOne(survivor).SetForkedFromID(p1.ID).Exec(ctx))
	require.NoError(t, c.GroupGroupLink.Create().SetSharedGroupID(sub.ID).SetSharedWithGroupID(outside.ID).SetGroupAccess(30).Exec(ctx))
	require.NoError(t, c.GroupGroupLink.Create().SetSharedGroupID(outside.ID).SetSharedWithGroupID(deep.ID).SetGroupAccess(30).Exec(ctx))
	require.NoError(t, c.ProjectGroupLink.Create().SetProjectID(survivor.ID).SetGroupID(sub.ID).SetGroupAccess(20).Exec(ctx))
	require.NoError(t, c.ProjectGroupLink.Create().SetProjectID(p1.ID).SetGroupID(outside.ID).SetGroupAccess(20).Exec(ctx))

	r := in.Do(t, "DELETE", "/groups/doomed", tok, nil)
	require.Equal(t, http.StatusAccepted, r.Status, r.String())
	assert.JSONEq(t, `{"message":"202 Accepted"}`, string(r.Body))

	ids := []int{top.ID, sub.ID, deep.ID}
	n, err := c.Namespace.Query().Where(namespace.IDIn(ids...)).Count(ctx)
	require.NoError(t, err)
	assert.Zero(t, n, "group and descendants")
	n, err = c.Project.Query().Where(project.IDIn(p1.ID, p2.ID)).Count(ctx)
	require.NoError(t, err)
	assert.Zero(t, n, "projects")
	n, err = c.Member.Query().Where(member.Or(member.NamespaceIDIn(ids...), member.ProjectIDIn(p1.ID, p2.ID))).Count(ctx)
	require.NoError(t, err)
	assert.Zero(t, n, "memberships")
	n, err = c.GroupGroupLink.Query().Where(groupgrouplink.Or(groupgrouplink.SharedGroupIDIn(ids...), groupgrouplink.SharedWithGroupIDIn(ids...))).Count(ctx)
	require.NoError(t, err)
	assert.Zero(t, n, "group shares")
	n, err = c.ProjectGroupLink.Query().Where(projectgrouplink.Or(projectgrouplink.GroupIDIn(ids...), projectgrouplink.ProjectIDIn(p1.ID))).Count(ctx)
	require.NoError(t, err)
	assert.Zero(t, n, "project shares")
	s, err := c.Project.Get(ctx, survivor.ID)
	require.NoError(t, err)
	assert.Nil(t, s.ForkedFromID, "forks outside lose their link")
	assert.True(t, must(c.Namespace.Query().Where(namespace.ID(keep.ID)).Exist(ctx)), "prefix sibling untouched")
	assert.Equal(t, 404, in.Do(t, "GET", "/groups/doomed", tok, nil).Status)

	t.Run("client-go", func(t *testing.T) {
		_, err := in.Client(t, tok).Groups.DeleteGroup("doomed-not", nil)
		require.NoError(t, err)
		assert.False(t, must(c.Namespace.Query().Where(namespace.ID(keep.ID)).Exist(ctx)))
	})
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
