package pack

// TermHashes returns every term of text, as the scan of a file-first pack
// finds them ([Terms], stop words dropped), as hash(term) with its count:
// what [TermHashIndex.PutTermHashes] stores for a file read with text. A
// search that read a file hands it to the index this way
// (index.Set.Learn).
func TermHashes(text string, hash func([]byte) uint64) []TermHash {
	tab := termTabs.Get().(*termTab)
	defer func() { tab.reset(); termTabs.Put(tab) }()
	tab.scan(text)
	return tab.hashed(hash)
}
