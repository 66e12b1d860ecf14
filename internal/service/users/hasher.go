package users

import (
	"crypto/rand"
	"encoding/hex"
	"sync"

	"golang.org/x/crypto/bcrypt"
)

// Hasher hashes account passwords and compares a password with a stored hash. The server uses
// bcrypt; tests lower its cost or count the comparisons.
type Hasher interface {
	// Hash returns the stored form of pw.
	Hash(pw string) (string, error)
	// Compare reports whether pw matches hash.
	Compare(hash, pw string) bool
}

// Bcrypt is the bcrypt Hasher at a cost (bcrypt.DefaultCost in production).
type Bcrypt struct{ Cost int }

// Hash hashes pw with bcrypt.
func (b Bcrypt) Hash(pw string) (string, error) {
	h, err := bcrypt.GenerateFromPassword([]byte(pw), b.Cost)
	return string(h), err
}

// Compare reports whether pw is the password of the bcrypt hash.
func (b Bcrypt) Compare(hash, pw string) bool {
	return hash != "" && bcrypt.CompareHashAndPassword([]byte(hash), []byte(pw)) == nil
}

// dummyHash is a hash of a random password no one knows, made once with the service's hasher:
// a sign-in that has no real hash to check (unknown login, blocked or locked account) compares
// against it, so that it costs as much as a wrong password for a real account and its timing
// does not tell whether the login exists.
type dummyHash struct {
	once sync.Once
	hash string
}

func (d *dummyHash) get(h Hasher) string {
	d.once.Do(func() {
		b := make([]byte, 18)
		_, _ = rand.Read(b)
		d.hash, _ = h.Hash(hex.EncodeToString(b))
	})
	return d.hash
}
