package lsp

import (
	"context"
	"encoding/json"
	"fmt"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"
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
// conn.Call and notifications with conn.Notify, params always as pointers
// (see progress.go for why).
//
// Defect: protocol.WithLogger and protocol.WithClient store their values
// under the same context key, so neither is used; the client and the
// logger travel in this struct.
type client struct {
	conn jsonrpc2.Conn
	log  *zap.Logger
}

// notify sends a notification. It is written even when the request that
// caused it has been cancelled; a failed write is logged.
func (c *client) notify(method string, params any) {
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.log.Warn("send notification", zap.String("method", method), zap.Error(err))
	}
}

// call sends a request to the client and decodes its result.
func (c *client) call(ctx context.Context, method string, params, result any) error {
	if _, err := c.conn.Call(ctx, method, params, result); err != nil {
		return fmt.Errorf("lsp: %s: %w", method, err)
	}
	return nil
}

// showMessage shows a message to the user (window/showMessage).
func (c *client) showMessage(typ protocol.MessageType, msg string) {
	c.notify(protocol.MethodWindowShowMessage, &protocol.ShowMessageParams{Type: typ, Message: msg})
}

// refreshCodeLenses asks the client to request code lenses again
// (workspace/codeLens/refresh), when it supports that.
func (c *client) refreshCodeLenses(ctx context.Context) error {
	return c.call(ctx, protocol.MethodCodeLensRefresh, nil, nil)
}

// configuration asks the client for its "acode" settings
// (workspace/configuration).
func (c *client) configuration(ctx context.Context) (json.RawMessage, error) {
	var result []json.RawMessage
	params := &protocol.ConfigurationParams{Items: []protocol.ConfigurationItem{{Section: "acode"}}}
	if err := c.call(ctx, protocol.MethodWorkspaceConfiguration, params, &result); err != nil {
		return nil, err
	}
	if len(result) == 0 {
		return nil, nil
	}
	return result[0], nil
}
