// Package awardemoji holds emoji reactions (GitLab's award emoji) on every awardable: issues now,
// notes, snippets and epics as their domains register them. A small registry maps each kind of
// awardable to the domain that finds it under its parent and decides whether the actor may read
// it and award to it; listing, reading, awarding and removing are written once here.
package awardemoji

import (
	"context"
	"fmt"

	"anvil/ent"
	"anvil/internal/authz"
	"anvil/internal/service/wire"
)

// Target is an awardable the actor may read, as its domain resolved it.
type Target struct {
	// Type is the awardable_type stored and shown: Issue, Note, Snippet, Epic, MergeRequest.
	Type string
	// ID is the awardable's global id (awardable_id).
	ID int
	// CanAward is whether the actor may react to it (GitLab's award_emoji ability).
	CanAward bool
	// NotAwardable: the object takes no awards at all (a system note).
	NotAwardable bool
}

// Ref names an awardable as a URL does: the parent project or group (id or path) and the keys
// under it (an issue's iid; an issue's iid and a note's id).
type Ref struct {
	Parent string
	Keys   []string
}

// Resolver finds the awardable ref names if the actor may read it; an unknown or hidden one is
// the domain's 404 (Issue Not Found, ...).
type Resolver func(ctx context.Context, actor *authz.Actor, ref Ref) (Target, error)

// Registry maps each kind of awardable (issue, note on an issue, snippet, ...) to its resolver.
type Registry struct{ kinds map[Kind]Resolver }

// Kind names a kind of awardable in the registry.
type Kind string

// The kinds of awardables served.
const (
	IssueKind            Kind = "issue"
	IssueNoteKind        Kind = "issue_note"
	SnippetKind          Kind = "snippet"
	SnippetNoteKind      Kind = "snippet_note"
	EpicKind             Kind = "epic"
	EpicNoteKind         Kind = "epic_note"
	MergeRequestKind     Kind = "merge_request"
	MergeRequestNoteKind Kind = "merge_request_note"
)

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{kinds: map[Kind]Resolver{}} }

// Register adds the resolver of a kind; registering a kind twice is a wiring mistake.
func (r *Registry) Register(k Kind, fn Resolver) {
	if _, dup := r.kinds[k]; dup || fn == nil {
		panic(fmt.Sprintf("awardemoji: kind %q registered twice or without a resolver", k))
	}
	r.kinds[k] = fn
}

// Has reports whether a kind is registered (adapters mount its routes only then).
func (r *Registry) Has(k Kind) bool { _, ok := r.kinds[k]; return ok }

func (r *Registry) resolve(ctx context.Context, actor *authz.Actor, k Kind, ref Ref) (Target, error) {
	fn, ok := r.kinds[k]
	if !ok {
		return Target{}, fmt.Errorf("awardemoji: kind %q not registered", k)
	}
	return fn(ctx, actor, ref)
}

// Observer is told of each award given ("award") or taken back ("revoke"), in the change's
// transaction (ctx carries it): emoji hooks. An error rolls the change back.
type Observer interface {
	AwardChanged(ctx context.Context, actor *authz.Actor, action string, a *ent.AwardEmoji) error
}

// Service is the award emoji service.
type Service struct {
	client    *ent.Client
	registry  *Registry
	observers []Observer
}

// Observe adds an observer of awards given and taken back (wiring, before serving).
func (s *Service) Observe(o Observer) {
	if o == nil {
		panic("awardemoji: nil observer")
	}
	s.observers = append(s.observers, o)
}

// changed tells every observer of an award given or taken back.
func (s *Service) changed(ctx context.Context, actor *authz.Actor, action string, a *ent.AwardEmoji) error {
	for _, o := range s.observers {
		if err := o.AwardChanged(ctx, actor, action, a); err != nil {
			return err
		}
	}
	return nil
}

// New returns the award emoji service over the registry the domains fill.
func New(client *ent.Client, registry *Registry) *Service {
	wire.Require("awardemoji", wire.D("client", client), wire.D("registry", registry))
	return &Service{client: client, registry: registry}
}

// Registry returns the registry the domains add their awardables to.
func (s *Service) Registry() *Registry { return s.registry }
