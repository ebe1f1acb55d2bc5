// openai-standin.mjs is a scripted stand-in for the OpenAI Responses API
// (POST /v1/responses, streamed as server-sent events) on 127.0.0.1, for
// driving the real Codex CLI through a custom model provider whose base_url
// points at it. Every request is logged, so a test reads the exact
// function_call_output items — what the model was given of each tool call.
//
// The script is a list of turns, each {tool: NAME, namespace?: NS, input} (the
// model calls a tool; Codex offers MCP tools as functions of the namespace
// `mcp__<server>`) or {text} (the model answers). The turn played is the
// number of function_call_output items already in the request's input.
// Anything but POST /v1/responses gets an OpenAI-style 404 (and is logged).
import { createServer } from "node:http";

/** startResponsesStandin resolves to {url, requests, close()}; url ends in /v1. */
export async function startResponsesStandin(script) {
  const requests = [];
  const sockets = new Set();
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
      const path = new URL(req.url, "http://127.0.0.1").pathname;
      requests.push({ method: req.method, path, body });
      if (req.method !== "POST" || path !== "/v1/responses") {
        const text = JSON.stringify({ error: { message: `stand-in: no ${req.method} ${path}`, type: "invalid_request_error" } });
        res.writeHead(404, { "content-type": "application/json" });
        res.end(text);
        return;
      }
      const done = functionOutputs(body).length;
      const turn = script.turns[Math.min(done, script.turns.length - 1)];
      const item = turn.tool
        ? {
            type: "function_call",
            id: `fc_${done + 1}`,
            call_id: `call_${done + 1}`,
            name: turn.tool,
            ...(turn.namespace ? { namespace: turn.namespace } : {}),
            arguments: JSON.stringify(turn.input ?? {}),
          }
        : { type: "message", id: `msg_${done + 1}`, role: "assistant", content: [{ type: "output_text", text: turn.text }] };
      const id = `resp_${requests.length}`;
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      const event = (data) => res.write(`event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`);
      event({ type: "response.created", response: { id } });
      event({ type: "response.output_item.added", output_index: 0, item });
      event({ type: "response.output_item.done", output_index: 0, item });
      event({
        type: "response.completed",
        response: { id, usage: { input_tokens: 10, input_tokens_details: null, output_tokens: 10, output_tokens_details: null, total_tokens: 20 } },
      });
      res.end();
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  return {
    url: `http://127.0.0.1:${server.address().port}/v1`,
    requests,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** functionOutputs lists the function_call_output items of a request, in order. */
export function functionOutputs(body) {
  return (body?.input ?? []).filter((i) => i.type === "function_call_output");
}

/** functionCalls lists the function_call items of a request, in order. */
export function functionCalls(body) {
  return (body?.input ?? []).filter((i) => i.type === "function_call");
}

/**
 * outputText is what the model reads of a function_call_output: its output
 * string, or the text parts of its output list.
 */
export function outputText(item) {
  if (typeof item.output === "string") return item.output;
  return (item.output ?? []).filter((p) => p.type === "input_text" || p.type === "output_text" || p.type === "text").map((p) => p.text).join("\n");
}
