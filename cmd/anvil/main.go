// Command anvil is the Anvil server: a GitLab API v4 compatible software-development platform.
//
// Usage:
//
//	anvil serve                      start the server (the default)
//	anvil migrate                    migrate the database schema and exit
//	anvil version                    print the version
//	anvil token create -user root -name ci -scopes api,sudo [-expires-at 2027-01-01]
//	                                 create a personal access token and print it
//	anvil user unlock -user NAME     lift a user's sign-in lock (too many failed passwords)
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"anvil/cmd/anvil/server"
	"anvil/internal/authz"
	"anvil/internal/config"
	"anvil/internal/db"
	"anvil/internal/gitserver"
	"anvil/internal/jobs"
	"anvil/internal/service"
	"anvil/internal/service/tokens"
	"anvil/internal/version"
)

func main() {
	// Git runs this binary as the receive-pack hooks; that mode is decided before anything else.
	gitserver.RunHookIfRequested()
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "anvil:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	cmd := "serve"
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	cfg, err := config.FromEnv()
	if err != nil {
		return err
	}
	log := newLogger(cfg.LogLevel)
	slog.SetDefault(log)
	switch cmd {
	case "serve":
		return serve(cfg, log, args)
	case "migrate":
		return migrate(cfg, log)
	case "version":
		fmt.Printf("anvil %s (revision %s, GitLab API %s)\n", version.Anvil, version.Revision, version.GitLab)
		return nil
	case "token":
		return token(cfg, log, args)
	case "user":
		return userCommand(cfg, log, args)
	case "help", "-h", "--help":
		fmt.Println("usage: anvil [serve|migrate|version|token create -user NAME -name NAME -scopes a,b [-expires-at YYYY-MM-DD]|user unlock -user NAME]")
		return nil
	}
	return fmt.Errorf("unknown command %q (try: serve, migrate, version, token, user)", cmd)
}

func newLogger(level string) *slog.Logger {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		l = slog.LevelInfo
	}
	return slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: l}))
}

func serve(cfg config.Config, log *slog.Logger, args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.StringVar(&cfg.Listen, "listen", cfg.Listen, "address to listen on (ANVIL_LISTEN)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv, err := server.New(ctx, cfg, log, server.Options{})
	if err != nil {
		return err
	}
	defer srv.Close()
	return srv.Serve(ctx)
}

func migrate(cfg config.Config, log *slog.Logger) error {
	d, err := db.Open(cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		return err
	}
	defer d.Close()
	start := time.Now()
	if err := d.Migrate(context.Background()); err != nil {
		return err
	}
	q := jobs.New(d, cfg.DatabaseURL, jobs.Config{}, log)
	defer q.Stop(context.Background())
	if err := q.Migrate(context.Background()); err != nil {
		return err
	}
	log.Info("schema migrated", "dialect", d.Dialect, "duration_ms", time.Since(start).Milliseconds())
	return nil
}

func token(cfg config.Config, log *slog.Logger, args []string) error {
	if len(args) == 0 || args[0] != "create" {
		return fmt.Errorf("usage: anvil token create -user NAME -name NAME -scopes a,b [-expires-at YYYY-MM-DD]")
	}
	fs := flag.NewFlagSet("token create", flag.ContinueOnError)
	username := fs.String("user", "root", "username of the token's owner")
	name := fs.String("name", "cli", "token name")
	scopes := fs.String("scopes", "api", "comma-separated scopes")
	expires := fs.String("expires-at", "", "expiry date YYYY-MM-DD (default: one year)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	ctx := context.Background()
	srv, err := server.New(ctx, cfg, log, server.Options{})
	if err != nil {
		return err
	}
	defer srv.Close()
	return createToken(ctx, srv.Services, *username, *name, *scopes, *expires)
}

func createToken(ctx context.Context, s *service.Services, username, name, scopes, expires string) error {
	u, err := s.Users.FindByRef(ctx, username)
	if err != nil {
		return fmt.Errorf("user %q: %w", username, err)
	}
	in := tokens.CreateInput{UserID: u.ID, Name: name, Scopes: strings.Split(scopes, ",")}
	if expires != "" {
		t, err := time.Parse("2006-01-02", expires)
		if err != nil {
			return fmt.Errorf("expires-at %q: want YYYY-MM-DD", expires)
		}
		in.ExpiresAt = &t
	}
	_, secret, err := s.Tokens.Create(ctx, nil, in)
	if err != nil {
		return err
	}
	fmt.Println(secret)
	return nil
}

// userCommand runs `anvil user unlock -user NAME`: GitLab's command-line unlock of an account
// locked by failed sign-ins (its REST API has none), done as the first administrator.
func userCommand(cfg config.Config, log *slog.Logger, args []string) error {
	const usage = "usage: anvil user unlock -user NAME"
	if len(args) == 0 || args[0] != "unlock" {
		return errors.New(usage)
	}
	fs := flag.NewFlagSet("user unlock", flag.ContinueOnError)
	username := fs.String("user", "", "username or id of the locked user")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if *username == "" {
		return errors.New(usage)
	}
	ctx := context.Background()
	srv, err := server.New(ctx, cfg, log, server.Options{})
	if err != nil {
		return err
	}
	defer srv.Close()
	admin, err := srv.Services.Users.FirstAdmin(ctx)
	if err != nil {
		return err
	}
	changed, err := srv.Services.Users.Unlock(ctx, authz.System(admin), *username)
	if err != nil {
		return fmt.Errorf("user %q: %w", *username, err)
	}
	if changed {
		fmt.Printf("unlocked %s\n", *username)
	} else {
		fmt.Printf("%s was not locked\n", *username)
	}
	return nil
}
