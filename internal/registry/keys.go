package registry

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/subtle"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// Keys signs registry bearer tokens. The private key is kept in the registry's directory
// (token-key.pem) so that every replica sharing it signs tokens the others accept; the public
// half is written as a JWKS file, which distribution's token access controller reads.
type Keys struct {
	public   *ecdsa.PublicKey
	signer   jose.Signer
	keyID    string
	JWKSPath string
}

// LoadKeys reads the signing key from dir, creating it on first start, and (re)writes the JWKS.
func LoadKeys(dir string) (*Keys, error) {
	keyPath := filepath.Join(dir, "token-key.pem")
	key, err := readKey(keyPath)
	if errors.Is(err, fs.ErrNotExist) {
		key, err = createKey(keyPath)
	}
	if err != nil {
		return nil, fmt.Errorf("registry token key: %w", err)
	}
	pub := jose.JSONWebKey{Key: &key.PublicKey, Algorithm: string(jose.ES256), Use: "sig"}
	thumb, err := pub.Thumbprint(crypto.SHA256)
	if err != nil {
		return nil, err
	}
	pub.KeyID = base64.RawURLEncoding.EncodeToString(thumb)
	jwks, err := json.Marshal(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{pub}})
	if err != nil {
		return nil, err
	}
	jwksPath := filepath.Join(dir, "token-jwks.json")
	if err := writeFileAtomic(jwksPath, jwks, 0o600); err != nil {
		return nil, err
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: key},
		(&jose.SignerOptions{}).WithType("JWT").WithHeader("kid", pub.KeyID))
	if err != nil {
		return nil, err
	}
	return &Keys{public: &key.PublicKey, signer: signer, keyID: pub.KeyID, JWKSPath: jwksPath}, nil
}

// Access is one grant of a token: a resource (type "repository" and an image path, or type
// "registry" and "catalog") and the actions allowed on it.
type Access struct {
	Type    string   `json:"type"`
	Name    string   `json:"name"`
	Actions []string `json:"actions"`
}

// TokenClaims are what a registry token says: who asked (Subject, a username or empty for
// anonymous callers), what it grants and until when.
type TokenClaims struct {
	Subject string
	Access  []Access
	TTL     time.Duration
}

// Sign issues a token for claims, valid from now for claims.TTL.
func (k *Keys) Sign(c TokenClaims) (string, error) {
	now := time.Now()
	id := make([]byte, 16)
	_, _ = rand.Read(id)
	access := c.Access
	if access == nil {
		access = []Access{}
	}
	std := jwt.Claims{
		Issuer: Issuer, Subject: c.Subject, Audience: jwt.Audience{Service},
		Expiry: jwt.NewNumericDate(now.Add(c.TTL)), NotBefore: jwt.NewNumericDate(now.Add(-5 * time.Second)),
		IssuedAt: jwt.NewNumericDate(now), ID: base64.RawURLEncoding.EncodeToString(id),
	}
	return jwt.Signed(k.signer).Claims(std).Claims(map[string]any{"access": access}).Serialize()
}

func readKey(path string) (*ecdsa.PrivateKey, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	block, _ := pem.Decode(b)
	if block == nil {
		return nil, fmt.Errorf("%s: no PEM block", path)
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, err
	}
	ec, ok := k.(*ecdsa.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("%s: not an ECDSA key", path)
	}
	return ec, nil
}

func createKey(path string) (*ecdsa.PrivateKey, error) {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		return nil, err
	}
	if err := writeFileOnce(path, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})); err != nil {
		if errors.Is(err, fs.ErrExist) { // another process made it first
			return readKey(path)
		}
		return nil, err
	}
	return k, nil
}

// readOrCreateSecret returns the secret kept in path, creating a random one on first start.
func readOrCreateSecret(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err == nil && len(b) > 0 {
		return string(b), nil
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", err
	}
	secret := base64.RawURLEncoding.EncodeToString(raw)
	if err := writeFileOnce(path, []byte(secret)); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return readOrCreateSecret(path)
		}
		return "", err
	}
	return secret, nil
}

// writeFileOnce creates path with data, failing with fs.ErrExist when it is already there; the
// data is written to a temporary file first, so a crash never leaves a half-written secret.
func writeFileOnce(path string, data []byte) error {
	tmp, err := writeTemp(path, data, 0o600)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	return os.Link(tmp, path)
}

// writeFileAtomic replaces path with data.
func writeFileAtomic(path string, data []byte, mode os.FileMode) error {
	tmp, err := writeTemp(path, data, mode)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	return nil
}

func writeTemp(path string, data []byte, mode os.FileMode) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return "", err
	}
	name := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(mode)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(name)
		return "", err
	}
	return name, nil
}

func constantTimeEqual(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

// Verify checks a token this server signed (signature, issuer, audience, validity) and returns
// what it grants: the requests Anvil answers in front of the registry (the referrers API)
// authorize as the registry itself does.
func (k *Keys) Verify(token string) ([]Access, error) {
	tok, err := jwt.ParseSigned(token, []jose.SignatureAlgorithm{jose.ES256})
	if err != nil {
		return nil, err
	}
	var std jwt.Claims
	var priv struct {
		Access []Access `json:"access"`
	}
	if err := tok.Claims(k.public, &std, &priv); err != nil {
		return nil, err
	}
	if err := std.ValidateWithLeeway(jwt.Expected{Issuer: Issuer, AnyAudience: jwt.Audience{Service}, Time: time.Now()}, time.Minute); err != nil {
		return nil, err
	}
	return priv.Access, nil
}

// Allows reports whether grants include action on the repository at path.
func Allows(grants []Access, path, action string) bool {
	for _, g := range grants {
		if g.Type != "repository" || g.Name != path {
			continue
		}
		for _, a := range g.Actions {
			if a == action || a == "*" {
				return true
			}
		}
	}
	return false
}
