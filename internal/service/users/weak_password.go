package users

import (
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// GitLab (15.7 and later) refuses weak passwords when they are set: a word predictable in its
// context anywhere in the password, a part of the user's own name, username or email address,
// or a password from lists of commonly used ones. The rules, and the list below, are written
// here from GitLab's documentation ("User passwords": block weak passwords); GitLab's own list
// of some 4,500 breached passwords is not reproduced, only a short list of the most common ones
// long enough to pass the length rule.

// weakPasswordMessage is GitLab's message for a weak password.
const weakPasswordMessage = "must not contain commonly used combinations of words and letters"

// predictableWords may not appear anywhere in a password.
var predictableWords = []string{"gitlab", "devops"}

// minimumPersonalPart is the shortest part of a name, username or email address that may not
// appear in the password: shorter runs turn up in random passwords by chance.
const minimumPersonalPart = 4

// longPassword is the length from which passwords are not checked: long enough that a random
// one would contain some word by chance.
const longPassword = 64

// commonPasswords are common passwords of eight characters or more, lower case.
var commonPasswords = []string{
	"password", "password1", "password12", "password123", "passw0rd", "p@ssw0rd", "p@ssword",
	"12345678", "123456789", "1234567890", "0123456789", "87654321", "987654321", "11111111",
	"00000000", "12341234", "11223344", "123123123", "1q2w3e4r", "1q2w3e4r5t", "1qaz2wsx",
	"zaq12wsx", "qwertyui", "qwertyuiop", "qwerty123", "qwerty12", "asdfghjkl", "zxcvbnm1",
	"123qweasd", "qazwsxedc", "iloveyou", "sunshine", "princess", "football", "baseball",
	"welcome1", "welcome123", "abc12345", "abcd1234", "letmein1", "letmein123", "trustno1",
	"superman", "starwars", "whatever", "computer", "internet", "administrator", "changeme",
	"admin123", "admin1234", "root1234", "test1234", "testtest", "michelle", "jennifer",
	"mustang1", "charlie1", "hello123", "master12", "shadow12", "monkey12", "dragon12",
	"basketball", "superstar", "q1w2e3r4", "a1b2c3d4", "aa123456", "secret123",
}

// nonWord splits names and addresses into their parts.
var nonWord = regexp.MustCompile(`[^\p{L}\p{N}]+`)

// WeakPassword reports whether pw is weak for a user with these name, username and email.
func WeakPassword(pw string, name, username, email string) bool {
	if utf8.RuneCountInString(pw) >= longPassword {
		return false
	}
	lower := strings.ToLower(pw)
	if slices.Contains(commonPasswords, lower) {
		return true
	}
	for _, w := range predictableWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	local, _, _ := strings.Cut(email, "@")
	// The username as a whole; the name and the email's local part as a whole and in parts.
	personal := []string{username, name, local}
	personal = append(personal, nonWord.Split(name, -1)...)
	personal = append(personal, nonWord.Split(local, -1)...)
	for _, part := range personal {
		part = strings.ToLower(part)
		if utf8.RuneCountInString(part) >= minimumPersonalPart && strings.Contains(lower, part) {
			return true
		}
	}
	return false
}
