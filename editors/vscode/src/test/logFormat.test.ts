import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { humanLogLine, humanText } from '../logFormat';

describe('humanLogLine', () => {
  const ts = new Date(2026, 10, 23, 12, 34, 56).getTime() / 1000;
  const cases: Array<[string, string, string]> = [
    [
      'fields after the message',
      JSON.stringify({ level: 'info', ts, logger: 'acode-lsp', msg: 'packed', tokens: 638, included: 6 }),
      '12:34:56 info  packed — tokens 638, included 6',
    ],
    ['no fields', JSON.stringify({ level: 'warn', ts, msg: 'config rejected' }), '12:34:56 warn  config rejected'],
    [
      'strings and lists as they are',
      JSON.stringify({ level: 'info', ts, msg: 'initialize', roots: ['/ws', '/b'], client: 'vscode' }),
      '12:34:56 info  initialize — roots /ws /b, client vscode',
    ],
    [
      'ISO 8601 time, as acode-lsp writes it',
      '{"level":"info","ts":"2026-11-23T13:20:01.123Z","logger":"acode-lsp","msg":"packed","tokens":638,"included":6,"excluded":0}',
      '13:20:01 info  packed — tokens 638, included 6, excluded 0',
    ],
    ['not JSON', 'Starting /usr/bin/acode-lsp', 'Starting /usr/bin/acode-lsp'],
    ['JSON without msg', '{"a":1}', '{"a":1}'],
    ['broken JSON', '{"level":"info"', '{"level":"info"'],
  ];
  for (const [name, line, want] of cases) {
    it(name, () => assert.equal(humanLogLine(line), want));
  }
  it('humanText converts every line of a chunk', () => {
    const chunk = `${JSON.stringify({ level: 'info', ts, msg: 'a' })}\n${JSON.stringify({ level: 'info', ts, msg: 'b', n: 1 })}\n`;
    assert.equal(humanText(chunk), '12:34:56 info  a\n12:34:56 info  b — n 1\n');
  });
});
