package catfile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"anvil/internal/git/gitcmd"
)

type fixture struct {
	runner *gitcmd.Runner
	repo   string
	hello  string // blob "hello\n"
	big    string // blob of 200000 bytes
	commit string
}

func setup(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	r, err := gitcmd.NewRunner(ctx, gitcmd.Config{HomeDir: t.TempDir()})
	require.NoError(t, err)
	f := &fixture{runner: r, repo: filepath.Join(t.TempDir(), "r.git")}
	require.NoError(t, r.Run(ctx, "", gitcmd.New("init", "--bare", "--quiet", "--initial-branch=main").Arg(f.repo)))
	f.hello = f.write(t, "hello\n")
	f.big = f.write(t, strings.Repeat("x", 200000))
	out, err := r.Output(ctx, f.repo, gitcmd.New("commit-tree").Arg("4b825dc642cb6eb9a060e54bf8d69288fbee4904"),
		gitcmd.Stdin(strings.NewReader("msg\n")),
		gitcmd.Env("GIT_AUTHOR_NAME", "A"), gitcmd.Env("GIT_AUTHOR_EMAIL", "a@x"), gitcmd.Env("GIT_AUTHOR_DATE", "@1600000000 +0000"),
		gitcmd.Env("GIT_COMMITTER_NAME", "A"), gitcmd.Env("GIT_COMMITTER_EMAIL", "a@x"), gitcmd.Env("GIT_COMMITTER_DATE", "@1600000000 +0000"))
	require.NoError(t, err)
	f.commit = strings.TrimSpace(string(out))
	f.setRef(t, "refs/heads/main", f.commit)
	return f
}

func (f *fixture) write(t *testing.T, content string) string {
	t.Helper()
	out, err := f.runner.Output(context.Background(), f.repo, gitcmd.New("hash-object", "-w", "--stdin"), gitcmd.Stdin(strings.NewReader(content)))
	require.NoError(t, err)
	return strings.TrimSpace(string(out))
}

func (f *fixture) setRef(t *testing.T, ref, id string) {
	t.Helper()
	in := fmt.Sprintf("update %s %s\n", ref, id)
	require.NoError(t, f.runner.Run(context.Background(), f.repo, gitcmd.New("update-ref", "--stdin"), gitcmd.Stdin(strings.NewReader(in))))
}

func TestBatch_reads(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	c := New(ctx, f.runner, Options{})
	defer c.Close()
	b, err := c.Get(ctx, f.repo)
	require.NoError(t, err)
	defer c.Put(b)

	t.Run("info", func(t *testing.T) {
		info, err := b.Info(ctx, f.hello)
		require.NoError(t, err)
		require.Equal(t, Info{OID: f.hello, Type: "blob", Size: 6}, info)
		info, err = b.Info(ctx, "main^{tree}")
		require.NoError(t, err)
		require.Equal(t, Info{OID: "4b825dc642cb6eb9a060e54bf8d69288fbee4904", Type: "tree", Size: 0}, info)
	})
	t.Run("read", func(t *testing.T) {
		obj, err := b.Read(ctx, "main", -1)
		require.NoError(t, err)
		require.Equal(t, "commit", obj.Type)
		require.Equal(t, f.commit, obj.OID)
		require.True(t, bytes.HasPrefix(obj.Data, []byte("tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n")))
		require.False(t, obj.Truncated)
	})
	t.Run("read with limit keeps the stream in step", func(t *testing.T) {
		obj, err := b.Read(ctx, f.big, 10)
		require.NoError(t, err)
		require.Equal(t, "xxxxxxxxxx", string(obj.Data))
		require.True(t, obj.Truncated)
		require.EqualValues(t, 200000, obj.Size)
		obj, err = b.Read(ctx, f.hello, 100)
		require.NoError(t, err)
		require.Equal(t, "hello\n", string(obj.Data))
		require.False(t, obj.Truncated)
	})
	t.Run("read to a writer", func(t *testing.T) {
		var buf bytes.Buffer
		info, err := b.ReadTo(ctx, f.big, &buf)
		require.NoError(t, err)
		require.EqualValues(t, 200000, info.Size)
		require.Equal(t, 200000, buf.Len())
	})
	t.Run("missing and invalid names", func(t *testing.T) {
		for _, tc := range []struct {
			name string
			err  error
		}{
			{"0123456789012345678901234567890123456789", ErrNotFound},
			{"nope", ErrNotFound},
			{"main:no/such/file", ErrNotFound},
			{"", ErrInvalidName},
			{"a\nb", ErrInvalidName},
			{"a\x00b", ErrInvalidName},
		} {
			_, err := b.Info(ctx, tc.name)
			require.ErrorIs(t, err, tc.err, tc.name)
			_, err = b.Read(ctx, tc.name, -1)
			require.ErrorIs(t, err, tc.err, tc.name)
		}
		// The process is still usable after these.
		require.False(t, b.Proc().Broken)
		_, err := b.Info(ctx, f.hello)
		require.NoError(t, err)
	})
	t.Run("many in one round trip", func(t *testing.T) {
		infos, err := b.InfoMany(ctx, []string{f.hello, "nope", f.big})
		require.NoError(t, err)
		require.Equal(t, []Info{{f.hello, "blob", 6}, {}, {f.big, "blob", 200000}}, infos)
		objs, err := b.ReadMany(ctx, []string{f.big, "nope", f.hello}, 3)
		require.NoError(t, err)
		require.Len(t, objs, 3)
		require.Equal(t, "xxx", string(objs[0].Data))
		require.True(t, objs[0].Truncated)
		require.True(t, objs[1].Missing)
		require.Equal(t, "hel", string(objs[2].Data))
		_, err = b.ReadMany(ctx, []string{f.hello, "bad\nname"}, -1)
		require.ErrorIs(t, err, ErrInvalidName)
		empty, err := b.ReadMany(ctx, nil, -1)
		require.NoError(t, err)
		require.Empty(t, empty)
	})
}

