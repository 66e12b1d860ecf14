// Package service wires the domain services together. Each sub-package owns one domain's
// operations; rest/ and graph/ call them and nothing below them.
package service

import (
	"log/slog"

	"anvil/internal/authz"
	"anvil/internal/config"
	"anvil/internal/db"
	"anvil/internal/service/groups"
	"anvil/internal/service/members"
	"anvil/internal/service/projects"
	"anvil/internal/service/settings"
	"anvil/internal/service/tokens"
	"anvil/internal/service/users"
)

// Services is every domain service of one server.
type Services struct {
	Config   config.Config
	DB       *db.DB
	Log      *slog.Logger
	Policy   *authz.Policy
	Settings *settings.Service
	Users    *users.Service
	Tokens   *tokens.Service
	Groups   *groups.Service
	Projects *projects.Service
	Members  *members.Service
}

// New builds the services over an open database.
func New(cfg config.Config, d *db.DB, log *slog.Logger) *Services {
	policy := authz.New(d.Client)
	st := settings.New(d.Client)
	g := groups.New(d.Client, policy, st)
	p := projects.New(d.Client, policy, st)
	u := users.New(d.Client, st)
	return &Services{
		Config: cfg, DB: d, Log: log, Policy: policy, Settings: st,
		Users: u,
		Tokens: tokens.New(d.Client, st, tokens.Deps{
			Users: u, Policy: policy, Projects: p, Groups: g, ExternalURL: cfg.ExternalURL,
		}),
		Groups:   g,
		Projects: p,
		Members:  members.New(d.Client, policy, g, p),
	}
}
