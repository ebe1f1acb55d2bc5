// Package tokenizer counts tokens exactly as OpenAI's tiktoken does, fast.
//
// Start with [ForModel] (a model name such as "gpt-4o") or [ForEncoding]
// (an encoding name such as "cl100k_base"); both return a [Tokenizer] whose
// Count method is safe for concurrent use. Unknown models get the
// conservative [Heuristic] (ceil(runes/3.5)), whose Exact method reports
// false. Wrap any Tokenizer with [NewCached] to memoise counts of repeated
// text in a bounded LRU keyed by a content hash.
//
// Text that spells a special token ("<|endoftext|>") is counted as ordinary
// text, the way the OpenAI APIs treat user content. Invalid UTF-8 is counted
// after each maximal ill-formed subsequence is replaced by U+FFFD, the way
// a WHATWG TextDecoder (browsers, Node, VS Code) or Python's
// bytes.decode(errors="replace") would send it.
package tokenizer
