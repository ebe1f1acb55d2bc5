package lsp

// exit handles the exit notification, in any state: Serve returns, with
// code 0 when shutdown came first and 1 otherwise. It is called from the
// read loop directly (see rpc.Conn), so it works even before
// initialize and after shutdown.
func (s *Server) exit() {
	s.exitOnce.Do(func() { close(s.exited) })
}
