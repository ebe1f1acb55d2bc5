package rpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"sync/atomic"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"
)

// DefaultMaxMessageBytes is the usual limit on a message body given to
// [NewStream]. Larger messages are answered with an error and skipped
// without being buffered.
const DefaultMaxMessageBytes = 64 << 20

// maxHeaderLine bounds one header line; longer lines are garbage.
const maxHeaderLine = 1024

// headerMarker starts every frame of the LSP base protocol.
var headerMarker = []byte("Content-Length:")

// Stream implements jsonrpc2.Stream for the LSP base protocol
// ("Content-Length: N\r\n\r\n" then N bytes of JSON).
//
// Defect: jsonrpc2.NewStream fails the whole connection on the first
// malformed frame (a bad header, invalid JSON, a message that is not a
// request or a response), and it allocates whatever Content-Length claims,
// up to 2 GiB. Stream answers a malformed message with a JSON-RPC error
// (carrying the request id when one can be found), resynchronises on the
// next Content-Length header, and skips bodies over the size limit without
// buffering them. Only a read error of the underlying stream ends it.
type Stream struct {
	r       *frameReader
	out     io.Writer
	closeIn func() error // closes the input when it is an io.Closer
	max     int64
	log     *zap.Logger

	wmu    sync.Mutex // one frame at a time on out
	closed atomic.Bool
}

// NewStream returns a Stream that reads frames from in and writes them to
// out; bodies over max bytes are refused. Malformed input is logged on log
// (the reason, never the content).
func NewStream(in io.Reader, out io.Writer, max int64, log *zap.Logger) *Stream {
	s := &Stream{r: &frameReader{src: in}, out: out, max: max, log: log}
	if c, ok := in.(io.Closer); ok {
		s.closeIn = c.Close
	}
	return s
}

// errStreamClosed is returned by Read and Write after Close.
var errStreamClosed = errors.New("rpc: stream closed")

// Read implements jsonrpc2.Stream. It returns the next well-formed message;
// malformed ones are answered here and skipped.
func (s *Stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	var total int64
	for {
		if err := ctx.Err(); err != nil {
			return nil, total, err
		}
		if s.closed.Load() {
			return nil, total, errStreamClosed
		}
		body, n, ferr, err := s.r.next(s.max)
		total += n
		if err != nil {
			return nil, total, fmt.Errorf("rpc: read message: %w", err)
		}
		if ferr == nil {
			var msg jsonrpc2.Message
			msg, ferr = s.decode(body)
			if ferr == nil {
				return msg, total, nil
			}
		}
		s.reject(ctx, ferr)
	}
}

// decode checks a body before handing it to jsonrpc2.DecodeMessage, which
// would otherwise end the connection on anything it cannot decode.
func (s *Stream) decode(body []byte) (jsonrpc2.Message, *frameError) {
	if !json.Valid(body) {
		body = s.resync(body)
		if !json.Valid(body) {
			return nil, &frameError{code: jsonrpc2.ParseError, msg: "parse error: the message is not valid JSON", id: scanID(body)}
		}
	}
	body = bytes.TrimSpace(body)
	switch body[0] {
	case '{':
	case '[':
		return nil, &frameError{code: jsonrpc2.InvalidRequest, msg: "invalid request: batches are not supported by the language server protocol"}
	default:
		return nil, &frameError{code: jsonrpc2.InvalidRequest, msg: "invalid request: a message must be a JSON object"}
	}
	var env envelope
	if err := json.Unmarshal(body, &env); err != nil {
		return nil, &frameError{code: jsonrpc2.InvalidRequest, msg: "invalid request: " + err.Error(), id: scanID(body)}
	}
	id := validID(env.ID)
	isResponse := env.Method == nil && (env.Result != nil || env.Error != nil)
	invalid := func(msg string) *frameError {
		return &frameError{code: jsonrpc2.InvalidRequest, msg: "invalid request: " + msg, id: id, response: isResponse}
	}
	if problem := env.check(id, isResponse); problem != "" {
		return nil, invalid(problem)
	}
	msg, err := jsonrpc2.DecodeMessage(body)
	if err != nil {
		return nil, invalid(err.Error())
	}
	return msg, nil
}

