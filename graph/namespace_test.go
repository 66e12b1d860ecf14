package graph_test

import (
	"context"
	"fmt"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNamespacesAndStars(t *testing.T) {
	in := servertest.Start(t)
	alice, aliceT := in.NewUser(t, "alice")
	_, bobT := in.NewUser(t, "bob")
	pub := in.NewGroup(t, "pub", "public", nil)
	secret := in.NewGroup(t, "secret", "private", nil)
	app := in.NewProject(t, pub, "app", "public")
	hidden := in.NewProject(t, secret, "hidden", "private")
	in.AddGroupMember(t, secret, alice, 30)

	const nsQuery = `query($p: ID!) { namespace(fullPath: $p) { id fullPath } }`
	ns := func(token, fullPath string) any {
		t.Helper()
		return path(data(t, in, token, nsQuery, map[string]any{"p": fullPath}), "namespace")
	}
	assert.Equal(t, map[string]any{"id": fmt.Sprintf("gid://gitlab/Group/%d", pub.ID), "fullPath": "pub"}, ns("", "pub"))
	assert.Nil(t, ns(bobT, "secret"))
	assert.Equal(t, "secret", path(ns(aliceT, "secret"), "fullPath"))
	personal := in.PersonalNamespace(t, alice)
	assert.Equal(t, map[string]any{"id": fmt.Sprintf("gid://gitlab/Namespaces::UserNamespace/%d", personal.ID), "fullPath": "alice"}, ns(aliceT, "alice"))
	assert.Nil(t, ns(bobT, "alice"), "a personal namespace is its owner's")
	assert.Nil(t, ns(aliceT, "nowhere"))

	for _, p := range []int{app.ID, hidden.ID} {
		r := in.Do(t, "POST", fmt.Sprintf("/projects/%d/star", p), aliceT, nil)
		require.Equal(t, 201, r.Status, r.String())
	}
	const starred = `query($u: String!) { user(username: $u) { starredProjects { nodes { fullPath starCount } } } }`
	names := func(token string) []string {
		t.Helper()
		var out []string
		for _, n := range path(data(t, in, token, starred, map[string]any{"u": "alice"}), "user", "starredProjects", "nodes").([]any) {
			out = append(out, n.(map[string]any)["fullPath"].(string))
			assert.Equal(t, float64(1), n.(map[string]any)["starCount"])
		}
		return out
	}
	assert.ElementsMatch(t, []string{"pub/app", "secret/hidden"}, names(aliceT))
	assert.Equal(t, []string{"pub/app"}, names(bobT))
	require.NoError(t, in.DB.Client.User.UpdateOne(alice).SetPrivateProfile(true).Exec(context.Background()))
	assert.Empty(t, names(bobT))

	d := data(t, in, bobT, `query { project(fullPath: "pub/app") { starCount } }`, nil)
	assert.Equal(t, float64(1), path(d, "project", "starCount"))
}