func TestBatch_seesNewObjectsAndRefs(t *testing.T) {
	// A long-lived process must not serve stale data: objects written and refs moved after it
	// started are seen, including refs packed into packed-refs.
	f := setup(t)
	ctx := context.Background()
	c := New(ctx, f.runner, Options{})
	defer c.Close()
	b, err := c.Get(ctx, f.repo)
	require.NoError(t, err)
	defer c.Put(b)

	info, err := b.Info(ctx, "main")
	require.NoError(t, err)
	require.Equal(t, f.commit, info.OID)
	fresh := f.write(t, "written later\n")
	obj, err := b.Read(ctx, fresh, -1)
	require.NoError(t, err)
	require.Equal(t, "written later\n", string(obj.Data))

	_, err = b.Info(ctx, "refs/heads/other")
	require.ErrorIs(t, err, ErrNotFound)
	f.setRef(t, "refs/heads/other", f.commit)
	info, err = b.Info(ctx, "refs/heads/other")
	require.NoError(t, err)
	require.Equal(t, f.commit, info.OID)

	// Move main to a tag object... simpler: to another commit written now.
	out, err := f.runner.Output(ctx, f.repo, gitcmd.New("commit-tree").Arg("4b825dc642cb6eb9a060e54bf8d69288fbee4904"),
		gitcmd.Stdin(strings.NewReader("second\n")), gitcmd.Env("GIT_AUTHOR_NAME", "A"), gitcmd.Env("GIT_AUTHOR_EMAIL", "a@x"),
		gitcmd.Env("GIT_COMMITTER_NAME", "A"), gitcmd.Env("GIT_COMMITTER_EMAIL", "a@x"))
	require.NoError(t, err)
	second := strings.TrimSpace(string(out))
	f.setRef(t, "refs/heads/main", second)
	info, err = b.Info(ctx, "main")
	require.NoError(t, err)
	require.Equal(t, second, info.OID)
}

func TestBatch_contextCancelledDuringRead(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	c := New(ctx, f.runner, Options{})
	defer c.Close()
	b, err := c.Get(ctx, f.repo)
	require.NoError(t, err)

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, err = b.Info(cctx, f.hello)
	require.ErrorIs(t, err, context.Canceled)
	require.False(t, b.Proc().Broken, "nothing was sent: the process is still in step")

	// A context that ends while the request is in flight kills the process.
	w := &slowWriter{cancel: nil}
	cctx, cancel = context.WithCancel(ctx)
	w.cancel = cancel
	_, err = b.ReadTo(cctx, f.big, w)
	require.Error(t, err)
	require.True(t, b.Proc().Broken)
	c.Put(b) // closed, not kept
	require.Equal(t, 0, c.Idle())

	// The cache hands out a working process afterwards.
	b2, err := c.Get(ctx, f.repo)
	require.NoError(t, err)
	info, err := b2.Info(ctx, f.hello)
	require.NoError(t, err)
	require.EqualValues(t, 6, info.Size)
	c.Put(b2)
	require.Equal(t, 1, c.Idle())
}

// slowWriter cancels its context on the first write, then blocks a little so the kill lands
// mid-transfer.
type slowWriter struct{ cancel context.CancelFunc }

func (w *slowWriter) Write(p []byte) (int, error) {
	if w.cancel != nil {
		w.cancel()
		w.cancel = nil
		time.Sleep(50 * time.Millisecond)
	}
	return len(p), nil
}

