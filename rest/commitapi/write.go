package commitapi

import (
	"fmt"
	"net/http"

	"anvil/internal/apperr"
	"anvil/internal/service/commits"
	"anvil/rest/httpx"
	"anvil/rest/params"

	"github.com/gin-gonic/gin"
)

// create handles POST /projects/:id/repository/commits (JSON, or form with
// actions[][action]=...): 201 with the commit, its stats unless stats=false.
func (h *handlers) create(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	in := commits.CreateInput{
		Branch:        b.String("branch"),
		CommitMessage: b.String("commit_message"),
		StartBranch:   b.String("start_branch"),
		StartSHA:      b.String("start_sha"),
		StartProject:  b.String("start_project"),
		AuthorEmail:   b.String("author_email"),
		AuthorName:    b.String("author_name"),
		Stats:         b.Bool("stats"),
		Force:         b.BoolDefault("force", false),
	}
	if b.Has("actions") {
		objs := b.Objects("actions")
		in.Actions = make([]commits.Action, 0, len(objs))
		for i, m := range objs {
			in.Actions = append(in.Actions, bindAction(b, i, m))
		}
	}
	if err := b.Err(); err != nil {
		return err
	}
	d, err := h.svc.Create(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), in)
	if err != nil {
		return err
	}
	return httpx.Created(c, httpx.P(c).CommitDetail(d))
}

// bindAction reads one element of actions[]; type errors are recorded on b.
func bindAction(b *params.Binder, i int, m map[string]any) commits.Action {
	str := func(key string) *string {
		v, ok := m[key]
		if !ok {
			return nil
		}
		switch x := v.(type) {
		case nil:
			s := ""
			return &s
		case string:
			return &x
		case bool:
			s := fmt.Sprint(x)
			return &s
		}
		b.Fail(fmt.Sprintf("actions[%d][%s] is invalid", i, key))
		return nil
	}
	a := commits.Action{
		Action: str("action"), FilePath: str("file_path"), PreviousPath: str("previous_path"),
		Content: str("content"), Encoding: str("encoding"), LastCommitID: str("last_commit_id"),
	}
	if _, ok := m["execute_filemode"]; ok {
		sub := params.NewBinder(params.Tree{"execute_filemode": m["execute_filemode"]}, nil)
		a.ExecuteFilemode = sub.Bool("execute_filemode")
		if sub.Err() != nil {
			b.Fail(fmt.Sprintf("actions[%d][execute_filemode] is invalid", i))
		}
	}
	return a
}

// cherryPick handles POST /projects/:id/repository/commits/:sha/cherry_pick: 201 with the new
// commit, or 200 {"dry_run":"success"}.
func (h *handlers) cherryPick(c *gin.Context) error { return h.change(c, true) }

// revert handles POST /projects/:id/repository/commits/:sha/revert.
func (h *handlers) revert(c *gin.Context) error { return h.change(c, false) }

func (h *handlers) change(c *gin.Context, pick bool) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	in := commits.ChangeInput{Branch: b.String("branch"), DryRun: b.BoolDefault("dry_run", false)}
	if pick {
		in.Message = b.String("message")
	}
	if err := b.Err(); err != nil {
		return err
	}
	ctx, actor, ref, sha := c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), httpx.PathParam(c, "sha")
	var res *commits.ChangeResult
	if pick {
		res, err = h.svc.CherryPick(ctx, actor, ref, sha, in)
	} else {
		res, err = h.svc.Revert(ctx, actor, ref, sha, in)
	}
	if err != nil {
		if e, ok := apperr.As(err); ok && e.Code != "" && in.DryRun {
			// A dry run's refusal also says dry_run: error.
			status, body := httpx.Render(e)
			body.(gin.H)["dry_run"] = "error"
			httpx.JSON(c, status, body)
			return nil
		}
		return err
	}
	if res.Commit == nil {
		return httpx.OK(c, gin.H{"dry_run": "success"})
	}
	return httpx.Created(c, httpx.P(c).Commit(res.Commit.Project, res.Commit.Commit, false))
}

// updateSubmodule handles PUT /projects/:id/repository/submodules/:submodule: 200 with the
// commit (status null, no stats).
func (h *handlers) updateSubmodule(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	in := commits.SubmoduleInput{
		Submodule:     httpx.PathParam(c, "submodule"),
		Branch:        b.String("branch"),
		CommitSHA:     b.String("commit_sha"),
		CommitMessage: b.String("commit_message"),
	}
	if err := b.Err(); err != nil {
		return err
	}
	d, err := h.svc.UpdateSubmodule(c.Request.Context(), httpx.Actor(c), httpx.PathParam(c, "id"), in)
	if err != nil {
		return err
	}
	return httpx.OK(c, httpx.P(c).CommitDetail(d))
}

// statusOK is the body of a successful changelog commit: GitLab's endpoint returns the value
// of status(200).
var statusOK = http.StatusOK
