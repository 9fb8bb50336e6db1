// The request log's URL: secret query values replaced, everything else as it arrived.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { redactedUrl } from './request-log.ts';

it('replaces the values of secret query parameters, however their names are written, and keeps the rest', () => {
  assert.equal(redactedUrl('/reset/confirm?code=F7YA7TAY'), '/reset/confirm?code=[redacted]');
  assert.equal(redactedUrl('/discord?code=abc&state=xyz&problem=denied'), '/discord?code=[redacted]&state=[redacted]&problem=denied');
  assert.equal(redactedUrl('/register?Invite=I1&%63ode=C1&token&x=1'), '/register?Invite=[redacted]&%63ode=[redacted]&token&x=1');
  assert.equal(redactedUrl('/a?code=1&code=2'), '/a?code=[redacted]&code=[redacted]');
  assert.equal(redactedUrl('/api/user/profile/abc?unsigned=false'), '/api/user/profile/abc?unsigned=false');
  assert.equal(redactedUrl('/textures/0123'), '/textures/0123');
});
