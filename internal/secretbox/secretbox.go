// Package secretbox encrypts secrets kept in the database (webhook URLs and tokens) with
// AES-256-GCM under a key of the instance's: a random 32-byte key in the data directory
// (secrets/db_key), created on first start with mode 0600 and shared by every replica that
// shares the directory, as the registry's signing key is. A sealed value is
// "enc:v1:" + base64(nonce || ciphertext); values without the prefix are legacy plaintext,
// which Open returns as they are, so that rows written before encryption stay readable until
// they are sealed.
package secretbox

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// prefix marks a sealed value.
const prefix = "enc:v1:"

// keyFile is the key's path below the data directory.
const keyFile = "secrets/db_key"

// Box seals and opens secrets with the instance's key.
type Box struct{ aead cipher.AEAD }

// Load reads the key from dataDir, creating it on first start. Two processes starting at once
// agree on one key: the key is written to a temporary file and linked into place, and the
// loser of the race reads the winner's.
func Load(dataDir string) (*Box, error) {
	path := filepath.Join(dataDir, keyFile)
	key, err := readKey(path)
	if errors.Is(err, fs.ErrNotExist) {
		key, err = createKey(path)
	}
	if err != nil {
		return nil, fmt.Errorf("secret key: %w", err)
	}
	return New(key)
}

// New returns a box over a 32-byte key.
func New(key []byte) (*Box, error) {
	if len(key) != 32 {
		return nil, errors.New("secret key: want 32 bytes")
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &Box{aead: aead}, nil
}

func readKey(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return hex.DecodeString(strings.TrimSpace(string(b)))
}

func createKey(path string) ([]byte, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".db_key-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.WriteString(hex.EncodeToString(key) + "\n"); err != nil {
		_ = tmp.Close()
		return nil, err
	}
	if err := tmp.Sync(); err != nil {
		_ = tmp.Close()
		return nil, err
	}
	if err := tmp.Close(); err != nil {
		return nil, err
	}
	// Link fails if another process put its key in place first: use that one.
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return readKey(path)
		}
		return nil, err
	}
	return key, nil
}

// Sealed reports whether v is a sealed value.
func Sealed(v string) bool { return strings.HasPrefix(v, prefix) }

// Seal encrypts v; empty values and values already sealed are returned as they are.
func (b *Box) Seal(v string) string {
	if v == "" || Sealed(v) {
		return v
	}
	nonce := make([]byte, b.aead.NonceSize())
	_, _ = rand.Read(nonce)
	out := b.aead.Seal(nonce, nonce, []byte(v), nil)
	return prefix + base64.RawStdEncoding.EncodeToString(out)
}

// Open decrypts a sealed value; a value without the prefix is legacy plaintext, returned as
// it is.
func (b *Box) Open(v string) (string, error) {
	rest, ok := strings.CutPrefix(v, prefix)
	if !ok {
		return v, nil
	}
	raw, err := base64.RawStdEncoding.DecodeString(rest)
	if err != nil || len(raw) < b.aead.NonceSize() {
		return "", errors.New("secretbox: malformed sealed value")
	}
	n := b.aead.NonceSize()
	plain, err := b.aead.Open(nil, raw[:n], raw[n:], nil)
	if err != nil {
		return "", errors.New("secretbox: sealed value does not open with this key")
	}
	return string(plain), nil
}
