package conversation

// Costs of the message format, as in docs/design.md.
const (
	MessageOverhead  = 4    // per message (role and framing)
	ToolCallOverhead = 10   // per tool call, on top of its name and arguments
	ImageTokens      = 1000 // per image part
	ListOverhead     = 3    // per message list
)

// MessageTokens is the cost of one message: its content's tokens, plus
// [MessageOverhead], plus for each tool call the tokens of its name and
// arguments and [ToolCallOverhead].
func MessageTokens(c Counter, m Message) int {
	n := MessageOverhead + ContentTokens(c, m.Content)
	for _, call := range m.ToolCalls {
		n += c.Count(call.Name) + c.Count(call.argumentsText()) + ToolCallOverhead
	}
	return n
}

// ContentTokens is the cost of a message's content: the string's tokens,
// or the sum over its parts (text by the tokenizer, [ImageTokens] per image,
// the JSON of any other part by the tokenizer).
func ContentTokens(c Counter, content Content) int {
	switch content.kind {
	case contentText:
		return c.Count(content.text)
	case contentParts:
		n := 0
		for _, p := range content.parts {
			switch p.Type {
			case "text":
				n += c.Count(p.Text)
			case "image", "image_url", "input_image":
				n += ImageTokens
			default:
				raw, _ := p.MarshalJSON()
				n += c.Count(string(raw))
			}
		}
		return n
	}
	return 0
}

// ConversationTokens is the cost of a message list: the sum of
// [MessageTokens] plus [ListOverhead].
func ConversationTokens(c Counter, msgs []Message) int {
	n := ListOverhead
	for _, m := range msgs {
		n += MessageTokens(c, m)
	}
	return n
}
