package webhooks

import (
	"context"
	"errors"
	"regexp"
	"sort"
	"strings"

	"anvil/ent"
	"anvil/ent/webhook"
	"anvil/internal/apperr"
	"anvil/internal/authz"
	"anvil/internal/db"
	"anvil/internal/outbound"
	"anvil/internal/pagination"
)

// KeyValue is one custom header or URL variable.
type KeyValue struct{ Key, Value string }

// Input are a hook's attributes as given; nil leaves an attribute as it is (update) or takes
// its default (create).
type Input struct {
	URL, Name, Description, Token *string
	// Flags are the event flags given, by GitLab name (push_events, ...).
	Flags                  map[string]bool
	PushEventsBranchFilter *string
	BranchFilterStrategy   *string
	CustomWebhookTemplate  *string
	// ClearCustomWebhookTemplate removes the template (it reads null again).
	ClearCustomWebhookTemplate bool
	EnableSSLVerification      *bool
	// CustomHeaders and URLVariables, when not nil, replace the hook's.
	CustomHeaders, URLVariables []KeyValue
}

// ErrInvalidURL is the refusal of a hook URL that is not a reachable http(s) URL or that
// names a local address the instance does not allow (GitLab's "Invalid url given").
var ErrInvalidURL = apperr.Unprocessable("Invalid url given")

// List returns a page of the scope's hooks, oldest first (GitLab paginates every hook list).
func (s *Service) List(ctx context.Context, actor *authz.Actor, sc Scope, page pagination.Offset) (pagination.Result[*ent.WebHook], error) {
	var zero pagination.Result[*ent.WebHook]
	o, err := s.resolve(ctx, actor, sc)
	if err != nil {
		return zero, err
	}
	q := db.ClientFrom(ctx, s.Client).WebHook.Query().Where(o.own())
	total, err := q.Clone().Count(ctx)
	if err != nil {
		return zero, err
	}
	rows, err := q.Order(ent.Asc(webhook.FieldID)).Offset(page.Skip()).Limit(page.Limit()).All(ctx)
	if err != nil {
		return zero, err
	}
	return pagination.OffsetResult(rows, total, page), nil
}

// Get returns one of the scope's hooks.
func (s *Service) Get(ctx context.Context, actor *authz.Actor, sc Scope, id int) (*ent.WebHook, error) {
	o, err := s.resolve(ctx, actor, sc)
	if err != nil {
		return nil, err
	}
	return s.find(ctx, o, id)
}

// find returns the owner's hook id: 404 Not Found otherwise.
func (s *Service) find(ctx context.Context, o owner, id int) (*ent.WebHook, error) {
	h, err := db.ClientFrom(ctx, s.Client).WebHook.Query().Where(o.own(), webhook.ID(id)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("")
	}
	return h, err
}

// Create adds a hook to the scope.
func (s *Service) Create(ctx context.Context, actor *authz.Actor, sc Scope, in Input) (*ent.WebHook, error) {
	o, err := s.resolve(ctx, actor, sc)
	if err != nil {
		return nil, err
	}
	if in.URL == nil || strings.TrimSpace(*in.URL) == "" {
		return nil, apperr.Missing("url")
	}
	if err := s.validate(ctx, o.kind, in, nil); err != nil {
		return nil, err
	}
	c := db.ClientFrom(ctx, s.Client).WebHook.Create().SetType(webhook.Type(o.kind)).SetURL(*in.URL)
	switch o.kind {
	case Project:
		c.SetProjectID(o.project.ID).SetPushEvents(true)
	case Group:
		c.SetGroupID(o.group.ID).SetPushEvents(true)
	case System:
		c.SetRepositoryUpdateEvents(true)
	}
	m := c.Mutation()
	apply(m, in)
	if in.CustomHeaders == nil {
		m.SetCustomHeaders(map[string]string{})
	}
	if in.URLVariables == nil {
		m.SetURLVariables(map[string]string{})
	}
	return c.Save(ctx)
}

// Update changes a hook of the scope.
func (s *Service) Update(ctx context.Context, actor *authz.Actor, sc Scope, id int, in Input) (*ent.WebHook, error) {
	o, err := s.resolve(ctx, actor, sc)
	if err != nil {
		return nil, err
	}
	h, err := s.find(ctx, o, id)
	if err != nil {
		return nil, err
	}
	if in.URL != nil && strings.TrimSpace(*in.URL) == "" {
		return nil, apperr.Invalid("url")
	}
	if err := s.validate(ctx, o.kind, in, h); err != nil {
		return nil, err
	}
	u := db.ClientFrom(ctx, s.Client).WebHook.UpdateOne(h)
	if in.URL != nil {
		u.SetURL(*in.URL)
	}
	apply(u.Mutation(), in)
	return u.Save(ctx)
}

