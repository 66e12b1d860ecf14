package graph

import (
	"bytes"
	"context"
	"net/url"
	"strconv"
	"strings"

	"anvil/ent"
	"anvil/graph/model"
	"anvil/internal/service/awardemoji"
	"anvil/internal/service/projects"
	"anvil/internal/service/snippets"

	"entgo.io/contrib/entgql"
)

// Global id models of snippets, as GitLab's snippet classes.
const (
	gidProjectSnippet  = "ProjectSnippet"
	gidPersonalSnippet = "PersonalSnippet"
)

// snippetGID is a snippet's global id: ProjectSnippet or PersonalSnippet.
func snippetGID(sn *ent.Snippet) string {
	if sn.ProjectID != nil {
		return formatGID(gidProjectSnippet, sn.ID)
	}
	return formatGID(gidPersonalSnippet, sn.ID)
}

// snippetWebPath is the snippet's web path: under its project, or /-/snippets/<id>.
func snippetWebPath(sn *ent.Snippet) string {
	id := strconv.Itoa(sn.ID)
	if pr := sn.Edges.Project; pr != nil {
		return "/" + projects.FullPath(pr) + "/-/snippets/" + id
	}
	return "/-/snippets/" + id
}

// snippetRepoPath is the path of the snippet's repository on the web host.
func snippetRepoPath(sn *ent.Snippet) string {
	id := strconv.Itoa(sn.ID)
	if pr := sn.Edges.Project; pr != nil {
		return projects.FullPath(pr) + "/snippets/" + id
	}
	return "snippets/" + id
}

// snippetConnection pages project.snippets, newest first, as the REST list.
func (r *Resolver) snippetConnection(ctx context.Context, proj *ent.Project, ids []string, visibility *model.VisibilityScopesEnum, after, before *entgql.Cursor[int], first, last *int) (*ent.SnippetConnection, error) {
	var idList []int
	if ids != nil {
		idList = make([]int, 0, len(ids))
		for _, s := range ids {
			n, err := parseGIDOf(s, gidProjectSnippet, gidPersonalSnippet)
			if err != nil {
				return nil, err
			}
			idList = append(idList, n)
		}
	}
	vis := ""
	if visibility != nil {
		vis = string(*visibility)
	}
	q, err := r.svc.Snippets.ProjectQuery(ctx, actor(ctx), strconv.Itoa(proj.ID), idList, vis)
	if err != nil {
		return orNull[ent.SnippetConnection](nil, err)
	}
	order := &ent.SnippetOrder{Field: ent.DefaultSnippetOrder.Field, Direction: entgql.OrderDirectionDesc}
	if err := checkCursors(orderZero(order.Field.Value), after, before); err != nil {
		return nil, err
	}
	first, last = page(first, last)
	return snippets.Load(q).Paginate(connection(ctx), after, first, before, last, ent.WithSnippetOrder(order))
}

// snippetBlobs reads the snippet's files at its default branch (all, or those of paths), each
// with its content when it is text.
func (r *Resolver) snippetBlobs(ctx context.Context, sn *ent.Snippet, paths []string, after, before *entgql.Cursor[int], first, last *int) (*model.SnippetBlobConnection, error) {
	want := map[string]bool{}
	for _, p := range paths {
		want[p] = true
	}
	all := []*model.SnippetBlob{}
	for _, path := range sn.Files {
		if paths != nil && !want[path] {
			continue
		}
		f, err := r.svc.Snippets.RawAt(ctx, sn, sn.DefaultBranch, path)
		if err != nil {
			return nil, err
		}
		b := &model.SnippetBlob{Path: path, Name: path[strings.LastIndexByte(path, '/')+1:], Size: len(f.Data),
			RawPath: snippetWebPath(sn) + "/raw/" + sn.DefaultBranch + "/" + escapePath(path)}
		head := f.Data
		if len(head) > 8000 {
			head = head[:8000]
		}
		b.Binary = bytes.IndexByte(head, 0) >= 0
		if !b.Binary {
			text := string(f.Data)
			b.RawPlainData = &text
		}
		all = append(all, b)
	}
	index := map[*model.SnippetBlob]int{}
	for i, b := range all {
		index[b] = i
	}
	first, last = page(first, last)
	nodes, cursors, info := slicePage(all, func(b *model.SnippetBlob) int { return index[b] }, after, before, first, last)
	c := &model.SnippetBlobConnection{Nodes: nodes, PageInfo: info, TotalCount: len(all), Edges: make([]*model.SnippetBlobEdge, len(nodes))}
	for i, b := range nodes {
		c.Edges[i] = &model.SnippetBlobEdge{Node: b, Cursor: cursors[i]}
	}
	return c, nil
}

// escapePath escapes each segment of a file path for a URL.
func escapePath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

// snippetNodes are a page's snippets.
func snippetNodes(c *ent.SnippetConnection) []*ent.Snippet {
	out := make([]*ent.Snippet, len(c.Edges))
	for i, e := range c.Edges {
		out[i] = e.Node
	}
	return out
}

// snippetAwardRef names a project snippet for the award emoji domain.
func snippetAwardRef(sn *ent.Snippet) awardemoji.Ref {
	parent := ""
	if sn.ProjectID != nil {
		parent = strconv.Itoa(*sn.ProjectID)
	}
	return awardemoji.Ref{Parent: parent, Keys: []string{strconv.Itoa(sn.ID)}}
}

// sshHost is the host name (without port) of the base URL, the SSH clone host.
func sshHost(baseURL string) string {
	u, err := url.Parse(baseURL)
	if err != nil {
		return ""
	}
	return u.Hostname()
}
