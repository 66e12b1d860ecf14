package pktline_test

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"

	"anvil/internal/git/pktline"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAppend(t *testing.T) {
	assert.Equal(t, "000ahello\n", string(pktline.Format("hello\n")))
	assert.Equal(t, "0004", string(pktline.Format("")))
	b := pktline.Append([]byte("x"), "a")
	assert.Equal(t, "x0005a", string(b))
	assert.Panics(t, func() { pktline.Format(strings.Repeat("a", pktline.MaxLen-3)) })
	assert.Len(t, pktline.Format(strings.Repeat("a", pktline.MaxLen-4)), pktline.MaxLen)
}

func TestReader(t *testing.T) {
	in := string(pktline.Format("one\n")) + pktline.Flush + string(pktline.Format("two")) + "PACK"
	r := pktline.NewReader(bufio.NewReader(strings.NewReader(in)))
	line, flush, err := r.Next()
	require.NoError(t, err)
	assert.Equal(t, "one\n", string(line))
	assert.False(t, flush)
	_, flush, err = r.Next()
	require.NoError(t, err)
	assert.True(t, flush)
	line, _, err = r.Next()
	require.NoError(t, err)
	assert.Equal(t, "two", string(line))
	head, err := r.Peek()
	require.NoError(t, err)
	assert.Equal(t, "PACK", string(head))

	t.Run("end of stream", func(t *testing.T) {
		_, _, err := pktline.NewReader(bufio.NewReader(strings.NewReader(""))).Next()
		assert.Equal(t, io.EOF, err)
	})
	for name, in := range map[string]string{
		"not hex":        "zzzzabc",
		"length 1":       "0001",
		"too long":       "fff1" + strings.Repeat("a", 70000),
		"truncated":      "0010abc",
		"truncated head": "00",
	} {
		t.Run(name, func(t *testing.T) {
			_, _, err := pktline.NewReader(bufio.NewReader(strings.NewReader(in))).Next()
			assert.True(t, errors.Is(err, pktline.ErrMalformed), "%v", err)
		})
	}
}
