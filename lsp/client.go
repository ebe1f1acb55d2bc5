package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"go.lsp.dev/protocol"

	"github.com/acode-lsp/acode-lsp/lsp/internal/rpc"
)

// clientCaps is the part of the client's capabilities the server uses.
type clientCaps struct {
	workDoneProgress  bool // window.workDoneProgress
	watchFilesDynamic bool // workspace.didChangeWatchedFiles.dynamicRegistration
	configuration     bool // workspace.configuration
	codeLensRefresh   bool // workspace.codeLens.refreshSupport
}

// client sends the server's messages to the editor.
//
// Defect: protocol.Client.ApplyEdit fails to decode its result, and
// CodeLensRefresh and ShowDocument sit on protocol.Server instead of
// protocol.Client; so no protocol.Client is used: requests go out with
// rpc.Conn.Call and notifications with rpc.Conn.Notify, params always as
// pointers (see progress.go for why).
//
// Defect: protocol.WithLogger and protocol.WithClient store their values
// under the same context key, so neither is used; the connection travels
// in this struct and the logger in the Server.
type client struct {
	*rpc.Conn
	timeout time.Duration // for each request to the editor; 0: none
}

// Call sends a request to the editor and waits for its answer at most
// c.timeout (seed FR-016-30: a source of context that does not answer is
// given up on). It shadows rpc.Conn.Call, so every request the server
// sends goes through it.
func (c *client) Call(ctx context.Context, method string, params, result any) error {
	if c.timeout <= 0 {
		return c.Conn.Call(ctx, method, params, result)
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	err := c.Conn.Call(ctx, method, params, result)
	if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("the editor did not answer %s within %s: %w", method, c.timeout, err)
	}
	return err
}

// showMessage shows a message to the user (window/showMessage).
func (c *client) showMessage(typ protocol.MessageType, msg string) {
	c.Notify(protocol.MethodWindowShowMessage, &protocol.ShowMessageParams{Type: typ, Message: msg})
}

// refreshCodeLenses asks the client to request code lenses again
// (workspace/codeLens/refresh), when it supports that.
func (c *client) refreshCodeLenses(ctx context.Context) error {
	return c.Call(ctx, protocol.MethodCodeLensRefresh, nil, nil)
}

// configuration asks the client for its "acode" settings
// (workspace/configuration).
func (c *client) configuration(ctx context.Context) (json.RawMessage, error) {
	var result []json.RawMessage
	params := &protocol.ConfigurationParams{Items: []protocol.ConfigurationItem{{Section: "acode"}}}
	if err := c.Call(ctx, protocol.MethodWorkspaceConfiguration, params, &result); err != nil {
		return nil, err
	}
	if len(result) == 0 {
		return nil, nil
	}
	return result[0], nil
}
