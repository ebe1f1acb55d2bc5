// Package rpc is the language server's JSON-RPC transport: the LSP base
// protocol on a byte stream, built on go.lsp.dev/jsonrpc2 and hardened
// against hostile input.
//
// [NewStream] frames messages ("Content-Length: N" headers then N bytes of
// JSON); a malformed frame is answered with an error carrying the request's
// id when one can be found in it (idscan.go), and the stream resynchronises
// on the next header instead of closing the connection.
//
// [Conn] runs a session on a Stream: the lifecycle gate (-32002 before
// initialize, -32600 after shutdown, exit in any state), routing to the
// tables of [Handlers], one goroutine per request with a context that
// $/cancelRequest cancels (answered -32800 at once, exactly one reply per
// request), panics turned into -32603, failures logged without the values
// the client sent, and the server's own messages ([Conn.Notify],
// [Conn.Call]).
//
// Handlers are typed with [Request] and [Notification], which decode the
// params with [DecodeParams]. They fail with an [Error]
// ([NewInvalidParams] names the field, [NewRequestFailed] carries an
// ACODE-* code in data.code) or with any error, which
// [Handlers].MapError converts (the server's one table of domain errors,
// lsp/errmap.go); a cancelled context becomes -32800.
//
// The package knows JSON-RPC and the LSP base protocol (framing,
// lifecycle, $/cancelRequest), nothing of the server's methods. The pinned go.lsp.dev modules have defects
// (docs/lsp-defects.md); each workaround sits beside a comment that starts
// with "Defect:".
package rpc
