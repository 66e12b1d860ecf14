package noteapi_test

import (
	"net/url"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSystemNotes_crossProjectMentions: references to another project's issues
// ("group/project#N", "project#N" in the same namespace) and merge requests ("!N",
// "group/project!N") write GitLab's cross-reference note on the referenced issuable, naming
// the source from the referenced one's project (full path across namespaces, the project's
// path within one); only when the author may read the referenced issuable, once per source.
func TestSystemNotes_crossProjectMentions(t *testing.T) {
	m := newMRFixture(t, "public")
	in, f := m.f.In, m.f
	dev := f.Tokens["developer"]
	target := newIssue(t, in, m.p.ID, dev, url.Values{"title": {"Target"}})
	other := in.NewGroup(t, "other", "public", nil)
	lib := in.NewProject(t, other, "lib", "public")
	docs := in.NewProject(t, f.Group, "docs", "public")
	hidden := in.NewGroup(t, "hidden", "private", nil)
	secret := in.NewProject(t, hidden, "secret", "private")
	secretIssue := newIssue(t, in, secret.ID, servertest.RootToken, url.Values{"title": {"Secret"}})

	mentions := func(path string) []string {
		t.Helper()
		r := in.Do(t, "GET", path+"/notes?sort=asc", servertest.RootToken, nil)
		require.Equal(t, 200, r.Status, r.String())
		out := []string{}
		for _, n := range servertest.List(t, r) {
			if n["system"] == true && strings.HasPrefix(n["body"].(string), "mentioned in") {
				out = append(out, n["body"].(string))
			}
		}
		return out
	}

	// Another namespace: the full path; the merge request too.
	libIssue := newIssue(t, in, lib.ID, dev, url.Values{"title": {"Lib"}, "description": {"See g/app#1 and G/App!1, not g/app#99 nor nope/x#1"}})
	assert.Equal(t, []string{"mentioned in issue other/lib#1"}, mentions(target))
	assert.Equal(t, []string{"mentioned in issue other/lib#1"}, mentions(m.mr))
	post(t, in, libIssue+"/notes", dev, 201, url.Values{"body": {"again g/app#1"}})
	assert.Equal(t, []string{"mentioned in issue other/lib#1"}, mentions(target), "once per source")

	// The same namespace: the project's path.
	docsIssue := newIssue(t, in, docs.ID, dev, url.Values{"title": {"Docs"}})
	post(t, in, docsIssue+"/notes", dev, 201, url.Values{"body": {"documents app#1"}})
	assert.Equal(t, []string{"mentioned in issue other/lib#1", "mentioned in issue docs#1"}, mentions(target))

	// A merge request's comment mentions other projects' issues; an issue's mentions its
	// project's merge requests ("!1").
	post(t, in, m.mr+"/notes", dev, 201, url.Values{"body": {"Fixes other/lib#1"}})
	assert.Equal(t, []string{"mentioned in merge request g/app!1"}, mentions(libIssue))
	post(t, in, target+"/notes", dev, 201, url.Values{"body": {"see !1"}})
	assert.Equal(t, []string{"mentioned in issue other/lib#1", "mentioned in issue #1"}, mentions(m.mr))

	t.Run("unreadable targets get nothing", func(t *testing.T) {
		post(t, in, target+"/notes", dev, 201, url.Values{"body": {"leak hidden/secret#1"}})
		assert.Equal(t, []string{}, mentions(secretIssue))
		post(t, in, target+"/notes", f.Tokens["outsider"], 201, url.Values{"body": {"from outside docs#1"}})
		assert.Equal(t, []string{"mentioned in issue app#1"}, mentions(docsIssue), "an outsider reads the public project")
		// A confidential issue of another project is read by its Reporters only.
		conf := newIssue(t, in, docs.ID, servertest.RootToken, url.Values{"title": {"Conf"}, "confidential": {"true"}})
		post(t, in, target+"/notes", f.Tokens["guest"], 201, url.Values{"body": {"g/docs#2"}})
		assert.Equal(t, []string{}, mentions(conf), "a Guest may not read the confidential issue")
		post(t, in, libIssue+"/notes", f.Tokens["reporter"], 201, url.Values{"body": {"g/docs#2"}})
		assert.Equal(t, []string{"mentioned in issue other/lib#1"}, mentions(conf))
	})
}

// TestSystemNotes_crossReferenceVisibility: a private project's issue mentioning a public
// project's issue writes "mentioned in issue priv/app#1" on the public one, and that note is
// shown only to readers of the private issue (GitLab checks the reference at read time): it is
// left out of the notes and discussions lists and their totals, and its single reads are 404
// for the others; members of the private project and administrators see it.
func TestSystemNotes_crossReferenceVisibility(t *testing.T) {
	in := servertest.Start(t)
	pub := in.NewProject(t, in.NewGroup(t, "pub", "public", nil), "site", "public")
	priv := in.NewProject(t, in.NewGroup(t, "priv", "private", nil), "app", "private")
	insider, insiderTok := in.NewUser(t, "insider")
	in.AddProjectMember(t, priv, insider, 10)
	_, outsiderTok := in.NewUser(t, "outsider")

	target := newIssue(t, in, pub.ID, servertest.RootToken, url.Values{"title": {"Public"}})
	newIssue(t, in, priv.ID, insiderTok, url.Values{"title": {"Private"}, "description": {"Caused by pub/site#1"}})
	comment := post(t, in, target+"/notes", outsiderTok, 201, url.Values{"body": {"me too"}})

	var refNote map[string]any
	r := in.Do(t, "GET", target+"/notes?sort=asc", servertest.RootToken, nil)
	require.Equal(t, 200, r.Status, r.String())
	for _, n := range servertest.List(t, r) {
		if n["system"] == true {
			refNote = n
		}
	}
	require.NotNil(t, refNote, r.String())
	require.Equal(t, "mentioned in issue priv/app#1", refNote["body"])
	refID := itoa(id(refNote["id"]))
	var refDiscussion string
	r = in.Do(t, "GET", target+"/discussions", servertest.RootToken, nil)
	require.Equal(t, 200, r.Status, r.String())
	for _, d := range servertest.List(t, r) {
		if notesOf(d)[0]["system"] == true {
			refDiscussion = d["id"].(string)
		}
	}
	require.NotEmpty(t, refDiscussion)

	for _, c := range []struct {
		who, token string
		sees       bool
	}{
		{"member of the private project", insiderTok, true},
		{"administrator", servertest.RootToken, true},
		{"non-member", outsiderTok, false},
		{"anonymous", "", false},
	} {
		t.Run(c.who, func(t *testing.T) {
			want, total := []string{"mentioned in issue priv/app#1", "me too"}, "2"
			if !c.sees {
				want, total = []string{"me too"}, "1"
			}
			r := in.Do(t, "GET", target+"/notes?sort=asc", c.token, nil)
			require.Equal(t, 200, r.Status, r.String())
			assert.Equal(t, want, bodies(t, r))
			assert.Equal(t, total, r.Header.Get("X-Total"))
			r = in.Do(t, "GET", target+"/notes?activity_filter=only_activity", c.token, nil)
			require.Equal(t, 200, r.Status, r.String())
			assert.Len(t, servertest.List(t, r), len(want)-1)

			r = in.Do(t, "GET", target+"/discussions", c.token, nil)
			require.Equal(t, 200, r.Status, r.String())
			var got []string
			for _, d := range servertest.List(t, r) {
				got = append(got, notesOf(d)[0]["body"].(string))
			}
			assert.Equal(t, want, got)
			assert.Equal(t, total, r.Header.Get("X-Total"))

			r = in.Do(t, "GET", target+"/notes/"+refID, c.token, nil)
			rd := in.Do(t, "GET", target+"/discussions/"+refDiscussion, c.token, nil)
			if c.sees {
				assert.Equal(t, 200, r.Status, r.String())
				assert.Equal(t, 200, rd.Status, rd.String())
			} else {
				servertest.RequireError(t, r, 404, "message", "404 Note Not Found")
				servertest.RequireError(t, rd, 404, "message", "404 Discussion Not Found")
			}
			r = in.Do(t, "GET", target+"/notes/"+itoa(id(comment["id"])), c.token, nil)
			assert.Equal(t, 200, r.Status, r.String())
		})
	}

	t.Run("losing access to the source hides it", func(t *testing.T) {
		r := in.Do(t, "DELETE", "/projects/"+itoa(priv.ID)+"/members/"+itoa(insider.ID), servertest.RootToken, nil)
		require.Equal(t, 204, r.Status, r.String())
		r = in.Do(t, "GET", target+"/notes", insiderTok, nil)
		require.Equal(t, 200, r.Status, r.String())
		assert.Equal(t, []string{"me too"}, bodies(t, r))
	})
}
