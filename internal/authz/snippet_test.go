package authz_test

import (
	"testing"

	"anvil/ent"
	"anvil/ent/project"
	"anvil/ent/snippet"
	"anvil/internal/authz"

	"github.com/stretchr/testify/assert"
)

func TestCanPersonalSnippet(t *testing.T) {
	authorID := 7
	author := &authz.Actor{User: &ent.User{ID: authorID}}
	other := &authz.Actor{User: &ent.User{ID: 8}}
	external := &authz.Actor{User: &ent.User{ID: 9, External: true}}
	admin := &authz.Actor{User: &ent.User{ID: 1, Admin: true}}
	actors := map[string]*authz.Actor{"anonymous": authz.Anonymous, "author": author, "other": other, "external": external, "admin": admin}
	// read, update (= admin) per visibility and actor
	want := map[snippet.Visibility]map[string][2]bool{
		snippet.VisibilityPrivate:  {"anonymous": {false, false}, "author": {true, true}, "other": {false, false}, "external": {false, false}, "admin": {true, true}},
		snippet.VisibilityInternal: {"anonymous": {false, false}, "author": {true, true}, "other": {true, false}, "external": {false, false}, "admin": {true, true}},
		snippet.VisibilityPublic:   {"anonymous": {true, false}, "author": {true, true}, "other": {true, false}, "external": {true, false}, "admin": {true, true}},
	}
	for v, byActor := range want {
		s := &ent.Snippet{Visibility: v, AuthorID: &authorID}
		for name, w := range byActor {
			a := actors[name]
			assert.Equal(t, w[0], authz.CanPersonalSnippet(a, s, authz.ReadSnippet), "%s read %s", name, v)
			assert.Equal(t, w[1], authz.CanPersonalSnippet(a, s, authz.UpdateSnippet), "%s update %s", name, v)
			assert.Equal(t, w[1], authz.CanPersonalSnippet(a, s, authz.AdminSnippet), "%s admin %s", name, v)
		}
	}
}

func TestCanProjectSnippet(t *testing.T) {
	authorID := 7
	author := &authz.Actor{User: &ent.User{ID: authorID}}
	p := &ent.Project{Visibility: project.VisibilityPublic, SnippetsAccessLevel: authz.FeatureEnabled}
	priv := &ent.Snippet{Visibility: snippet.VisibilityPrivate, AuthorID: &authorID}
	other := &ent.Snippet{Visibility: snippet.VisibilityPrivate}

	// An author who is no longer a member still reads and updates the snippet, but deletes
	// it only while a Reporter.
	assert.True(t, authz.CanProjectSnippet(author, p, authz.NoAccess, priv, authz.ReadSnippet))
	assert.True(t, authz.CanProjectSnippet(author, p, authz.NoAccess, priv, authz.UpdateSnippet))
	assert.False(t, authz.CanProjectSnippet(author, p, authz.NoAccess, priv, authz.AdminSnippet))
	assert.True(t, authz.CanProjectSnippet(author, p, authz.Reporter, priv, authz.AdminSnippet))
	// Members read private snippets; only Maintainers change others'.
	assert.True(t, authz.CanProjectSnippet(author, p, authz.Guest, other, authz.ReadSnippet))
	assert.False(t, authz.CanProjectSnippet(author, p, authz.Developer, other, authz.UpdateSnippet))
	assert.True(t, authz.CanProjectSnippet(author, p, authz.Maintainer, other, authz.UpdateSnippet))
	assert.False(t, authz.CanProjectSnippet(author, p, authz.NoAccess, other, authz.ReadSnippet))
	// The feature and the archive decide before anything else.
	disabled := &ent.Project{Visibility: project.VisibilityPublic, SnippetsAccessLevel: authz.FeatureDisabled}
	assert.False(t, authz.CanProjectSnippet(author, disabled, authz.Owner, priv, authz.ReadSnippet))
	archived := &ent.Project{Visibility: project.VisibilityPublic, SnippetsAccessLevel: authz.FeatureEnabled, Archived: true}
	assert.True(t, authz.CanProjectSnippet(author, archived, authz.Owner, priv, authz.ReadSnippet))
	assert.False(t, authz.CanProjectSnippet(author, archived, authz.Owner, priv, authz.UpdateSnippet))
	assert.False(t, authz.CanProjectSnippet(author, archived, authz.Owner, priv, authz.AdminSnippet))
}
