package userapi_test

import (
	"context"
	"net/http"
	"strconv"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent/member"
	"anvil/ent/namespace"
	"anvil/ent/personalaccesstoken"
	"anvil/ent/user"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUsers_Delete checks DELETE /users/:id: what goes with the user, the Ghost User, sole
// group owners and hard_delete.
func TestUsers_Delete(t *testing.T) {
	in := servertest.Start(t)
	ctx := context.Background()
	c := in.DB.Client
	_, otherToken := in.NewUser(t, "other")

	t.Run("the user goes with its namespace, projects, memberships and tokens", func(t *testing.T) {
		u, token := in.NewUser(t, "leaver")
		ns := in.PersonalNamespace(t, u)
		p := in.NewProject(t, ns, "mine", "public")
		require.NoError(t, in.Services.Repos.Create(ctx, p, false, "", ""))
		repoExists := func() bool {
			ok, err := in.Services.Repos.Storage.Exists(p.RepositoryStorage, p.DiskPath)
			require.NoError(t, err)
			return ok
		}
		require.True(t, repoExists())
		in.AddProjectMember(t, p, u, 40)
		group := in.NewGroup(t, "club", "public", nil)
		in.AddGroupMember(t, group, u, 30)
		shared := in.NewProject(t, group, "shared", "public")
		require.NoError(t, c.Project.UpdateOneID(shared.ID).SetCreatorID(u.ID).Exec(ctx))
		require.NoError(t, c.Identity.Create().SetUserID(u.ID).SetProvider("github").SetExternUID("9").Exec(ctx))
		require.NoError(t, c.UserCustomAttribute.Create().SetUserID(u.ID).SetKey("k").SetValue("v").Exec(ctx))
		created, _ := in.NewUser(t, "created-by-leaver")
		require.NoError(t, c.User.UpdateOneID(created.ID).SetCreatedByID(u.ID).Exec(ctx))

		r := in.Do(t, "DELETE", "/users/"+strconv.Itoa(u.ID), servertest.RootToken, nil)
		require.Equal(t, http.StatusNoContent, r.Status, r.String())
		assert.Empty(t, r.Body)

		assert.Equal(t, 404, in.Do(t, "GET", "/users/"+strconv.Itoa(u.ID), servertest.RootToken, nil).Status)
		assert.Equal(t, 401, in.Do(t, "GET", "/user", token, nil).Status)
		exists, err := c.Namespace.Query().Where(namespace.ID(ns.ID)).Exist(ctx)
		require.NoError(t, err)
		assert.False(t, exists)
		_, err = c.Project.Get(ctx, p.ID)
		assert.Error(t, err)
		in.WaitJobs(t)
		assert.False(t, repoExists(), "the repository is removed with the project (by a job queued with the deletion)")
		n, err := c.Member.Query().Where(member.UserID(u.ID)).Count(ctx)
		require.NoError(t, err)
		assert.Zero(t, n)
		n, err = c.PersonalAccessToken.Query().Where(personalaccesstoken.UserID(u.ID)).Count(ctx)
		require.NoError(t, err)
		assert.Zero(t, n)
		n, err = c.Identity.Query().Count(ctx)
		require.NoError(t, err)
		assert.Zero(t, n)

		// Contributions move to the Ghost User; accounts it created keep existing.
		ghost, err := c.User.Query().Where(user.UserType("ghost")).Only(ctx)
		require.NoError(t, err)
		assert.Equal(t, "ghost", ghost.Username)
		assert.Equal(t, "Ghost User", ghost.Name)
		shared, err = c.Project.Get(ctx, shared.ID)
		require.NoError(t, err)
		assert.Equal(t, ghost.ID, *shared.CreatorID)
		created, err = c.User.Get(ctx, created.ID)
		require.NoError(t, err)
		assert.Nil(t, created.CreatedByID)
		exists, err = c.Namespace.Query().Where(namespace.ID(group.ID)).Exist(ctx)
		require.NoError(t, err)
		assert.True(t, exists)

		r = in.Do(t, "DELETE", "/users/"+strconv.Itoa(ghost.ID), servertest.RootToken, nil)
		assert.Equal(t, http.StatusForbidden, r.Status)
	})
	t.Run("a sole group owner needs hard_delete", func(t *testing.T) {
		u, _ := in.NewUser(t, "owner")
		group := in.NewGroup(t, "solo", "private", nil)
		sub := in.NewGroup(t, "inner", "private", group)
		p := in.NewProject(t, sub, "app", "private")
		require.NoError(t, c.Project.UpdateOneID(p.ID).SetCreatorID(u.ID).Exec(ctx))
		in.AddGroupMember(t, group, u, 50)
		co := in.NewGroup(t, "coowned", "private", nil)
		in.AddGroupMember(t, co, u, 50)
		second, _ := in.NewUser(t, "second")
		in.AddGroupMember(t, co, second, 50)
		path := "/users/" + strconv.Itoa(u.ID)

		r := in.Do(t, "DELETE", path, servertest.RootToken, nil)
		assert.Equal(t, http.StatusConflict, r.Status)
		assert.JSONEq(t, `{"message":"User cannot be removed while is the sole-owner of a group"}`, string(r.Body))

		r = in.Do(t, "DELETE", path+"?hard_delete=true", servertest.RootToken, nil)
		require.Equal(t, http.StatusNoContent, r.Status, r.String())
		for _, id := range []int{group.ID, sub.ID} {
			exists, err := c.Namespace.Query().Where(namespace.ID(id)).Exist(ctx)
			require.NoError(t, err)
			assert.False(t, exists)
		}
		exists, err := c.Namespace.Query().Where(namespace.ID(co.ID)).Exist(ctx)
		require.NoError(t, err)
		assert.True(t, exists)
		n, err := c.Member.Query().Where(member.NamespaceID(co.ID)).Count(ctx)
		require.NoError(t, err)
		assert.Equal(t, 1, n)
	})
	t.Run("hard_delete clears optional references", func(t *testing.T) {
		u, _ := in.NewUser(t, "hard")
		group := in.NewGroup(t, "keeps", "private", nil)
		p := in.NewProject(t, group, "kept", "private")
		require.NoError(t, c.Project.UpdateOneID(p.ID).SetCreatorID(u.ID).Exec(ctx))
		r := in.Do(t, "DELETE", "/users/"+strconv.Itoa(u.ID), servertest.RootToken, `{"hard_delete":true}`)
		require.Equal(t, http.StatusNoContent, r.Status, r.String())
		p, err := c.Project.Get(ctx, p.ID)
		require.NoError(t, err)
		assert.Nil(t, p.CreatorID)
	})
	t.Run("client-go DeleteUser", func(t *testing.T) {
		u, _ := in.NewUser(t, "gone")
		_, err := in.Client(t, servertest.RootToken).Users.DeleteUser(int64(u.ID))
		require.NoError(t, err)
		_, err = c.User.Get(ctx, u.ID)
		assert.Error(t, err)
	})
	t.Run("refusals", func(t *testing.T) {
		for _, tc := range []struct {
			desc, token, path string
			status            int
			body              string
		}{
			{"unknown user", servertest.RootToken, "/users/999", 404, `{"message":"404 User Not Found"}`},
			{"not an administrator", otherToken, "/users/1", 403, `{"message":"403 Forbidden"}`},
			{"anonymous", "", "/users/1", 401, `{"message":"401 Unauthorized"}`},
			{"bad hard_delete", servertest.RootToken, "/users/1?hard_delete=perhaps", 400, `{"error":"hard_delete is invalid"}`},
		} {
			r := in.Do(t, "DELETE", tc.path, tc.token, nil)
			assert.Equal(t, tc.status, r.Status, tc.desc)
			assert.JSONEq(t, tc.body, string(r.Body), tc.desc)
		}
	})
}
