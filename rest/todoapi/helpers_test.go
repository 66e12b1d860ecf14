package todoapi_test

import (
	"fmt"
	"net/url"
	"sort"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"
	"anvil/ent"

	"github.com/stretchr/testify/require"
)

// world is a fixture: a public group "team" (name "Team") with a private project "app" and a
// public project "site", members of the group at each role, an outsider, and an
// administrator; tokens by name.
type world struct {
	in            *servertest.Instance
	group         *ent.Namespace
	app, site     *ent.Project
	users         map[string]*ent.User
	tokens        map[string]string
	appIssuesPath string
}

func newWorld(t *testing.T) *world {
	t.Helper()
	in := servertest.Start(t)
	w := &world{in: in, users: map[string]*ent.User{}, tokens: map[string]string{}}
	w.group = in.NewGroup(t, "team", "public", nil)
	w.app = in.NewProject(t, w.group, "app", "private")
	w.site = in.NewProject(t, w.group, "site", "public")
	for _, m := range []struct {
		name  string
		level int
	}{{"guest", 10}, {"reporter", 20}, {"dev", 30}, {"assignee", 30}, {"owner", 50}} {
		u, tok := in.NewUser(t, m.name)
		in.AddGroupMember(t, w.group, u, m.level)
		w.users[m.name], w.tokens[m.name] = u, tok
	}
	w.users["outsider"], w.tokens["outsider"] = in.NewUser(t, "outsider")
	w.users["admin"], w.tokens["admin"] = in.NewUser(t, "theadmin", servertest.Admin)
	w.appIssuesPath = fmt.Sprintf("/projects/%d/issues", w.app.ID)
	return w
}

// issue creates an issue in project p as who and returns its JSON.
func (w *world) issue(t *testing.T, p *ent.Project, who string, form url.Values) map[string]any {
	t.Helper()
	r := w.in.Do(t, "POST", fmt.Sprintf("/projects/%d/issues", p.ID), w.tokens[who], form)
	require.Equal(t, 201, r.Status, r.String())
	return servertest.Object(t, r)
}

// todos lists who's to-dos with the query q.
func (w *world) todos(t *testing.T, who, q string) []map[string]any {
	t.Helper()
	r := w.in.Do(t, "GET", "/todos"+q, w.tokens[who], nil)
	require.Equal(t, 200, r.Status, r.String())
	return servertest.Decode[[]map[string]any](t, r)
}

// summary is "action_name target-iid" of each to-do, sorted.
func summary(list []map[string]any) []string {
	out := []string{}
	for _, td := range list {
		iid := "?"
		if tg, ok := td["target"].(map[string]any); ok {
			iid = fmt.Sprint(tg["iid"])
		}
		out = append(out, td["action_name"].(string)+" "+iid)
	}
	sort.Strings(out)
	return out
}

// ids is the id of each JSON object.
func ids(list []map[string]any) []int {
	out := []int{}
	for _, o := range list {
		out = append(out, int(o["id"].(float64)))
	}
	return out
}

func mentions(names ...string) string {
	return "@" + strings.Join(names, " @")
}
