package projectapi_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var visibilityLevels = []string{"private", "internal", "public"}

// canSee is who may read a project of each visibility when every member role is a project
// member and non-member, external and anonymous are not.
func canSee(role, visibility string) bool {
	switch role {
	case "anonymous", "external":
		return visibility == "public"
	case "non-member":
		return visibility != "private"
	}
	return true
}

// matrixWorld is a public group with a private, an internal and a public project; every
// member role is a direct member of each project.
func matrixWorld(t *testing.T) (*servertest.Instance, *actors, map[string]*ent.Project) {
	in := servertest.Start(t)
	a := newActors(t, in, "x")
	g := in.NewGroup(t, "mx", "public", nil)
	ps := map[string]*ent.Project{}
	for _, v := range visibilityLevels {
		p := in.NewProject(t, g, v+"-project", v)
		for role, level := range memberLevel {
			in.AddProjectMember(t, p, a.users[role], level)
		}
		ps[v] = p
	}
	return in, a, ps
}

func TestProjects_permissionMatrix_get(t *testing.T) {
	in, a, ps := matrixWorld(t)
	for _, role := range roles {
		for _, v := range visibilityLevels {
			t.Run(role+"/"+v, func(t *testing.T) {
				r := in.Do(t, "GET", fmt.Sprintf("/projects/%d", ps[v].ID), a.tokens[role], nil)
				if !canSee(role, v) {
					assert.Equal(t, http.StatusNotFound, r.Status)
					assert.JSONEq(t, `{"message":"404 Project Not Found"}`, string(r.Body))
					return
				}
				require.Equal(t, http.StatusOK, r.Status, r.String())
				body := servertest.Decode[map[string]any](t, r)
				assert.Equal(t, float64(ps[v].ID), body["id"])
				perms, signedIn := body["permissions"]
				assert.Equal(t, role != "anonymous", signedIn, "permissions only for signed-in callers")
				if level, member := memberLevel[role]; member {
					assert.Equal(t, map[string]any{
						"project_access": map[string]any{"access_level": float64(level), "notification_level": float64(3)},
						"group_access":   nil,
					}, perms)
				} else if signedIn {
					assert.Equal(t, map[string]any{"project_access": nil, "group_access": nil}, perms)
				}
				// Code-level fields need at least Reporter on a private project.
				_, hasBranch := body["default_branch"]
				wantBranch := role == "admin" || v != "private" || memberLevel[role] >= 20
				assert.Equal(t, wantBranch, hasBranch)
			})
		}
	}
}

func TestProjects_permissionMatrix_list(t *testing.T) {
	in, a, ps := matrixWorld(t)
	for _, role := range roles {
		t.Run(role, func(t *testing.T) {
			var want []int
			for _, v := range []string{"public", "internal", "private"} { // created_at desc
				if canSee(role, v) {
					want = append(want, ps[v].ID)
				}
			}
			r := in.Do(t, "GET", "/projects", a.tokens[role], nil)
			assert.Equal(t, want, ids(t, r))
			assert.Equal(t, fmt.Sprint(len(want)), r.Header.Get("X-Total"))
		})
	}
}

func TestProjects_permissionMatrix_update(t *testing.T) {
	in, a, ps := matrixWorld(t)
	for _, role := range roles {
		for _, v := range visibilityLevels {
			t.Run(role+"/"+v, func(t *testing.T) {
				r := in.Do(t, "PUT", fmt.Sprintf("/projects/%d", ps[v].ID), a.tokens[role], `{"description":"by `+role+`"}`)
				switch {
				case role == "anonymous":
					assert.Equal(t, http.StatusUnauthorized, r.Status)
					assert.JSONEq(t, `{"message":"401 Unauthorized"}`, string(r.Body))
				case !canSee(role, v):
					assert.Equal(t, http.StatusNotFound, r.Status)
					assert.JSONEq(t, `{"message":"404 Project Not Found"}`, string(r.Body))
				case role == "admin" || memberLevel[role] >= 40:
					require.Equal(t, http.StatusOK, r.Status, r.String())
					assert.Equal(t, "by "+role, servertest.Decode[map[string]any](t, r)["description"])
				default:
					assert.Equal(t, http.StatusForbidden, r.Status)
					assert.JSONEq(t, `{"message":"403 Forbidden"}`, string(r.Body))
				}
			})
		}
	}
}

