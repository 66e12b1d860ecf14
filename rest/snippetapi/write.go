package snippetapi

import (
	"fmt"
	"net/http"
	"sort"
	"strings"

	"anvil/ent"
	"anvil/internal/apperr"
	"anvil/internal/service/snippets"
	"anvil/rest/httpx"
	"anvil/rest/params"

	"github.com/gin-gonic/gin"
)

var visibilities = []string{"private", "internal", "public"}

// nonBlank reads a string that may be absent but not blank when given (Grape's
// allow_blank: false): "<name> is empty".
func nonBlank(b *params.Binder, name string) *string {
	s := b.String(name)
	if s != nil && strings.TrimSpace(*s) == "" {
		b.Fail(name + " is empty")
	}
	return s
}

// bindFiles reads files[]: each element's file_path, content, and (updating) action and
// previous_path, with Grape's messages for missing, blank and invalid values.
func bindFiles(b *params.Binder, update bool) []snippets.FileAction {
	objs := b.Objects("files")
	out := make([]snippets.FileAction, 0, len(objs))
	for i, m := range objs {
		name := func(key string) string { return fmt.Sprintf("files[%d][%s]", i, key) }
		str := func(key string) *string {
			v, ok := m[key]
			if !ok || v == nil {
				return nil
			}
			s, ok := v.(string)
			if !ok {
				b.Fail(name(key) + " is invalid")
				return nil
			}
			return &s
		}
		path := func(key string) string {
			p := str(key)
			if p == nil {
				return ""
			}
			if !validFilePath(*p) {
				b.Fail(name(key) + " should be a valid file path")
			}
			return *p
		}
		a := snippets.FileAction{FilePath: path("file_path"), PreviousPath: path("previous_path"), Content: str("content")}
		if update {
			act := str("action")
			switch {
			case act == nil:
				b.Fail(name("action") + " is missing")
			case !contains(snippets.Actions, *act):
				b.Fail(name("action") + " does not have a valid value")
			default:
				a.Action = *act
			}
		} else {
			if _, ok := m["file_path"]; !ok {
				b.Fail(name("file_path") + " is missing")
			} else if strings.TrimSpace(a.FilePath) == "" {
				b.Fail(name("file_path") + " is empty")
			}
			if a.Content == nil {
				b.Fail(name("content") + " is missing")
			} else if strings.TrimSpace(*a.Content) == "" {
				b.Fail(name("content") + " is empty")
			}
		}
		out = append(out, a)
	}
	return out
}

