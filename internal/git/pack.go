package git

import (
	"context"
	"fmt"
	"io"

	"anvil/internal/git/gitcmd"
)

// PackOptions describe one smart-HTTP exchange (the body of a POST to git-upload-pack or
// git-receive-pack, or the info/refs advertisement).
type PackOptions struct {
	// Stdin is the request body (nil for an advertisement).
	Stdin io.Reader
	// Stdout receives the response body.
	Stdout io.Writer
	// AdvertiseRefs writes the ref advertisement (GET info/refs) instead of serving a request.
	// The caller writes the "# service=..." pkt-line and flush before it.
	AdvertiseRefs bool
	// GitProtocol is the client's Git-Protocol header ("version=2"), passed to git as
	// GIT_PROTOCOL; "" means protocol v0.
	GitProtocol string
}

// UploadPack serves a fetch or clone (git upload-pack --stateless-rpc).
func (r *Repository) UploadPack(ctx context.Context, opts PackOptions) error {
	cmd := gitcmd.New("upload-pack", "--stateless-rpc")
	if opts.AdvertiseRefs {
		cmd.Flag("--advertise-refs")
	}
	return r.pack(ctx, cmd, opts)
}

// ReceivePack serves a push (git receive-pack --stateless-rpc). Objects are checked (fsck)
// before refs move; hooks do not run, so ref rules must be checked by the caller.
func (r *Repository) ReceivePack(ctx context.Context, opts PackOptions) error {
	cmd := gitcmd.New("receive-pack", "--stateless-rpc")
	if opts.AdvertiseRefs {
		cmd.Flag("--advertise-refs")
	}
	return r.pack(ctx, cmd, opts)
}

func (r *Repository) pack(ctx context.Context, cmd *gitcmd.Cmd, opts PackOptions) error {
	runOpts := []gitcmd.Option{gitcmd.Stdout(opts.Stdout)}
	if opts.Stdin != nil {
		runOpts = append(runOpts, gitcmd.Stdin(opts.Stdin))
	}
	if opts.GitProtocol != "" {
		for _, c := range opts.GitProtocol {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '=' || c == ':' || c == '.' || c == '-' || c == '_') {
				return fmt.Errorf("%w: git protocol %q", ErrInvalidArgument, opts.GitProtocol)
			}
		}
		runOpts = append(runOpts, gitcmd.Env("GIT_PROTOCOL", opts.GitProtocol))
	}
	// These commands take the repository directory as their argument.
	if err := r.missing(r.c.runner.Run(ctx, "", cmd.Arg(r.path), runOpts...)); err != nil {
		return fmt.Errorf("%s: %w", cmd.Name(), err)
	}
	return nil
}
