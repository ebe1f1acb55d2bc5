// Package conversation keeps an agent's running conversation inside a
// model's context window. It implements the "Conversation budgets" section of
// docs/design.md and is the library behind the acode/sectionBudget,
// acode/trimConversation, acode/fitToolResult and acode/usageStats requests
// and the `acode-lsp trim` and `acode-lsp fit` commands.
//
// Start with:
//
//   - [SectionBudget]: split floor(contextLimit·safety) tokens over the prompt
//     sections (system prompt, goal, memory, …) and report what is left.
//   - [Trim]: make a chat-messages list fit maxContextTokens −
//     reservedOutputTokens with three passes (old tool outputs become
//     placeholders, then all tool outputs oldest first, then the oldest
//     messages are dropped), or fail with an [*Error] carrying ACODE-CTX-003.
//   - [FitToolResult]: page a large tool output in whole items (lines, files,
//     matches, hunks, commits) under a token limit with an opaque cursor, or
//     compress it for a work log with mode "history".
//   - [UsageLog]: the last 100 trims and their statistics.
//
// Token counts come from a [Counter] supplied by the caller (the server and
// the CLI pass the cached tokenizer of budget/tokenizer). Invalid requests
// return a [*ParamError] naming the field (JSON-RPC -32602); domain failures
// return an [*Error] whose Data is the JSON-RPC error data (-32803).
package conversation