func TestProjects_permissionMatrix_delete(t *testing.T) {
	in := servertest.Start(t)
	a := newActors(t, in, "x")
	g := in.NewGroup(t, "dx", "public", nil)
	for _, role := range roles {
		for _, v := range visibilityLevels {
			t.Run(role+"/"+v, func(t *testing.T) {
				p := in.NewProject(t, g, role+"-"+v, v)
				if level, ok := memberLevel[role]; ok {
					in.AddProjectMember(t, p, a.users[role], level)
				}
				r := in.Do(t, "DELETE", fmt.Sprintf("/projects/%d", p.ID), a.tokens[role], nil)
				switch {
				case role == "anonymous":
					assert.Equal(t, http.StatusUnauthorized, r.Status)
				case !canSee(role, v):
					assert.Equal(t, http.StatusNotFound, r.Status)
					assert.JSONEq(t, `{"message":"404 Project Not Found"}`, string(r.Body))
				case role == "admin" || role == "owner":
					require.Equal(t, http.StatusAccepted, r.Status, r.String())
					assert.JSONEq(t, `{"message":"202 Accepted"}`, string(r.Body))
					gone := in.Do(t, "GET", fmt.Sprintf("/projects/%d", p.ID), servertest.RootToken, nil)
					assert.Equal(t, http.StatusNotFound, gone.Status)
				default:
					assert.Equal(t, http.StatusForbidden, r.Status)
					assert.JSONEq(t, `{"message":"403 Forbidden"}`, string(r.Body))
				}
			})
		}
	}
}

// TestProjects_permissionMatrix_createInGroup checks create_projects: the group's default
// project_creation_level lets Developers and above create projects; below that (and for
// strangers) the namespace is "not valid", as GitLab answers.
func TestProjects_permissionMatrix_createInGroup(t *testing.T) {
	in := servertest.Start(t)
	a := newActors(t, in, "x")
	g := in.NewGroup(t, "cx", "public", nil)
	for role, level := range memberLevel {
		in.AddGroupMember(t, g, a.users[role], level)
	}
	for _, role := range roles {
		t.Run(role, func(t *testing.T) {
			r := in.Do(t, "POST", "/projects", a.tokens[role], fmt.Sprintf(`{"name":"by-%s","namespace_id":%d}`, role, g.ID))
			switch {
			case role == "anonymous":
				assert.Equal(t, http.StatusUnauthorized, r.Status)
			case role == "admin" || memberLevel[role] >= 30:
				require.Equal(t, http.StatusCreated, r.Status, r.String())
				body := servertest.Decode[map[string]any](t, r)
				assert.Equal(t, "cx/by-"+role, body["path_with_namespace"])
				assert.NotContains(t, body, "owner", "group projects have no owner")
				assert.NotContains(t, body, "permissions", "create answers the plain Project entity")
			default:
				assert.Equal(t, http.StatusBadRequest, r.Status)
				assert.JSONEq(t, `{"message":{"namespace":["is not valid"]}}`, string(r.Body))
			}
		})
	}
	t.Run("project_creation_level maintainer", func(t *testing.T) {
		require.NoError(t, in.DB.Client.Namespace.UpdateOne(g).SetProjectCreationLevel("maintainer").Exec(t.Context()))
		r := in.Do(t, "POST", "/projects", a.tokens["developer"], fmt.Sprintf(`{"name":"dev-again","namespace_id":%d}`, g.ID))
		assert.Equal(t, http.StatusBadRequest, r.Status)
		r = in.Do(t, "POST", "/projects", a.tokens["maintainer"], fmt.Sprintf(`{"name":"maint-again","namespace_id":%d}`, g.ID))
		assert.Equal(t, http.StatusCreated, r.Status, r.String())
	})
}

