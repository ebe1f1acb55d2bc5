// Package collector turns the inputs of a packing request into sources: open
// documents and workspace files, workspace search hits, tool output and
// references. It is the gate of rule 9 of the design: every file passes
// through the same filters (workspace confinement after resolving symlinks,
// .gitignore and context.exclude, secret files, size cap, binary content,
// invalid UTF-8, emptiness) and is redacted before it can become a [Source];
// anything refused comes back as an [Exclusion] carrying its [Reason].
//
// Start with [New], which validates the workspace roots, then call
// [Workspace.Walk] to list files, [Workspace.Read] for one file,
// [Workspace.Search] for a literal or regular-expression search, and the
// free functions [ToolResult] and [ParseReference] for the other inputs.
// [Redact], [IsSecretPath] and [EscapePath] are the building blocks, exported
// for the language server and the command line. docs/security.md explains
// what is excluded and redacted, and why.
package collector
