import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorText } from '../errors';

class ResponseError extends Error {
  constructor(
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

describe('errorText', () => {
  it('a plain error', () => assert.equal(errorText(new Error('boom')), 'boom'));
  it('a string', () => assert.equal(errorText('boom'), 'boom'));
  it('a failed request names its code and what it means', () =>
    assert.equal(
      errorText(new ResponseError('no content to pack: give sources', { code: 'ACODE-CTX-004', excluded: 0 })),
      'no content to pack: give sources (ACODE-CTX-004: nothing to pack)',
    ));
  it('an unknown code is still shown', () => assert.equal(errorText(new ResponseError('x', { code: 'ACODE-NEW-009' })), 'x (ACODE-NEW-009)'));
  it('a message that says its code already is kept', () =>
    assert.equal(errorText(new ResponseError('bad config (ACODE-CFG-001)', { code: 'ACODE-CFG-001' })), 'bad config (ACODE-CFG-001)'));
});