// Delete removes a hook of the scope and its log.
func (s *Service) Delete(ctx context.Context, actor *authz.Actor, sc Scope, id int) error {
	o, err := s.resolve(ctx, actor, sc)
	if err != nil {
		return err
	}
	h, err := s.find(ctx, o, id)
	if err != nil {
		return err
	}
	return db.ClientFrom(ctx, s.Client).WebHook.DeleteOne(h).Exec(ctx)
}

// SetCustomHeader sets (adds or replaces) one custom header of a hook.
func (s *Service) SetCustomHeader(ctx context.Context, actor *authz.Actor, sc Scope, id int, key, value string) error {
	return s.editMap(ctx, actor, sc, id, func(h *ent.WebHook) (map[string]string, func(*ent.WebHookUpdateOne, map[string]string)) {
		return h.CustomHeaders, func(u *ent.WebHookUpdateOne, m map[string]string) { u.SetCustomHeaders(m) }
	}, key, &value)
}

// DeleteCustomHeader removes one custom header of a hook: 404 when it has none of that key.
func (s *Service) DeleteCustomHeader(ctx context.Context, actor *authz.Actor, sc Scope, id int, key string) error {
	return s.editMap(ctx, actor, sc, id, func(h *ent.WebHook) (map[string]string, func(*ent.WebHookUpdateOne, map[string]string)) {
		return h.CustomHeaders, func(u *ent.WebHookUpdateOne, m map[string]string) { u.SetCustomHeaders(m) }
	}, key, nil)
}

// SetURLVariable sets one URL variable of a hook.
func (s *Service) SetURLVariable(ctx context.Context, actor *authz.Actor, sc Scope, id int, key, value string) error {
	return s.editMap(ctx, actor, sc, id, func(h *ent.WebHook) (map[string]string, func(*ent.WebHookUpdateOne, map[string]string)) {
		return h.URLVariables, func(u *ent.WebHookUpdateOne, m map[string]string) { u.SetURLVariables(m) }
	}, key, &value)
}

// DeleteURLVariable removes one URL variable of a hook.
func (s *Service) DeleteURLVariable(ctx context.Context, actor *authz.Actor, sc Scope, id int, key string) error {
	return s.editMap(ctx, actor, sc, id, func(h *ent.WebHook) (map[string]string, func(*ent.WebHookUpdateOne, map[string]string)) {
		return h.URLVariables, func(u *ent.WebHookUpdateOne, m map[string]string) { u.SetURLVariables(m) }
	}, key, nil)
}

// editMap sets (value not nil) or deletes one key of a hook's custom headers or URL variables.
func (s *Service) editMap(ctx context.Context, actor *authz.Actor, sc Scope, id int,
	pick func(*ent.WebHook) (map[string]string, func(*ent.WebHookUpdateOne, map[string]string)), key string, value *string) error {
	o, err := s.resolve(ctx, actor, sc)
	if err != nil {
		return err
	}
	return db.WithTx(ctx, s.Client, func(ctx context.Context, tx *ent.Client) error {
		h, err := s.find(ctx, o, id)
		if err != nil {
			return err
		}
		cur, set := pick(h)
		m := make(map[string]string, len(cur)+1)
		for k, v := range cur {
			m[k] = v
		}
		if value == nil {
			if _, ok := m[key]; !ok {
				return apperr.NotFound("")
			}
			delete(m, key)
		} else {
			if err := validKey(key); err != nil {
				return err
			}
			m[key] = *value
		}
		u := tx.WebHook.UpdateOne(h)
		set(u, m)
		return u.Exec(ctx)
	})
}

