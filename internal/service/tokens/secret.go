// Package tokens issues, finds, lists and revokes personal, project and group access tokens,
// and authenticates requests by token.
package tokens

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
)

// alphabet is URL- and header-safe; 32 characters of it carry 190 bits.
const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"

// NewSecret returns prefix followed by 32 random characters.
func NewSecret(prefix string) string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return prefix + string(b)
}

// Digest is what is stored for a secret: its SHA-256, hex encoded. A token secret has enough
// entropy that a fast hash is safe, and lookups by digest stay one indexed read.
func Digest(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}