func TestCache_reuseLimitsAndEviction(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	c := New(ctx, f.runner, Options{MaxIdlePerRepo: 2, MaxIdle: 3, IdleTimeout: time.Hour})
	defer c.Close()

	b1, err := c.Get(ctx, f.repo)
	require.NoError(t, err)
	c.Put(b1)
	b2, err := c.Get(ctx, f.repo)
	require.NoError(t, err)
	require.Same(t, b1, b2, "an idle process is reused")

	var held []*Batch
	for range 4 {
		b, err := c.Get(ctx, f.repo)
		require.NoError(t, err)
		held = append(held, b)
	}
	for _, b := range held {
		c.Put(b)
	}
	require.Equal(t, 2, c.Idle(), "per-repository limit")

	// Another repository: the global limit drops the oldest idle process.
	other := setup(t)
	o1, err := c.Get(ctx, other.repo)
	require.NoError(t, err)
	o2, err := c.Get(ctx, other.repo)
	require.NoError(t, err)
	c.Put(o1)
	c.Put(o2)
	require.Equal(t, 3, c.Idle(), "global limit")

	c.Evict(f.repo)
	require.Equal(t, 2, c.Idle())
	c.Put(b2) // taken before the eviction: closed, not kept
	require.Equal(t, 2, c.Idle())
	require.True(t, b2.Proc().Broken)
}

func TestCache_idleTimeout(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	c := New(ctx, f.runner, Options{IdleTimeout: 40 * time.Millisecond})
	defer c.Close()
	b, err := c.Get(ctx, f.repo)
	require.NoError(t, err)
	c.Put(b)
	require.Equal(t, 1, c.Idle())
	require.Eventually(t, func() bool { return c.Idle() == 0 }, 2*time.Second, 10*time.Millisecond)
}

func TestCache_closedWithContext(t *testing.T) {
	f := setup(t)
	ctx, cancel := context.WithCancel(context.Background())
	c := New(ctx, f.runner, Options{})
	b, err := c.Get(ctx, f.repo)
	require.NoError(t, err)
	idle, err := c.Get(ctx, f.repo)
	require.NoError(t, err)
	c.Put(idle)
	cancel()
	require.Eventually(t, func() bool { return c.Idle() == 0 }, 2*time.Second, 10*time.Millisecond)
	// The process in use was started under the cache's context: it is dead too.
	_, err = b.Info(context.Background(), f.hello)
	require.Error(t, err)
	c.Put(b)
	_, err = c.Get(context.Background(), f.repo)
	require.ErrorIs(t, err, ErrClosed)
	c.Close()
	c.Close() // idempotent
}

func TestCache_concurrent(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	c := New(ctx, f.runner, Options{MaxIdlePerRepo: 3})
	defer c.Close()
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 20 {
				err := c.Do(ctx, f.repo, func(b *Batch) error {
					name := f.hello
					if (i+j)%3 == 0 {
						name = f.big
					}
					obj, err := b.Read(ctx, name, -1)
					if err != nil {
						return err
					}
					if obj.OID != name {
						return errors.New("wrong object")
					}
					return nil
				})
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	require.LessOrEqual(t, c.Idle(), 3)
}

// TestBatch_namesGitWouldDieOnAreRefused sends the names that make "git cat-file" exit instead
// of answering "missing" in a bare repository: each is refused before the process sees it, and
// the same process goes on answering.
func TestBatch_namesGitWouldDieOnAreRefused(t *testing.T) {
	f := setup(t)
	ctx := context.Background()
	c := New(ctx, f.runner, Options{})
	defer c.Close()
	b, err := c.Get(ctx, f.repo)
	require.NoError(t, err)
	defer c.Put(b)
	proc := b.Proc().P
	for _, name := range []string{
		"main:../x", "main:./x", ":../x", ":0:../x", "main^{tree}:./", "main:.//x",
		"main@{u}", "main@{upstream}", "main@{UPSTREAM}", "main@{push}", "@{u}", "HEAD@{U}^{tree}",
	} {
		_, err := b.Info(ctx, name)
		require.ErrorIs(t, err, ErrInvalidName, name)
		_, err = b.ReadMany(ctx, []string{"main", name}, -1)
		require.ErrorIs(t, err, ErrInvalidName, name)
		info, err := b.Info(ctx, "main")
		require.NoError(t, err, "after %q", name)
		require.Equal(t, f.commit, info.OID)
	}
	require.False(t, b.Proc().Broken)
	require.Same(t, proc, b.Proc().P, "the same process answered throughout")
	// What git answers with "missing" stays a plain miss.
	for _, name := range []string{"main:..", "main:d/../f", "main@{1}", "main@{yesterday}", ":/(", "main^{/("} {
		_, err := b.Info(ctx, name)
		require.ErrorIs(t, err, ErrNotFound, name)
	}
}