// headerKey is a valid custom header name or URL variable name.
var headerKey = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,255}$`)

func validKey(k string) error {
	if !headerKey.MatchString(k) {
		return apperr.Invalid("key")
	}
	return nil
}

// apply writes the given attributes into a create or update mutation.
func apply(m *ent.WebHookMutation, in Input) {
	if in.Name != nil {
		m.SetName(*in.Name)
	}
	if in.Description != nil {
		m.SetDescription(*in.Description)
	}
	if in.Token != nil {
		m.SetToken(*in.Token)
	}
	for name, v := range in.Flags {
		_ = m.SetField(name, v) // names were checked against the kind's flags
	}
	if in.PushEventsBranchFilter != nil {
		if *in.PushEventsBranchFilter == "" {
			m.ClearPushEventsBranchFilter()
		} else {
			m.SetPushEventsBranchFilter(*in.PushEventsBranchFilter)
		}
	}
	if in.BranchFilterStrategy != nil {
		m.SetBranchFilterStrategy(webhook.BranchFilterStrategy(*in.BranchFilterStrategy))
	}
	if in.CustomWebhookTemplate != nil {
		m.SetCustomWebhookTemplate(*in.CustomWebhookTemplate)
	}
	if in.ClearCustomWebhookTemplate {
		m.ClearCustomWebhookTemplate()
	}
	if in.EnableSSLVerification != nil {
		m.SetEnableSslVerification(*in.EnableSSLVerification)
	}
	if in.CustomHeaders != nil {
		m.SetCustomHeaders(toMap(in.CustomHeaders))
	}
	if in.URLVariables != nil {
		m.SetURLVariables(toMap(in.URLVariables))
	}
}

func toMap(kvs []KeyValue) map[string]string {
	m := make(map[string]string, len(kvs))
	for _, kv := range kvs {
		m[kv.Key] = kv.Value
	}
	return m
}

// validate checks the input for a hook of kind (cur is the hook being updated, nil on
// create): known flags, a valid branch filter, keys, and a URL that may be requested.
func (s *Service) validate(ctx context.Context, kind Kind, in Input, cur *ent.WebHook) error {
	known := map[string]bool{}
	for _, f := range flags[kind] {
		known[f] = true
	}
	for name := range in.Flags {
		if !known[name] {
			return apperr.BadParam(name + " does not have a valid value")
		}
	}
	if in.BranchFilterStrategy != nil {
		if err := webhook.BranchFilterStrategyValidator(webhook.BranchFilterStrategy(*in.BranchFilterStrategy)); err != nil {
			return apperr.NotAllowedValue("branch_filter_strategy")
		}
	}
	strategy := "wildcard"
	if cur != nil {
		strategy = string(cur.BranchFilterStrategy)
	}
	if in.BranchFilterStrategy != nil {
		strategy = *in.BranchFilterStrategy
	}
	if in.PushEventsBranchFilter != nil && strategy == "regex" && *in.PushEventsBranchFilter != "" {
		if _, err := regexp.Compile(*in.PushEventsBranchFilter); err != nil {
			return apperr.Validation(map[string][]string{"push_events_branch_filter": {"should be a valid regular expression"}})
		}
	}
	for _, kv := range append(append([]KeyValue{}, in.CustomHeaders...), in.URLVariables...) {
		if err := validKey(kv.Key); err != nil {
			return err
		}
	}
	url := ""
	vars := map[string]string{}
	if cur != nil {
		url, vars = cur.URL, cur.URLVariables
	}
	if in.URL != nil {
		url = *in.URL
	}
	if in.URLVariables != nil {
		vars = toMap(in.URLVariables)
	}
	if in.URL == nil && in.URLVariables == nil {
		return nil
	}
	pol, err := s.policy(ctx, kind)
	if err != nil {
		return err
	}
	if err := pol.Check(ctx, interpolate(url, vars)); err != nil {
		if errors.Is(err, outbound.ErrBlocked) || errors.Is(err, outbound.ErrInvalidURL) {
			return ErrInvalidURL
		}
		return ErrInvalidURL // a host that does not resolve is not a valid hook URL either
	}
	return nil
}

// policy is the outbound policy of a kind of hook: system hooks follow
// allow_local_requests_from_system_hooks, the others
// allow_local_requests_from_web_hooks_and_services; both the allowlist.
func (s *Service) policy(ctx context.Context, kind Kind) (outbound.Policy, error) {
	key := "allow_local_requests_from_web_hooks_and_services"
	if kind == System {
		key = "allow_local_requests_from_system_hooks"
	}
	var p outbound.Policy
	if err := s.Settings.Get(ctx, key, &p.AllowLocal); err != nil {
		return p, err
	}
	if err := s.Settings.Get(ctx, "outbound_local_requests_whitelist", &p.Allowlist); err != nil {
		return p, err
	}
	return p, nil
}

// interpolate replaces {name} in a hook URL by its URL variable.
func interpolate(url string, vars map[string]string) string {
	if len(vars) == 0 {
		return url
	}
	keys := make([]string, 0, len(vars))
	for k := range vars {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	pairs := make([]string, 0, 2*len(keys))
	for _, k := range keys {
		pairs = append(pairs, "{"+k+"}", vars[k])
	}
	return strings.NewReplacer(pairs...).Replace(url)
}
