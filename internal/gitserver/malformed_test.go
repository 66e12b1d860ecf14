package gitserver_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"anvil/cmd/anvil/server/servertest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pkt frames lines as pkt-lines.
func pkt(lines ...string) string {
	var b strings.Builder
	for _, l := range lines {
		fmt.Fprintf(&b, "%04x%s", len(l)+4, l)
	}
	return b.String()
}

// postGit sends body to <path>/<svc> as the service's request type.
func postGit(t *testing.T, in *servertest.Instance, path, svc string, body []byte, header map[string]string, user, password string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, in.URL+"/"+path+"/"+svc, bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-"+svc+"-request")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	if user != "" {
		req.SetBasicAuth(user, password)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(out)
}

func gzipped(t *testing.T, s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	_, err := w.Write([]byte(s))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return b.Bytes()
}

// TestGit_malformedRequestsAre400 sends malformed smart-HTTP bodies to git-upload-pack (both
// protocol versions, anonymously on a public project) and git-receive-pack (as the owner):
// each is the client's error, answered 400 with a short plain message and logged below ERROR.
// The repository serves a normal clone afterwards.
func TestGit_malformedRequestsAre400(t *testing.T) {
	in := servertest.Start(t)
	f := newFixture(t, in)
	f.project(t, "pub", "public", true)
	head, err := f.in.Services.Repos.Repository(f.projects["pub"])
	require.NoError(t, err)
	tip, err := head.ResolveCommit(context.Background(), "HEAD")
	require.NoError(t, err)
	want := "want " + string(tip) + " multi_ack_detailed side-band-64k ofs-delta\n"
	v2 := map[string]string{"Git-Protocol": "version=2"}
	zero := strings.Repeat("0", 40)

	for _, tc := range []struct {
		desc, svc string
		body      []byte
		header    map[string]string
	}{
		{"empty upload-pack body", "git-upload-pack", nil, nil},
		{"empty upload-pack body v2", "git-upload-pack", nil, v2},
		{"empty receive-pack body", "git-receive-pack", nil, nil},
		{"0004 upload-pack", "git-upload-pack", []byte("0004"), nil},
		{"0004 upload-pack v2", "git-upload-pack", []byte("0004"), v2},
		{"0004 receive-pack", "git-receive-pack", []byte("0004"), nil},
		{"bad length characters", "git-upload-pack", []byte("zzzzwant"), nil},
		{"bad length characters v2", "git-upload-pack", []byte("zzzz"), v2},
		{"bad length receive-pack", "git-receive-pack", []byte("zz00"), nil},
		{"length 3", "git-upload-pack", []byte("0003"), nil},
		{"length beyond the end", "git-upload-pack", []byte("0fffwant"), nil},
		{"length over the maximum", "git-upload-pack", []byte("fff0" + strings.Repeat("x", 70000)), nil},
		{"length beyond the end receive-pack", "git-receive-pack", []byte("0fff" + zero), nil},
		{"truncated header", "git-upload-pack", []byte("00"), nil},
		{"delimiter in v0", "git-upload-pack", []byte("0001"), nil},
		{"want without an id", "git-upload-pack", []byte(pkt("want \n") + "0000" + pkt("done\n")), nil},
		{"want with a bad id", "git-upload-pack", []byte(pkt("want xyz\n") + "0000" + pkt("done\n")), nil},
		{"want with a bad id v2", "git-upload-pack", []byte(pkt("command=fetch\n") + "0001" + pkt("want xyz\n", "done\n") + "0000"), v2},
		{"have with a bad id", "git-upload-pack", []byte(pkt(want) + "0000" + pkt("have 123\n", "done\n")), nil},
		{"deepen -1", "git-upload-pack", []byte(pkt(want, "deepen -1\n") + "0000" + pkt("done\n")), nil},
		{"deepen 0", "git-upload-pack", []byte(pkt(want, "deepen 0\n") + "0000" + pkt("done\n")), nil},
		{"deepen x", "git-upload-pack", []byte(pkt(want, "deepen x\n") + "0000" + pkt("done\n")), nil},
		{"deepen -1 v2", "git-upload-pack", []byte(pkt("command=fetch\n") + "0001" + pkt("want "+string(tip)+"\n", "deepen -1\n", "done\n") + "0000"), v2},
		{"unknown line", "git-upload-pack", []byte(pkt("hello\n") + "0000"), nil},
		{"unknown command v2", "git-upload-pack", []byte(pkt("command=nope\n") + "0000"), v2},
		{"no command v2", "git-upload-pack", []byte(pkt("agent=x\n") + "0000"), v2},
		{"unterminated v2", "git-upload-pack", []byte(pkt("command=ls-refs\n")), v2},
		{"gzip that is not", "git-upload-pack", []byte("not gzip"), map[string]string{"Content-Encoding": "gzip"}},
		{"gzip of garbage", "git-upload-pack", gzipped(t, "0004"), map[string]string{"Content-Encoding": "gzip"}},
		{"command without ids", "git-receive-pack", []byte(pkt("a b refs/heads/main\x00report-status\n") + "0000"), nil},
		{"command with two fields", "git-receive-pack", []byte(pkt(zero+" refs/heads/main\n") + "0000"), nil},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			in.Logs.Reset()
			user, password := "", ""
			if tc.svc == "git-receive-pack" {
				user, password = "root", servertest.RootToken
			}
			resp, body := postGit(t, in, "g/pub.git", tc.svc, tc.body, tc.header, user, password)
			require.Equal(t, http.StatusBadRequest, resp.StatusCode, body)
			assert.Equal(t, "text/plain; charset=utf-8", resp.Header.Get("Content-Type"))
			assert.True(t, strings.HasPrefix(body, "Bad request") || strings.HasPrefix(body, "malformed receive-pack request"), body)
			assert.Less(t, len(body), 200, body)
			assert.Empty(t, in.Logs.Errors(), "a client's mistake is not logged as an error")
		})
	}

	t.Run("a want git does not serve is refused by git, not logged as an error", func(t *testing.T) {
		in.Logs.Reset()
		resp, body := postGit(t, in, "g/pub.git", "git-upload-pack", []byte(pkt("want "+strings.Repeat("1", 40)+"\n")+"0000"+pkt("done\n")), nil, "", "")
		assert.Less(t, resp.StatusCode, 500, body)
		assert.Contains(t, body, "not our ref")
		assert.Empty(t, in.Logs.Errors())
	})

	t.Run("bodies git cannot finish reading are the client's error", func(t *testing.T) {
		in.Logs.Reset()
		push := pkt(zero+" "+string(tip)+" refs/heads/cut\x00report-status\n") + "0000" + "PACK\x00\x00\x00\x02\x00\x00\x00\x01" + strings.Repeat("x", 4096)
		cut := gzipped(t, push)
		resp, body := postGit(t, in, "g/pub.git", "git-receive-pack", cut[:len(cut)/2], map[string]string{"Content-Encoding": "gzip"}, "root", servertest.RootToken)
		assert.Less(t, resp.StatusCode, 500, body)
		resp, body = postGit(t, in, "g/pub.git", "git-upload-pack", []byte(pkt(want, "filter blob:none\n")+"0000"+pkt("done\n")), nil, "", "")
		assert.Less(t, resp.StatusCode, 500, body)
		for _, shallow := range []string{"deepen-not main\n", "deepen-not HEAD\n"} {
			resp, body = postGit(t, in, "g/pub.git", "git-upload-pack", []byte(pkt(want, shallow)+"0000"+pkt("done\n")), nil, "", "")
			assert.Equal(t, 400, resp.StatusCode, "no commits selected for shallow requests: %s", body)
		}
		resp, body = postGit(t, in, "g/pub.git", "git-upload-pack", []byte(pkt(want, "deepen 1\n", "deepen-since 1\n")+"0000"+pkt("done\n")), nil, "", "")
		assert.Equal(t, 400, resp.StatusCode, body)
		assert.Empty(t, in.Logs.Errors())
	})

	t.Run("a Git-Protocol header git never sends is ignored", func(t *testing.T) {
		in.Logs.Reset()
		for _, svc := range []string{"git-upload-pack", "git-receive-pack"} {
			req, err := http.NewRequest(http.MethodGet, in.URL+"/g/pub.git/info/refs?service="+svc, nil)
			require.NoError(t, err)
			req.Header.Set("Git-Protocol", "version=2; x/y")
			req.SetBasicAuth("root", servertest.RootToken)
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			_ = resp.Body.Close()
			assert.Equal(t, 200, resp.StatusCode, svc)
		}
		resp, body := postGit(t, in, "g/pub.git", "git-upload-pack", []byte(pkt(want)+"0000"+pkt("done\n")), map[string]string{"Git-Protocol": "version=2 x"}, "", "")
		require.Equal(t, 200, resp.StatusCode, body)
		assert.Empty(t, in.Logs.Errors())
	})

	t.Run("well-formed requests are still served", func(t *testing.T) {
		resp, body := postGit(t, in, "g/pub.git", "git-upload-pack", []byte(pkt(want)+"0000"+pkt("done\n")), nil, "", "")
		require.Equal(t, 200, resp.StatusCode, body)
		assert.Contains(t, body, "PACK")
		resp, body = postGit(t, in, "g/pub.git", "git-upload-pack", []byte(pkt("command=ls-refs\n", "agent=test\n")+"0001"+pkt("peel\n", "symrefs\n")+"0000"), v2, "", "")
		require.Equal(t, 200, resp.StatusCode, body)
		assert.Contains(t, body, string(tip)+" HEAD")
		resp, body = postGit(t, in, "g/pub.git", "git-upload-pack", []byte(pkt(want, "deepen 1\n")+"0000"+pkt("done\n")), nil, "", "")
		require.Equal(t, 200, resp.StatusCode, body)
		assert.Contains(t, body, "shallow "+string(tip))
		g := newGitClient(t, in)
		_, out, err := g.clone("g/pub", "", "", "--depth=1")
		require.NoError(t, err, out)
	})
}
