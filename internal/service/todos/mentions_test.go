package todos

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestParseMentions(t *testing.T) {
	for _, tc := range []struct {
		text                 string
		addressed, mentioned []string
	}{
		{"FYI: @alice @Bob", nil, []string{"alice", "bob"}},
		{"@alice, what do you think? cc: @bob", []string{"alice"}, []string{"bob"}},
		{"@alice @bob please look\nand @carol too", []string{"alice", "bob"}, []string{"carol"}},
		{"first line\n  @dave at the start of a line", []string{"dave"}, nil},
		{"mail me at me@example.com or @erin.", nil, []string{"erin"}},
		{"`@notme` and\n```\n@norme\n```\n@frank", []string{"frank"}, nil},
		{"@group/sub is a group, @alice a user", []string{"group/sub"}, []string{"alice"}},
		{"@alice twice @alice", []string{"alice"}, nil},
		{"no mentions here", nil, nil},
	} {
		m := ParseMentions(tc.text)
		assert.Equal(t, tc.addressed, m.Addressed, tc.text)
		assert.Equal(t, tc.mentioned, m.Mentioned, tc.text)
	}
}