// resync handles a body that is not valid JSON because a Content-Length
// that was too large swallowed the start of the next frame: it keeps the
// first JSON value, or what precedes the next header, and unreads the rest
// to be read again.
func (s *Stream) resync(body []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(body))
	var first json.RawMessage
	if dec.Decode(&first) == nil {
		s.r.unread(body[dec.InputOffset():])
		return body[:dec.InputOffset()]
	}
	if p := indexFold(body[1:], headerMarker); p >= 0 {
		s.r.unread(body[p+1:])
		return body[:p+1]
	}
	return body
}

// envelope is the members of a JSON-RPC message that decide whether it
// is well formed.
type envelope struct {
	JSONRPC json.RawMessage `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  json.RawMessage `json:"method"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// check says what is wrong with a message's envelope ("" for nothing); id
// is its valid id.
func (env *envelope) check(id json.RawMessage, isResponse bool) string {
	switch {
	case env.JSONRPC != nil && string(env.JSONRPC) != `"2.0"`:
		return `"jsonrpc" must be "2.0"`
	case env.ID != nil && id == nil && string(env.ID) != "null":
		return `"id" must be a string or a 32-bit integer`
	case env.Method == nil && !isResponse:
		return `"method" is missing`
	}
	if env.Method != nil {
		var m string
		if err := json.Unmarshal(env.Method, &m); err != nil || m == "" {
			return `"method" must be a non-empty string`
		}
	}
	return ""
}

// reject answers a malformed message with an error response, unless it was
// itself a response (answering those would start a loop).
func (s *Stream) reject(ctx context.Context, ferr *frameError) {
	s.log.Warn("rejected malformed message", zap.Int32("code", int32(ferr.code)), zap.String("reason", ferr.msg))
	if ferr.response {
		return
	}
	id := ferr.id
	if id == nil {
		id = json.RawMessage("null")
	}
	data, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *jsonrpc2.Error `json:"error"`
	}{"2.0", id, jsonrpc2.NewError(ferr.code, ferr.msg)})
	if err != nil {
		s.log.Error("encode error response", zap.Error(err))
		return
	}
	if _, err := s.writeFrame(ctx, data); err != nil {
		s.log.Warn("write error response", zap.Error(err))
	}
}

// Write implements jsonrpc2.Stream.
func (s *Stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	if r, ok := msg.(*jsonrpc2.Response); ok && r.Err() == nil && len(r.Result()) > 0 {
		if body, err := successBody(r); err == nil {
			return s.writeFrame(ctx, body)
		}
	}
	m, ok := msg.(json.Marshaler)
	if !ok {
		return 0, fmt.Errorf("rpc: write message: %T cannot be encoded", msg)
	}
	data, err := m.MarshalJSON()
	if err != nil {
		return 0, fmt.Errorf("rpc: encode message: %w", err)
	}
	return s.writeFrame(ctx, data)
}

// successBody is the JSON of a successful response, as
// jsonrpc2.Response.MarshalJSON writes it, without validating and
// compacting its result a second time: jsonrpc2.NewResponse made it with
// json.Marshal.
func successBody(r *jsonrpc2.Response) ([]byte, error) {
	return responseBody(r.ID(), r.Result())
}

// responseBody is the JSON of a successful response to the request id
// whose result is the compact JSON result.
func responseBody(id jsonrpc2.ID, result []byte) ([]byte, error) {
	idJSON, err := json.Marshal(&id) // ID encodes through its pointer
	if err != nil {
		return nil, err
	}
	body := make([]byte, 0, len(result)+len(idJSON)+40)
	body = append(body, `{"jsonrpc":"2.0","result":`...)
	body = append(body, result...)
	body = append(body, `,"id":`...)
	body = append(body, idJSON...)
	return append(body, '}'), nil
}

