// Package settings reads and writes instance settings (GitLab's application settings), with
// defaults for every key that was never written.
package settings

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"anvil/ent"
	"anvil/ent/setting"
	"anvil/internal/db"
)

// Defaults are the values of settings never written.
var Defaults = map[string]any{
	"personal_access_token_prefix":            "glpat-",
	"repository_storages_weighted":            map[string]int{"default": 100},
	"default_projects_limit":                  100000,
	"signup_enabled":                          true,
	"user_default_external":                   false,
	"default_project_visibility":              "private",
	"default_group_visibility":                "private",
	"password_authentication_enabled_for_git": true,
	"minimum_password_length":                 8,
	// push_event_activities_limit: pushes of more refs of one kind than this are one bulk event.
	"push_event_activities_limit": 3,
	// Outbound requests to local addresses (internal/outbound): refused unless allowed.
	"allow_local_requests_from_web_hooks_and_services": false,
	"allow_local_requests_from_system_hooks":           false,
	"outbound_local_requests_whitelist":                []string{},
}

// cacheTTL bounds how stale a cached setting may be on another replica; GitLab caches 60 s.
const cacheTTL = 5 * time.Second

// Service reads and writes settings.
type Service struct {
	client *ent.Client
	mu     sync.Mutex
	cache  map[string]cached
}

type cached struct {
	raw string
	at  time.Time
}

// New returns the settings service.
func New(client *ent.Client) *Service { return &Service{client: client, cache: map[string]cached{}} }

// Get decodes the setting key into out, falling back to its default.
func (s *Service) Get(ctx context.Context, key string, out any) error {
	s.mu.Lock()
	c, ok := s.cache[key]
	s.mu.Unlock()
	if !ok || time.Since(c.at) > cacheTTL {
		row, err := db.ClientFrom(ctx, s.client).Setting.Query().Where(setting.Key(key)).Only(ctx)
		switch {
		case ent.IsNotFound(err):
			b, _ := json.Marshal(Defaults[key])
			c = cached{raw: string(b), at: time.Now()}
		case err != nil:
			return err
		default:
			c = cached{raw: row.Value, at: time.Now()}
		}
		s.mu.Lock()
		s.cache[key] = c
		s.mu.Unlock()
	}
	return json.Unmarshal([]byte(c.raw), out)
}

// String returns a string setting.
func (s *Service) String(ctx context.Context, key string) string {
	var v string
	_ = s.Get(ctx, key, &v)
	return v
}

// Set writes a setting.
func (s *Service) Set(ctx context.Context, key string, value any) error {
	b, err := json.Marshal(value)
	if err != nil {
		return err
	}
	err = db.ClientFrom(ctx, s.client).Setting.Create().SetKey(key).SetValue(string(b)).
		OnConflictColumns(setting.FieldKey).UpdateNewValues().Exec(ctx)
	if err != nil {
		return err
	}
	s.mu.Lock()
	delete(s.cache, key)
	s.mu.Unlock()
	return nil
}