// validFilePath is Grape's file_path validator: no traversal, no absolute path, no NUL.
func validFilePath(p string) bool {
	if strings.HasPrefix(p, "/") || strings.ContainsRune(p, 0) {
		return false
	}
	for _, part := range strings.Split(p, "/") {
		if part == ".." {
			return false
		}
	}
	return true
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// create handles POST /snippets and POST /projects/:id/snippets.
func (h *handlers) create(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	ref := ""
	if c.Param("id") != "" {
		ref = httpx.PathParam(c, "id")
		b.Require("title", "visibility")
	} else {
		b.Require("title")
	}
	in := snippets.CreateInput{
		Title: b.StringDefault("title", ""), Description: b.String("description"),
		UserAgent: c.Request.UserAgent(), IPAddress: c.ClientIP(),
	}
	nonBlank(b, "title")
	if v := b.Enum("visibility", visibilities...); v != nil {
		in.Visibility = *v
	}
	switch hasFiles, ok := b.ExactlyOneOf("files", "content"); {
	case !ok:
	case hasFiles:
		in.Files = bindFiles(b, false)
	default:
		in.Content = nonBlank(b, "content")
		b.Require("file_name")
		in.FileName = b.StringDefault("file_name", "")
	}
	if err := b.Err(); err != nil {
		return err
	}
	sn, err := h.snippets.Create(c.Request.Context(), httpx.Actor(c), ref, in)
	if err != nil {
		return refusal(c, err)
	}
	return httpx.Created(c, httpx.P(c).Snippet(sn, httpx.Actor(c).IsAdmin()))
}

// update handles PUT /snippets/:id and PUT /projects/:id/snippets/:snippet_id.
func (h *handlers) update(c *gin.Context) error {
	b, err := httpx.Bind(c)
	if err != nil {
		return err
	}
	b.RequireOne("content", "description", "files", "file_name", "title", "visibility")
	in := snippets.UpdateInput{
		Title: nonBlank(b, "title"), Description: b.String("description"),
		Visibility: b.Enum("visibility", visibilities...),
		FileName:   b.String("file_name"), Content: nonBlank(b, "content"),
	}
	if b.Has("files") {
		if b.Has("content") {
			b.Fail("files, content are mutually exclusive")
		}
		if b.Has("file_name") {
			b.Fail("files, file_name are mutually exclusive")
		}
		in.Files = bindFiles(b, true)
	}
	if err := b.Err(); err != nil {
		return err
	}
	ctx, actor := c.Request.Context(), httpx.Actor(c)
	var sn *ent.Snippet
	if ref := projectRef(c); ref != "" {
		sn, err = h.snippets.UpdateInProject(ctx, actor, ref, snippetID(c), in)
	} else {
		sn, err = h.snippets.Update(ctx, actor, snippetID(c), in)
	}
	if err != nil {
		return refusal(c, err)
	}
	return httpx.OK(c, httpx.P(c).Snippet(sn, actor.IsAdmin()))
}

// delete handles DELETE /snippets/:id and DELETE /projects/:id/snippets/:snippet_id: 204.
func (h *handlers) delete(c *gin.Context) error {
	ctx, actor := c.Request.Context(), httpx.Actor(c)
	var err error
	if ref := projectRef(c); ref != "" {
		err = h.snippets.DeleteInProject(ctx, actor, ref, snippetID(c))
	} else {
		err = h.snippets.Delete(ctx, actor, snippetID(c))
	}
	if err != nil {
		return err
	}
	return httpx.NoContent(c)
}

// refusal renders a refused snippet change as GitLab's snippet services answer it,
// render_api_error!({error: message}): {"message": {"error": "Title is too long (maximum is
// 255 characters)"}}, the validation messages as one sentence. Other errors go the usual way.
func refusal(c *gin.Context, err error) error {
	e, ok := apperr.As(err)
	if !ok {
		return err
	}
	var status int
	var text string
	switch {
	case e.Kind == apperr.KindValidation:
		status, text = http.StatusBadRequest, fullMessages(e.Fields)
	case e.Kind == apperr.KindBadRequest && e.Message != "":
		status, text = http.StatusBadRequest, e.Message
	case e.Kind == apperr.KindUnprocessable && e.Message != "":
		status, text = http.StatusUnprocessableEntity, e.Message
	case e.Kind == apperr.KindForbidden && e.Message != "":
		status, text = http.StatusForbidden, e.Message
	default:
		return err
	}
	httpx.JSON(c, status, gin.H{"message": gin.H{"error": text}})
	return nil
}

// fullMessages words validation messages as Rails' full_messages.to_sentence: "Title is too
// long (maximum is 255 characters)", joined with commas and a final "and".
func fullMessages(fields map[string][]string) string {
	var msgs []string
	for _, attr := range sortedKeys(fields) {
		human := strings.ReplaceAll(attr, "_", " ")
		human = strings.ToUpper(human[:1]) + human[1:]
		for _, m := range fields[attr] {
			msgs = append(msgs, human+" "+m)
		}
	}
	switch len(msgs) {
	case 0:
		return ""
	case 1:
		return msgs[0]
	}
	return strings.Join(msgs[:len(msgs)-1], ", ") + " and " + msgs[len(msgs)-1]
}

func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
