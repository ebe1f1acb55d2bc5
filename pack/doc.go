// Package pack is the packing pipeline of acode-lsp: collect → chunk → rank
// → dedup → select → format → verify (docs/design.md).
//
// Start with [Engine.Pack]: it takes a [Request] (the params of
// acode/packContext) and returns a [Result] whose Content fits the budget,
// counted exactly on the final string. The CLI (`acode-lsp pack`) and the
// language server both call it; this package never speaks JSON-RPC.
//
// Where each rule lives: collection and input safety (rule 9) in
// [github.com/acode-lsp/acode-lsp/collector], chunking (rule 4) in
// [github.com/acode-lsp/acode-lsp/chunker], ranking (rule 5) in rank.go,
// dedup, selection and verification (rules 3, 6, 7) in
// [github.com/acode-lsp/acode-lsp/budget], formatting (rule 8) in format.go.
package pack
