package tokenizer

import "testing"

func TestNFC(t *testing.T) {
	tests := []struct{ in, want string }{
		{"e\u0301", "é"},
		{"caf\u00e9", "café"},
		{"\u212b", "Å"},                                           // singleton
		{">\u0338", "≯"},                                          // BMP pair
		{"\U000e0077\u0301", "\U000e0077\u0301"},                  // x/text made it "ẃ"
		{"\U0001003c\u0338", "\U0001003c\u0338"},                  // x/text made it "≮"
		{"\U00011099\U000110ba", "\U0001109a"},                    // a real non-BMP composite (Kaithi)
		{"\U0002f800\u0301", "\u4e3d\u0301"},                      // CJK compatibility ideograph
		{"a\u0328\u0301x\U0001F600\u0301", "ą́x\U0001F600\u0301"}, // marks reordered and composed
		{"\u1100\u1161\U0001F600\u1100\u1161", "가\U0001F600가"},    // Hangul around an emoji
	}
	for _, tt := range tests {
		if got := nfc(tt.in); got != tt.want {
			t.Errorf("nfc(%+q) = %+q, want %+q", tt.in, got, tt.want)
		}
	}
}
