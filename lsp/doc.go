// Package lsp is the acode-lsp language server: JSON-RPC over stdio
// (go.lsp.dev/jsonrpc2 and go.lsp.dev/protocol), the store of open
// documents, code lenses with token costs, acode/budget notifications and
// the acode/* requests of docs/design.md ("Language server contract").
//
// Start with [Serve], which speaks the protocol on a stream until the client
// sends exit. The transport is in internal/rpc (framing that survives
// hostile input, the lifecycle gate, one goroutine per request,
// cancellation, panics, errors, params decoding); Serve hands it the
// routing tables of server.go (serve.go);
// every LSP method or notification has its own file, named after it
// (initialize.go, did_change.go, code_lens.go, pack_context.go, …).
// Handlers decode their params, call the pipeline (packages pack,
// collector, chunker, budget/tokenizer, config, conversation) and encode the
// result; they hold no packing logic.
//
// The pinned go.lsp.dev modules have defects (docs/lsp-defects.md); each
// workaround sits beside a comment that starts with "Defect:".
package lsp
