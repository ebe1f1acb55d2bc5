// Package rpc is the language server's JSON-RPC transport: the LSP base
// protocol on a byte stream, built on go.lsp.dev/jsonrpc2 and hardened
// against hostile input.
//
// [NewStream] frames messages ("Content-Length: N" headers then N bytes of
// JSON); a malformed frame is answered with an error carrying the request's
// id when one can be found in it (idscan.go), and the stream resynchronises
// on the next header instead of closing the connection.
//
// The package knows JSON-RPC and the LSP base protocol, nothing of the
// server's methods. The pinned go.lsp.dev modules have defects
// (docs/lsp-defects.md); each workaround sits beside a comment that starts
// with "Defect:".
package rpc
