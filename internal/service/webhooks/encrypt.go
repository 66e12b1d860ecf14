package webhooks

import (
	"context"
	"fmt"

	"anvil/ent"
	"anvil/ent/hook"
	"anvil/internal/secretbox"
)

// Hooks' URLs and secret tokens are encrypted at rest (GitLab's encrypted url and token
// columns): an ent hook seals them on every write, an interceptor opens them on every read, so
// that every path of the service sees plaintext and the database holds none. Rows written
// before encryption are read as they are and sealed at start (EncryptAtRest).

// rawRead marks a context whose hook reads return the stored values (EncryptAtRest).
type rawRead struct{}

// registerEncryption installs the sealing hook and the opening interceptor.
func (s *Service) registerEncryption(box *secretbox.Box) {
	s.Client.WebHook.Use(func(next ent.Mutator) ent.Mutator {
		return hook.WebHookFunc(func(ctx context.Context, m *ent.WebHookMutation) (ent.Value, error) {
			if v, ok := m.URL(); ok {
				m.SetURL(box.Seal(v))
			}
			if v, ok := m.Token(); ok {
				m.SetToken(box.Seal(v))
			}
			v, err := next.Mutate(ctx, m)
			if h, ok := v.(*ent.WebHook); ok && err == nil {
				err = open(box, h)
			}
			return v, err
		})
	})
	s.Client.WebHook.Intercept(ent.InterceptFunc(func(next ent.Querier) ent.Querier {
		return ent.QuerierFunc(func(ctx context.Context, q ent.Query) (ent.Value, error) {
			v, err := next.Query(ctx, q)
			if err != nil || ctx.Value(rawRead{}) != nil {
				return v, err
			}
			switch hs := v.(type) {
			case []*ent.WebHook:
				for _, h := range hs {
					if err := open(box, h); err != nil {
						return nil, err
					}
				}
			case *ent.WebHook:
				if err := open(box, hs); err != nil {
					return nil, err
				}
			}
			return v, nil
		})
	}))
}

// open replaces h's sealed URL and token by their plaintext.
func open(box *secretbox.Box, h *ent.WebHook) error {
	url, err := box.Open(h.URL)
	if err != nil {
		return fmt.Errorf("web hook %d url: %w", h.ID, err)
	}
	token, err := box.Open(h.Token)
	if err != nil {
		return fmt.Errorf("web hook %d token: %w", h.ID, err)
	}
	h.URL, h.Token = url, token
	return nil
}

// EncryptAtRest seals the URL and token of every hook still stored in plaintext (rows written
// before encryption), one row per statement: a crash part-way leaves some rows sealed and the
// rest plaintext, both of which read correctly, and the next start finishes the work. The
// URLs of delivery logs still showing credentials are masked as well.
func (s *Service) EncryptAtRest(ctx context.Context) error {
	raw := context.WithValue(ctx, rawRead{}, true)
	hooks, err := s.Client.WebHook.Query().All(raw)
	if err != nil {
		return err
	}
	for _, h := range hooks {
		if secretbox.Sealed(h.URL) && (h.Token == "" || secretbox.Sealed(h.Token)) {
			continue
		}
		// The hook seals what is set; the sealed half is set again as it is (Seal leaves it).
		if err := s.Client.WebHook.UpdateOneID(h.ID).SetURL(h.URL).SetToken(h.Token).Exec(raw); err != nil {
			return fmt.Errorf("encrypt web hook %d: %w", h.ID, err)
		}
	}
	// Delivery logs written before their URLs were masked are masked too.
	return s.maskLogURLs(ctx)
}