// writeFrame writes one frame: the header, then body.
func (s *Stream) writeFrame(ctx context.Context, body []byte) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if s.closed.Load() {
		return 0, errStreamClosed
	}
	header := "Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n"
	s.wmu.Lock()
	defer s.wmu.Unlock()
	n, err := io.WriteString(s.out, header)
	if err != nil {
		return int64(n), fmt.Errorf("rpc: write header: %w", err)
	}
	m, err := s.out.Write(body)
	if err != nil {
		return int64(n + m), fmt.Errorf("rpc: write body: %w", err)
	}
	return int64(n + m), nil
}

// Close implements jsonrpc2.Stream: it closes the input when it can.
//
// Defect: closing os.Stdin does not unblock a pending read, so lsp.Serve
// does not rely on Close to stop; it returns when exit arrives (see
// lsp/serve.go).
func (s *Stream) Close() error {
	if s.closed.Swap(true) || s.closeIn == nil {
		return nil
	}
	if err := s.closeIn(); err != nil {
		return fmt.Errorf("rpc: close input: %w", err)
	}
	return nil
}

// frameError is a malformed message, answered with code and msg.
type frameError struct {
	code     jsonrpc2.Code
	msg      string
	id       json.RawMessage // nil when the id is unknown
	response bool            // the message was a response: do not answer
}

// validID returns raw when it is a JSON string or an integer that fits in
// int32 (the ids jsonrpc2.ID can hold), else nil.
func validID(raw json.RawMessage) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil
		}
		return raw
	}
	if _, err := strconv.ParseInt(string(raw), 10, 32); err != nil {
		return nil
	}
	return raw
}

// frameReader reads frames from src through its own buffer, so that bytes
// read too far (a wrong Content-Length) can be pushed back.
type frameReader struct {
	src io.Reader
	buf []byte // buf[off:] is not consumed yet
	off int
	err error // sticky error of src
}

// pending returns the bytes read but not consumed.
func (r *frameReader) pending() []byte { return r.buf[r.off:] }

// consume drops n pending bytes.
func (r *frameReader) consume(n int) { r.off += n }

// fill reads more bytes from src into the buffer.
func (r *frameReader) fill() error {
	if r.err != nil {
		return r.err
	}
	if r.off > 0 {
		n := copy(r.buf, r.buf[r.off:])
		r.buf, r.off = r.buf[:n], 0
	}
	if cap(r.buf)-len(r.buf) < 4096 {
		nb := make([]byte, len(r.buf), 2*cap(r.buf)+8192)
		copy(nb, r.buf)
		r.buf = nb
	}
	n, err := r.src.Read(r.buf[len(r.buf):cap(r.buf)])
	r.buf = r.buf[:len(r.buf)+n]
	if err != nil {
		r.err = err
		if n > 0 {
			return nil
		}
		return err
	}
	return nil
}

// unread puts b back in front of the unconsumed bytes.
func (r *frameReader) unread(b []byte) {
	nb := make([]byte, 0, len(b)+len(r.pending())+4096)
	nb = append(nb, b...)
	nb = append(nb, r.pending()...)
	r.buf, r.off = nb, 0
}

