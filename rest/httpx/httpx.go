// Package httpx is the REST adapters' toolkit: handler wrapping, parameter binding, rendering
// JSON exactly as GitLab sends it, GitLab error bodies and pagination headers.
package httpx

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"

	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/rest/params"
	"anvil/rest/presenter"

	"github.com/gin-gonic/gin"
)

// Handler is a REST handler: it renders on success and returns an error otherwise.
type Handler func(c *gin.Context) error

// Wrap adapts a Handler to gin, rendering returned errors.
func Wrap(h Handler) gin.HandlerFunc {
	return func(c *gin.Context) {
		if err := h(c); err != nil {
			Error(c, err)
		}
	}
}

const (
	keyBinder    = "anvil.binder"
	keyBindErr   = "anvil.binder.error"
	keyPresenter = "anvil.presenter"
	keyActor     = "anvil.actor"
)

// SetPresenter stores the presenter for this request (done by the router).
func SetPresenter(c *gin.Context, p *presenter.Presenter) { c.Set(keyPresenter, p) }

// P returns the request's presenter.
func P(c *gin.Context) *presenter.Presenter {
	return c.MustGet(keyPresenter).(*presenter.Presenter)
}

// SetActor stores the authenticated actor in the gin and request contexts.
func SetActor(c *gin.Context, a *authz.Actor) {
	c.Set(keyActor, a)
	c.Request = c.Request.WithContext(authz.WithActor(c.Request.Context(), a))
}

// Actor returns the request's actor (Anonymous when nobody signed in).
func Actor(c *gin.Context) *authz.Actor {
	if v, ok := c.Get(keyActor); ok {
		return v.(*authz.Actor)
	}
	return authz.Anonymous
}

// Bind returns the request's parameters, parsing the query and body once.
func Bind(c *gin.Context) (*params.Binder, error) {
	if v, ok := c.Get(keyBinder); ok {
		return v.(*params.Binder), nil
	}
	if v, ok := c.Get(keyBindErr); ok {
		// The body was read once (by the authentication, for sudo) and was malformed.
		return nil, v.(error)
	}
	tree, files, err := params.ParseRequest(c.Request)
	if err != nil {
		var je *params.JSONError
		switch {
		case errors.As(err, &je):
			err = apperr.BadParam(je.Error())
		case errors.Is(err, params.ErrBodyTooLarge):
			err = apperr.TooLarge()
		default:
			err = apperr.BadParam("request body is invalid")
		}
		c.Set(keyBindErr, err)
		return nil, err
	}
	b := params.NewBinder(tree, files)
	c.Set(keyBinder, b)
	return b, nil
}

// PathParam returns a path parameter, percent-decoded once (the router keeps paths escaped so
// that %2F stays inside one segment).
func PathParam(c *gin.Context, name string) string {
	raw := c.Param(name)
	if v, err := url.PathUnescape(raw); err == nil {
		return v
	}
	return raw
}

// PathInt returns an integer path parameter or a 404, as GitLab's routes only match digits.
func PathInt(c *gin.Context, name string, resource string) (int, error) {
	n, err := strconv.Atoi(PathParam(c, name))
	if err != nil || n < 0 {
		return 0, apperr.NotFound(resource)
	}
	return n, nil
}

// JSON writes v with status and the bare application/json content type GitLab sends.
func JSON(c *gin.Context, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		slog.Error("encode response", "err", err)
		c.Data(http.StatusInternalServerError, "application/json", []byte(`{"message":"500 Internal Server Error"}`))
		return
	}
	c.Data(status, "application/json", bytes.TrimRight(buf.Bytes(), "\n"))
}

// OK writes 200 with v.
func OK(c *gin.Context, v any) error { JSON(c, http.StatusOK, v); return nil }

// Created writes 201 with v.
func Created(c *gin.Context, v any) error { JSON(c, http.StatusCreated, v); return nil }

// NoContent writes 204.
func NoContent(c *gin.Context) error {
	c.Status(http.StatusNoContent)
	c.Writer.WriteHeaderNow()
	return nil
}
