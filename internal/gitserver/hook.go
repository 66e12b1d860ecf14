package gitserver

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"anvil/internal/git"
	"anvil/internal/service/protectedbranches"
)

// The environment of receive-pack's hooks. Git runs the hooks of the hooks directory, which
// are symbolic links to Anvil's own executable; ANVIL_HOOK tells that executable to act as the
// hook named by its argv[0] instead of starting a server.
const (
	envHook = "ANVIL_HOOK"
	// envRepo is the repository's absolute path.
	envRepo = "ANVIL_HOOK_REPO"
	// envHome is the private HOME of the git commands the hook runs.
	envHome = "ANVIL_HOOK_HOME"
	// envVerdicts carries protectedbranches.CheckPush's verdicts, as base64 JSON.
	envVerdicts = "ANVIL_HOOK_VERDICTS"
	// envResult names the file post-receive appends the accepted ref updates to.
	envResult = "ANVIL_HOOK_RESULT"
)

// Hook names: the links of the hooks directory.
const (
	preReceive  = "pre-receive"
	postReceive = "post-receive"
)

// hookTimeout bounds a hook's own work (a few ancestry checks).
const hookTimeout = 5 * time.Minute

// hookReady is set by RunHookIfRequested: this executable knows how to act as a hook. Pushes
// are refused without it, rather than letting git run a binary that would not recognise the
// hook mode (a test binary would run its tests).
var hookReady atomic.Bool

// RunHookIfRequested runs the git hook this process was started as, and exits, when git
// started it as one of Anvil's receive-pack hooks; otherwise it records that this executable
// can serve as the hook and returns. Call it first thing in main, and in TestMain of every test
// package that pushes over HTTP, before m.Run.
func RunHookIfRequested() {
	if os.Getenv(envHook) == "" {
		hookReady.Store(true)
		return
	}
	os.Exit(runHook(filepath.Base(os.Args[0]), os.Stdin, os.Stderr))
}

// runHook runs hook name and returns its exit status.
func runHook(name string, stdin io.Reader, stderr io.Writer) int {
	ctx, cancel := context.WithTimeout(context.Background(), hookTimeout)
	defer cancel()
	var err error
	switch name {
	case preReceive:
		err = runPreReceive(ctx, stdin, stderr)
	case postReceive:
		err = runPostReceive(stdin)
	default:
		_, _ = io.Copy(io.Discard, stdin)
	}
	var denied *denial
	switch {
	case errors.As(err, &denied):
		fmt.Fprintf(stderr, "GitLab: %s\n", denied.msg)
		return 1
	case err != nil:
		fmt.Fprintf(stderr, "GitLab: Internal error (%s hook): %v\n", name, err)
		return 1
	}
	return 0
}

// denial is a refused push.
type denial struct{ msg string }

func (d *denial) Error() string { return d.msg }

// hookCommand is one line of a receive-pack hook's input: "<old> <new> <ref>".
type hookCommand struct {
	old, new git.ObjectID
	ref      string
}

// readHookCommands reads a hook's input.
func readHookCommands(r io.Reader) ([]hookCommand, error) {
	var out []hookCommand
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 64<<10)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 3 {
			return nil, fmt.Errorf("malformed hook input %q", sc.Text())
		}
		out = append(out, hookCommand{old: git.ObjectID(f[0]), new: git.ObjectID(f[1]), ref: f[2]})
	}
	return out, sc.Err()
}

// runPreReceive carries out the verdicts of the push check on the updates git is about to
// make, in their order: the fast-forward check (which needs the pushed commits, visible only
// here in git's quarantine) and then the refusal, the first failure refusing the whole push.
func runPreReceive(ctx context.Context, stdin io.Reader, _ io.Writer) error {
	cmds, err := readHookCommands(stdin)
	if err != nil {
		return err
	}
	verdicts, err := decodeVerdicts(os.Getenv(envVerdicts))
	if err != nil || len(verdicts) == 0 {
		return err
	}
	byRef := make(map[string]protectedbranches.Verdict, len(verdicts))
	for _, v := range verdicts {
		byRef[v.Ref] = v
	}
	var client *git.Client
	defer func() {
		if client != nil {
			_ = client.Close()
		}
	}()
	for _, c := range cmds {
		v, ok := byRef[c.ref]
		if !ok {
			continue
		}
		if v.FastForward && !c.old.IsZero() && !c.new.IsZero() {
			if client == nil {
				if client, err = git.NewHookClient(ctx, os.Getenv(envHome), os.Environ()); err != nil {
					return err
				}
			}
			ff, err := client.Repository(os.Getenv(envRepo)).IsAncestor(ctx, string(c.old), string(c.new))
			if err != nil {
				return err
			}
			if !ff {
				return &denial{protectedbranches.MsgForcePushProtected}
			}
		}
		if v.Deny != "" {
			return &denial{v.Deny}
		}
	}
	return nil
}

// runPostReceive appends the updates git made to the result file the server reads after the
// push (one "<old> <new> <ref>" line each).
func runPostReceive(stdin io.Reader) error {
	data, err := io.ReadAll(stdin)
	if err != nil {
		return err
	}
	path := os.Getenv(envResult)
	if path == "" || len(data) == 0 {
		return nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

// encodeVerdicts packs verdicts into one environment value.
func encodeVerdicts(v []protectedbranches.Verdict) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(b), nil
}

// decodeVerdicts reverses encodeVerdicts; "" is none.
func decodeVerdicts(s string) ([]protectedbranches.Verdict, error) {
	if s == "" {
		return nil, nil
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("decode verdicts: %w", err)
	}
	var v []protectedbranches.Verdict
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("decode verdicts: %w", err)
	}
	return v, nil
}

// installHooks makes dir hold the hooks as links to this executable, replacing links that
// point elsewhere (an upgraded binary).
func installHooks(dir string) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find own executable: %w", err)
	}
	if exe, err = filepath.EvalSymlinks(exe); err != nil {
		return fmt.Errorf("find own executable: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, name := range []string{preReceive, postReceive} {
		link := filepath.Join(dir, name)
		if cur, err := os.Readlink(link); err == nil && cur == exe {
			continue
		}
		tmp := link + ".tmp"
		_ = os.Remove(tmp)
		if err := os.Symlink(exe, tmp); err != nil {
			return err
		}
		if err := os.Rename(tmp, link); err != nil {
			return err
		}
	}
	return nil
}
