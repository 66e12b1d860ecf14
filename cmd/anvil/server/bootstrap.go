package server

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"

	"anvil/ent"
	"anvil/ent/personalaccesstoken"
	"anvil/ent/user"
	"anvil/internal/service"
	"anvil/internal/service/tokens"
	"anvil/internal/service/users"
)

// Bootstrap creates the administrator root (user 1) on an empty database. With
// ANVIL_INITIAL_ROOT_TOKEN set, that string becomes a root token with api, sudo and admin_mode;
// without ANVIL_INITIAL_ROOT_PASSWORD a random password is written to <data dir>/initial_root_password.
func Bootstrap(ctx context.Context, s *service.Services) error {
	c := s.DB.Client
	root, err := c.User.Query().Where(user.Username("root")).Only(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return err
	}
	if root == nil {
		exists, err := c.User.Query().Exist(ctx)
		if err != nil {
			return err
		}
		if exists {
			return nil // root was renamed or removed on purpose; never recreate it
		}
		pw := s.Config.InitialRootPassword
		generated := pw == ""
		if generated {
			b := make([]byte, 24)
			_, _ = rand.Read(b)
			pw = base64.RawURLEncoding.EncodeToString(b)
		}
		admin := true
		root, err = s.Users.Create(ctx, nil, users.CreateInput{
			Username: "root", Name: "Administrator", Email: "admin@example.com", Password: &pw, Admin: &admin,
			// The operator chose this password in the configuration: a weak one is their call
			// (logged below), not a reason for the server not to start.
			AllowWeakPassword: true,
		})
		if err != nil {
			return fmt.Errorf("create root: %w", err)
		}
		if generated {
			path := filepath.Join(s.Config.DataDir, "initial_root_password")
			if err := os.WriteFile(path, []byte("Password: "+pw+"\n"), 0o600); err != nil {
				return fmt.Errorf("write initial root password: %w", err)
			}
			s.Log.Info("created administrator root with a generated password", "password_file", path)
		} else {
			s.Log.Info("created administrator root with the configured password")
			if users.WeakPassword(pw, "Administrator", "root", "admin@example.com") {
				s.Log.Warn("the configured root password is weak: GitLab's rules would refuse it; change it")
			}
		}
	}
	if secret := s.Config.InitialRootToken; secret != "" {
		exists, err := c.PersonalAccessToken.Query().Where(personalaccesstoken.TokenDigest(tokens.Digest(secret))).Exist(ctx)
		if err != nil {
			return err
		}
		if !exists {
			_, _, err := s.Tokens.Create(ctx, nil, tokens.CreateInput{
				UserID: root.ID, Name: "initial root token", Scopes: []string{"api", "sudo", "admin_mode"},
				NoExpiry: true, Secret: secret,
			})
			if err != nil {
				return fmt.Errorf("create initial root token: %w", err)
			}
			s.Log.Info("created the initial root token")
		}
	}
	return nil
}
