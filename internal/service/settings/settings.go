// Package settings reads and writes instance settings (GitLab's application settings): one
// table of every setting with its type, default and rules (fields.go), a cache with GitLab's
// 60-second lifetime, and the administrator's GET/PUT /application/settings.
package settings

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"anvil/ent"
	"anvil/ent/setting"
	"anvil/internal/db"
)

// CacheTTL bounds how stale a setting may be on another replica: GitLab caches application
// settings for 60 seconds. The replica that writes drops its cache at once.
const CacheTTL = 60 * time.Second

// Keys of the settings row's own timestamps, kept beside the settings.
const (
	metaCreatedAt = "meta.created_at"
	metaUpdatedAt = "meta.updated_at"
)

// Service reads and writes settings.
type Service struct {
	client   *ent.Client
	storages []string
	ttl      time.Duration

	mu       sync.Mutex
	snapshot map[string]string // key → JSON value of every written setting
	loadedAt time.Time
}

// New returns the settings service. storages are the configured repository storages, which
// repository_storages_weighted may name.
func New(client *ent.Client, storages ...string) *Service {
	return &Service{client: client, storages: storages, ttl: CacheTTL}
}

// SetCacheTTL changes the cache lifetime (tests of another replica's staleness).
func (s *Service) SetCacheTTL(d time.Duration) {
	s.mu.Lock()
	s.ttl = d
	s.mu.Unlock()
}

// Invalidate drops the cache, so the next read loads every setting again.
func (s *Service) Invalidate() {
	s.mu.Lock()
	s.snapshot = nil
	s.mu.Unlock()
}

// load returns the written settings, from the cache while it is fresh.
func (s *Service) load(ctx context.Context) (map[string]string, error) {
	s.mu.Lock()
	snap, at, ttl := s.snapshot, s.loadedAt, s.ttl
	s.mu.Unlock()
	if snap != nil && time.Since(at) <= ttl {
		return snap, nil
	}
	rows, err := db.ClientFrom(ctx, s.client).Setting.Query().All(ctx)
	if err != nil {
		return nil, err
	}
	snap = make(map[string]string, len(rows))
	for _, r := range rows {
		snap[r.Key] = r.Value
	}
	// A read inside a transaction may see writes that are not committed: keep it out of the
	// cache.
	if ent.TxFromContext(ctx) == nil {
		s.mu.Lock()
		s.snapshot, s.loadedAt = snap, time.Now()
		s.mu.Unlock()
	}
	return snap, nil
}

// raw returns the JSON of a setting: its written value or its default.
func (s *Service) raw(ctx context.Context, key string) (string, error) {
	snap, err := s.load(ctx)
	if err != nil {
		return "", err
	}
	if v, ok := snap[key]; ok {
		return v, nil
	}
	b, err := json.Marshal(Defaults[key])
	return string(b), err
}

// Get decodes the setting key into out, falling back to its default.
func (s *Service) Get(ctx context.Context, key string, out any) error {
	raw, err := s.raw(ctx, key)
	if err != nil {
		return err
	}
	return json.Unmarshal([]byte(raw), out)
}

// String returns a string setting ("" when null).
func (s *Service) String(ctx context.Context, key string) string {
	var v *string
	_ = s.Get(ctx, key, &v)
	if v == nil {
		return ""
	}
	return *v
}

// Bool returns a boolean setting (false when it cannot be read).
func (s *Service) Bool(ctx context.Context, key string) bool {
	var v bool
	_ = s.Get(ctx, key, &v)
	return v
}

// Int returns an integer setting (0 when null or unreadable).
func (s *Service) Int(ctx context.Context, key string) int {
	var v *int
	_ = s.Get(ctx, key, &v)
	if v == nil {
		return 0
	}
	return *v
}

// Set writes one setting without the PUT rules (server configuration and tests).
func (s *Service) Set(ctx context.Context, key string, value any) error {
	return s.write(ctx, map[string]any{key: value})
}

// write stores values in one transaction, stamps the update time and drops this replica's
// cache once committed.
func (s *Service) write(ctx context.Context, values map[string]any) error {
	now, err := json.Marshal(time.Now().UTC())
	if err != nil {
		return err
	}
	err = db.WithTx(ctx, s.client, func(ctx context.Context, c *ent.Client) error {
		for key, value := range values {
			b, err := json.Marshal(value)
			if err != nil {
				return fmt.Errorf("setting %s: %w", key, err)
			}
			if err := upsert(ctx, c, key, string(b)); err != nil {
				return err
			}
		}
		if err := c.Setting.Create().SetKey(metaCreatedAt).SetValue(string(now)).
			OnConflictColumns(setting.FieldKey).Ignore().Exec(ctx); err != nil {
			return err
		}
		return upsert(ctx, c, metaUpdatedAt, string(now))
	})
	s.Invalidate()
	return err
}

func upsert(ctx context.Context, c *ent.Client, key, value string) error {
	return c.Setting.Create().SetKey(key).SetValue(value).
		OnConflictColumns(setting.FieldKey).UpdateNewValues().Exec(ctx)
}
