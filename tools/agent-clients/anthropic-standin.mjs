// anthropic-standin.mjs is a scripted stand-in for the Anthropic Messages API
// on 127.0.0.1, for driving the real Claude Code CLI without an account or a
// network: ANTHROPIC_BASE_URL points at it.
//
// It answers POST /v1/messages (streamed as server-sent events when the
// request says "stream": true, as Claude Code asks; a JSON message otherwise),
// POST /v1/messages/count_tokens, and anything else with a small JSON answer
// (HEAD/GET probes get 200, unknown POSTs an Anthropic-style 404). Every
// request is logged (method, path, parsed body) so a test reads the exact
// messages — and so the exact tool_result — the model was given.
//
// The agent's conversation follows a script: a list of turns, each either
// {tool: NAME, input: {...}} (the model calls a tool) or {text: "..."} (the
// model answers and stops). The turn played is the number of tool results
// already in the request's messages, so a retried request replays the same
// turn. Requests that do not offer the scripted tools (Claude Code's side
// calls: titles, topic checks, quota probes) get a one-word text answer.
import { createServer } from "node:http";

/**
 * startStandin starts the server and resolves to
 * {url, requests, agentRequests(), close()}; a request it had no answer for
 * is marked unserved.
 * @param {{turns: Array<{tool?: string, input?: object, text?: string}>, model?: string}} script
 */
export async function startStandin(script) {
  const requests = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = { unparsed: raw.slice(0, 200) };
      }
      const url = new URL(req.url, "http://127.0.0.1");
      const entry = { method: req.method, path: url.pathname, search: url.search, body };
      requests.push(entry);
      try {
        route(script, entry, res);
      } catch (err) {
        sendJSON(res, 500, { type: "error", error: { type: "api_error", message: String(err) } });
      }
    });
  });
  // Claude Code keeps connections alive; close() must not wait for them.
  const sockets = new Set();
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** The /v1/messages requests that offered the scripted tools: the agent's turns. */
    agentRequests: () => requests.filter((r) => r.path === "/v1/messages" && offersScriptedTool(script, r.body)),
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function offersScriptedTool(script, body) {
  const names = new Set((body?.tools ?? []).map((t) => t.name));
  return script.turns.some((t) => t.tool && names.has(t.tool));
}

/** toolResults lists the tool_result blocks of a request's messages, in order. */
export function toolResults(body) {
  const out = [];
  for (const m of body?.messages ?? []) {
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content) if (b.type === "tool_result") out.push(b);
  }
  return out;
}

/** toolUses lists the tool_use blocks of a request's messages, in order. */
export function toolUses(body) {
  const out = [];
  for (const m of body?.messages ?? []) {
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content) if (b.type === "tool_use") out.push(b);
  }
  return out;
}

/**
 * resultText is what the model reads of a tool_result: its string content, or
 * its text blocks joined (Claude Code may append a <system-reminder> block,
 * which is kept: it reaches the model too).
 */
export function resultText(block) {
  if (typeof block.content === "string") return block.content;
  return (block.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
}

function route(script, entry, res) {
  const { method, path, body } = entry;
  if (method === "HEAD" || method === "GET") {
    sendJSON(res, 200, {});
    return;
  }
  if (method === "POST" && path === "/v1/messages/count_tokens") {
    sendJSON(res, 200, { input_tokens: Math.ceil(JSON.stringify(body ?? {}).length / 4) });
    return;
  }
  if (method === "POST" && path === "/v1/messages") {
    const model = body?.model ?? script.model ?? "claude-sonnet-4-5";
    let content;
    let stop;
    if (offersScriptedTool(script, body)) {
      const turn = script.turns[Math.min(toolResults(body).length, script.turns.length - 1)];
      if (turn.tool) {
        content = [{ type: "tool_use", id: `toolu_standin_${toolResults(body).length + 1}`, name: turn.tool, input: turn.input ?? {} }];
        stop = "tool_use";
      } else {
        content = [{ type: "text", text: turn.text }];
        stop = "end_turn";
      }
    } else {
      content = [{ type: "text", text: "ok" }];
      stop = "end_turn";
    }
    if (body?.stream) sendStream(res, model, content, stop);
    else
      sendJSON(res, 200, {
        id: "msg_standin",
        type: "message",
        role: "assistant",
        model,
        content,
        stop_reason: stop,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 10 },
      });
    return;
  }
  entry.unserved = true;
  sendJSON(res, 404, { type: "error", error: { type: "not_found_error", message: `stand-in: no ${method} ${path}` } });
}

function sendJSON(res, status, value) {
  const text = JSON.stringify(value);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), "request-id": "req_standin" });
  res.end(text);
}

// sendStream writes a message as the Messages API streams it: message_start,
// then per block content_block_start/delta/stop (a tool_use's input arrives as
// input_json_delta fragments, a text as text_delta), message_delta with the
// stop reason, message_stop.
function sendStream(res, model, content, stop) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", "request-id": "req_standin" });
  const event = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  event("message_start", {
    message: { id: "msg_standin", type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } },
  });
  content.forEach((block, index) => {
    if (block.type === "tool_use") {
      event("content_block_start", { index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } });
      const json = JSON.stringify(block.input);
      const cut = Math.ceil(json.length / 2);
      for (const part of [json.slice(0, cut), json.slice(cut)]) {
        event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: part } });
      }
    } else {
      event("content_block_start", { index, content_block: { type: "text", text: "" } });
      event("content_block_delta", { index, delta: { type: "text_delta", text: block.text } });
    }
    event("content_block_stop", { index });
  });
  event("message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 10 } });
  event("message_stop", {});
  res.end();
}