// next returns the body of the next frame. A malformed frame that was
// skipped is returned as ferr; err is a read error of src.
func (r *frameReader) next(max int64) (body []byte, n int64, ferr *frameError, err error) {
	skipped, err := r.seekMarker()
	n += int64(skipped)
	if err != nil {
		return nil, n, nil, err
	}
	// The first header line holds the marker; more headers may follow
	// until an empty line.
	length := int64(-1)
	for first := true; ; first = false {
		line, err := r.peekLine()
		if errors.Is(err, errLongLine) {
			if first {
				r.consume(len(headerMarker))
				n += int64(len(headerMarker))
			}
			return nil, n, &frameError{code: jsonrpc2.ParseError, msg: "parse error: header line too long"}, nil
		}
		if err != nil {
			return nil, n, nil, err
		}
		text := bytes.TrimSpace(line)
		if len(text) == 0 {
			r.consume(len(line))
			n += int64(len(line))
			break
		}
		name, value, ok := bytes.Cut(text, []byte(":"))
		if !ok {
			// Not a header: leave it for the next seekMarker.
			return nil, n, &frameError{code: jsonrpc2.ParseError, msg: "parse error: malformed header"}, nil
		}
		r.consume(len(line))
		n += int64(len(line))
		if !bytes.EqualFold(bytes.TrimSpace(name), headerMarker[:len(headerMarker)-1]) {
			continue // Content-Type and unknown headers are ignored
		}
		v, perr := strconv.ParseInt(string(bytes.TrimSpace(value)), 10, 64)
		if perr != nil || v <= 0 {
			return nil, n, &frameError{code: jsonrpc2.ParseError, msg: fmt.Sprintf("parse error: invalid Content-Length %q", bytes.TrimSpace(value))}, nil
		}
		length = v
	}
	if length < 0 {
		return nil, n, &frameError{code: jsonrpc2.ParseError, msg: "parse error: missing Content-Length"}, nil
	}
	if length > max {
		id, err := r.discard(length)
		n += length
		if err != nil {
			return nil, n, nil, err
		}
		msg := fmt.Sprintf("invalid request: a message of %d bytes exceeds the limit of %d bytes", length, max)
		return nil, n, &frameError{code: jsonrpc2.InvalidRequest, msg: msg, id: id}, nil
	}
	body, err = r.readFull(length)
	n += int64(len(body))
	if err != nil {
		return nil, n, nil, err
	}
	return body, n, nil, nil
}

// seekMarker consumes bytes up to the next Content-Length header and
// returns how many it skipped. Garbage is skipped silently: it is the tail
// of a frame that already got an error, or noise a client should not send.
func (r *frameReader) seekMarker() (int, error) {
	skipped := 0
	for {
		p := r.pending()
		if i := indexFold(p, headerMarker); i >= 0 {
			r.consume(i)
			return skipped + i, nil
		}
		if keep := len(headerMarker) - 1; len(p) > keep {
			r.consume(len(p) - keep)
			skipped += len(p) - keep
		}
		if err := r.fill(); err != nil {
			if err == io.EOF && len(bytes.TrimSpace(r.pending())) > 0 {
				err = io.ErrUnexpectedEOF
			}
			return skipped, err
		}
	}
}

// errLongLine is a header line longer than maxHeaderLine.
var errLongLine = errors.New("rpc: header line too long")

// peekLine returns the next line, "\n" included, without consuming it.
func (r *frameReader) peekLine() ([]byte, error) {
	for {
		p := r.pending()
		if i := bytes.IndexByte(p, '\n'); i >= 0 {
			if i >= maxHeaderLine {
				return nil, errLongLine
			}
			return p[:i+1], nil
		}
		if len(p) >= maxHeaderLine {
			return nil, errLongLine
		}
		if err := r.fill(); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
	}
}

// readFull returns the next n bytes.
func (r *frameReader) readFull(n int64) ([]byte, error) {
	body := make([]byte, n)
	got := copy(body, r.pending())
	r.consume(got)
	if got < len(body) {
		if r.err != nil {
			return body[:got], r.err
		}
		m, err := io.ReadFull(r.src, body[got:])
		if err != nil {
			r.err = err
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return body[:got+m], err
		}
	}
	return body, nil
}

// discard skips the next n bytes without keeping them and returns the
// request id found in them, if any.
func (r *frameReader) discard(n int64) (json.RawMessage, error) {
	var sc idScanner
	for n > 0 {
		p := r.pending()
		if len(p) == 0 {
			if err := r.fill(); err != nil {
				if err == io.EOF {
					err = io.ErrUnexpectedEOF
				}
				return nil, err
			}
			continue
		}
		if int64(len(p)) > n {
			p = p[:n]
		}
		sc.feed(p)
		r.consume(len(p))
		n -= int64(len(p))
	}
	return validID(sc.id), nil
}

// indexFold is bytes.Index ignoring ASCII case.
func indexFold(s, sep []byte) int {
	for i := 0; i+len(sep) <= len(s); i++ {
		if s[i]|0x20 == sep[0]|0x20 && bytes.EqualFold(s[i:i+len(sep)], sep) {
			return i
		}
	}
	return -1
}
