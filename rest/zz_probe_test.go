package rest_test

import (
	"testing"

	"anvil/cmd/anvil/server/servertest"
)

func TestZZProbe(t *testing.T) {
	in := servertest.Start(t)
	root := servertest.RootToken
	g := in.NewGroup(t, "conv", "public", nil)
	in.NewProject(t, g, "p", "public")
	r := send(t, in, request{method: "POST", path: "/projects/conv%2Fp/protected_branches", token: root, contentType: "application/x-www-form-urlencoded",
		body: stringsReader(formBody([][2]string{{"name", "b1"}, {"allowed_to_push[][access_level]", "40"}, {"allowed_to_push[][access_level]", "30"}}))})
	t.Log(r.String())
	r = send(t, in, request{method: "GET", path: "/users?active=True&custom_attributes[a]=b", token: root})
	t.Log(r.String())
	r = send(t, in, request{method: "HEAD", path: "/projects/conv%2Fp", token: root})
	t.Log(r.String(), r.Header)
	r = send(t, in, request{method: "GET", path: "/-/health", token: root})
	t.Log(r.String(), r.Header)
	r = send(t, in, request{method: "HEAD", path: "/-/health", token: root})
	t.Log(r.String(), r.Header)
}
