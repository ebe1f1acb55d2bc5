package mcp

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"regexp"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxMessageBytes is the largest JSON-RPC message (one line) the server
// reads: the SDK's limit for a frame. A longer line is answered with an
// error and skipped; the server keeps serving (the SDK alone would end the
// connection without an answer).
const MaxMessageBytes = sdk.DefaultMaxLineLength

// lockedWriter serialises writes, so that the answers to oversized lines
// and the SDK's own messages never interleave within a line.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// lineGuard passes the input through line by line; a line over limit
// bytes is not passed on: it is read to its end and dropped, and an error
// response (with the request's id when its first bytes name one) is
// written to out.
type lineGuard struct {
	br    *bufio.Reader
	out   io.Writer
	limit int
	buf   []byte // the rest of the current line, to be read
	err   error
}

func newLineGuard(in io.Reader, out io.Writer, limit int) *lineGuard {
	return &lineGuard{br: bufio.NewReaderSize(in, 64<<10), out: out, limit: limit}
}

func (g *lineGuard) Read(p []byte) (int, error) {
	for len(g.buf) == 0 {
		if g.err != nil {
			return 0, g.err
		}
		g.buf, g.err = g.nextLine()
	}
	n := copy(p, g.buf)
	g.buf = g.buf[n:]
	return n, nil
}

// nextLine returns the next line that fits (with its newline), answering
// and skipping those that do not.
func (g *lineGuard) nextLine() ([]byte, error) {
	var line []byte
	over := false
	var head []byte // the first bytes of an oversized line, for its id
	total := 0
	for {
		chunk, err := g.br.ReadSlice('\n')
		total += len(chunk)
		if !over {
			if len(line)+len(chunk) > g.limit {
				over = true
				head = append(line, chunk[:min(len(chunk), idScanBytes)]...)
				head = head[:min(len(head), idScanBytes)]
				line = nil
			} else {
				line = append(line, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if over {
			g.answerOversized(head, total)
			if err != nil {
				return nil, err
			}
			over, head, total = false, nil, 0
			continue
		}
		return line, err
	}
}

// idScanBytes is how much of an oversized line is searched for its id.
const idScanBytes = 4096

var idRe = regexp.MustCompile(`"id"\s*:\s*(-?[0-9]+|"(?:[^"\\]|\\.){0,200}")`)

// answerOversized writes the error response to a line over the limit.
func (g *lineGuard) answerOversized(head []byte, size int) {
	id := []byte("null")
	if m := idRe.FindSubmatch(head); m != nil && bytes.HasPrefix(bytes.TrimSpace(head), []byte("{")) {
		id = m[1]
	}
	msg := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32600,"message":"the message of %d bytes is over the server's limit of %d bytes: send less (a path instead of the content, or a smaller conversation)"}}`+"\n", id, size, g.limit)
	_, _ = g.out.Write([]byte(msg))
}