// TestProjects_inheritedAndSharedAccess checks that group membership, membership of an
// ancestor, and a share with a group all open a private project, and that permissions show
// the highest group membership.
func TestProjects_inheritedAndSharedAccess(t *testing.T) {
	in := servertest.Start(t)
	top := in.NewGroup(t, "top", "private", nil)
	sub := in.NewGroup(t, "sub", "private", top)
	p := in.NewProject(t, sub, "deep", "private")
	friends := in.NewGroup(t, "friends", "private", nil)
	topDev, topTok := in.NewUser(t, "topdev")
	subRep, subTok := in.NewUser(t, "subrep")
	friend, friendTok := in.NewUser(t, "friend")
	in.AddGroupMember(t, top, topDev, 30)
	in.AddGroupMember(t, sub, subRep, 20)
	in.AddGroupMember(t, sub, topDev, 10)
	in.AddGroupMember(t, friends, friend, 50)

	for _, tc := range []struct {
		desc, token string
		group       any
	}{
		{"ancestor member", topTok, map[string]any{"access_level": float64(30), "notification_level": float64(3)}},
		{"group member", subTok, map[string]any{"access_level": float64(20), "notification_level": float64(3)}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := in.Do(t, "GET", "/projects/top%2Fsub%2Fdeep", tc.token, nil)
			require.Equal(t, http.StatusOK, r.Status, r.String())
			body := servertest.Decode[map[string]any](t, r)
			assert.Equal(t, map[string]any{"project_access": nil, "group_access": tc.group}, body["permissions"])
			assert.Equal(t, "top / sub / deep", body["name_with_namespace"])
		})
	}
	t.Run("shared group member", func(t *testing.T) {
		assert.Equal(t, http.StatusNotFound, in.Do(t, "GET", fmt.Sprintf("/projects/%d", p.ID), friendTok, nil).Status)
		r := in.Do(t, "POST", fmt.Sprintf("/projects/%d/share", p.ID), servertest.RootToken, fmt.Sprintf(`{"group_id":%d,"group_access":20}`, friends.ID))
		require.Equal(t, http.StatusCreated, r.Status, r.String())
		r = in.Do(t, "GET", fmt.Sprintf("/projects/%d", p.ID), friendTok, nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		body := servertest.Decode[map[string]any](t, r)
		// Reporter through the share (capped by group_access), so code is readable.
		assert.Contains(t, body, "default_branch")
		assert.Equal(t, map[string]any{"project_access": nil, "group_access": nil}, body["permissions"])
		mine := ids(t, in.Do(t, "GET", "/projects?membership=true", friendTok, nil))
		assert.True(t, slices.Contains(mine, p.ID))
		_ = friend
	})
}

// TestProjects_accessThroughGroupShares checks the paths of a single project read that go
// beyond memberships: an ancestor group shared with another group (the level capped by the
// share), an expired share or membership (no access), and a project read by its full path.
func TestProjects_accessThroughGroupShares(t *testing.T) {
	in := servertest.Start(t)
	top := in.NewGroup(t, "vault", "private", nil)
	sub := in.NewGroup(t, "inner", "private", top)
	p := in.NewProject(t, sub, "secret", "private")
	crew := in.NewGroup(t, "crew", "private", nil)
	lapsed := in.NewGroup(t, "lapsed", "private", nil)
	sailor, sailorTok := in.NewUser(t, "sailor")
	former, formerTok := in.NewUser(t, "former")
	old, oldTok := in.NewUser(t, "old-member")
	in.AddGroupMember(t, crew, sailor, 50)
	in.AddGroupMember(t, lapsed, former, 50)
	yesterday := time.Now().UTC().AddDate(0, 0, -1)
	require.NoError(t, in.DB.Client.Member.Create().SetNamespaceID(top.ID).SetUserID(old.ID).
		SetAccessLevel(40).SetExpiresAt(yesterday).Exec(context.Background()))
	require.NoError(t, in.DB.Client.GroupGroupLink.Create().SetSharedGroupID(top.ID).SetSharedWithGroupID(crew.ID).
		SetGroupAccess(20).Exec(context.Background()))
	require.NoError(t, in.DB.Client.GroupGroupLink.Create().SetSharedGroupID(sub.ID).SetSharedWithGroupID(lapsed.ID).
		SetGroupAccess(30).SetExpiresAt(yesterday).Exec(context.Background()))

	for _, ref := range []string{fmt.Sprint(p.ID), "vault%2Finner%2Fsecret", "VAULT%2Finner%2FSecret"} {
		r := in.Do(t, "GET", "/projects/"+ref, sailorTok, nil)
		require.Equal(t, http.StatusOK, r.Status, r.String())
		body := servertest.Decode[map[string]any](t, r)
		assert.Equal(t, float64(p.ID), body["id"])
		assert.Equal(t, "vault / inner / secret", body["name_with_namespace"])
		// Reporter through the share (20, below the crew membership's 50): code is readable,
		// but the permissions show direct memberships only.
		assert.Contains(t, body, "default_branch")
		assert.Equal(t, map[string]any{"project_access": nil, "group_access": nil}, body["permissions"])
	}
	for who, tok := range map[string]string{"expired share": formerTok, "expired membership": oldTok} {
		r := in.Do(t, "GET", fmt.Sprintf("/projects/%d", p.ID), tok, nil)
		assert.Equal(t, http.StatusNotFound, r.Status, who)
		assert.JSONEq(t, `{"message":"404 Project Not Found"}`, string(r.Body), who)
	}
	_, _ = former, old
}
