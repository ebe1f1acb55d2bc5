import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { missingServerMessage, resolveServerPath, serverCandidates } from '../serverPath';

describe('serverCandidates', () => {
  it('PATH first, then Go and local bins, without duplicates', () => {
    const got = serverCandidates(
      { PATH: '/a:/usr/local/bin::/b', GOBIN: '/gobin', GOPATH: '/gp1:/gp2' },
      '/home/u',
      'linux',
    );
    assert.deepEqual(got, [
      '/a/acode-lsp',
      '/usr/local/bin/acode-lsp',
      '/b/acode-lsp',
      '/gobin/acode-lsp',
      '/gp1/bin/acode-lsp',
      '/gp2/bin/acode-lsp',
      '/home/u/go/bin/acode-lsp',
      '/home/u/.local/bin/acode-lsp',
    ]);
  });
});

describe('resolveServerPath', () => {
  const env = { PATH: '/a:/b' };
  const cases: Array<{ name: string; configured: string; exists: string[]; want: string | undefined }> = [
    { name: 'setting wins', configured: '/opt/acode-lsp', exists: ['/a/acode-lsp'], want: '/opt/acode-lsp' },
    { name: 'tilde expanded', configured: '~/bin/acode-lsp', exists: [], want: '/home/u/bin/acode-lsp' },
    { name: 'first on PATH', configured: '', exists: ['/b/acode-lsp', '/home/u/go/bin/acode-lsp'], want: '/b/acode-lsp' },
    { name: 'go install location', configured: ' ', exists: ['/home/u/go/bin/acode-lsp'], want: '/home/u/go/bin/acode-lsp' },
    { name: 'missing', configured: '', exists: [], want: undefined },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = resolveServerPath(c.configured, env, '/home/u', 'linux', (p) => c.exists.includes(p));
      assert.equal(got, c.want);
    });
  }
});

describe('missingServerMessage', () => {
  it('says how to install when nothing is configured', () => {
    const msg = missingServerMessage('');
    // The module is not published: `go install …@latest` fails, a clone's `make install` works.
    assert.match(msg, /from a clone of acode-lsp with `make install`/);
    assert.doesNotMatch(msg, /go install/);
    assert.match(msg, /acode\.serverPath/);
  });
  it('names the bad setting', () => {
    assert.match(missingServerMessage('/nope/acode-lsp'), /"\/nope\/acode-lsp" \(setting acode\.serverPath\)/);
  });
});
