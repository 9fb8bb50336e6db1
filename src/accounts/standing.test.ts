import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LEVELS, standingProblem, type StandingFacts } from './standing.ts';

const good: StandingFacts = { username: 'Steve', mail_verify: 1, mail_verification: 1, level: LEVELS.player };

describe('the account-standing rule', () => {
  it('lets a finished, verified, unbanned account go on', () => {
    assert.equal(standingProblem(good), null);
  });

  it('names the most serious problem first, so a banned account is told it is banned', () => {
    assert.equal(standingProblem({ ...good, username: null, mail_verify: 0, level: LEVELS.banned }), 'banned');
    assert.equal(standingProblem({ ...good, username: null, mail_verify: 0 }), 'unverified');
    assert.equal(standingProblem({ ...good, username: null }), 'unfinished');
  });

  it('skips the problems a way in tolerates, but never a ban', () => {
    assert.equal(standingProblem({ ...good, username: null }, ['unfinished']), null);
    assert.equal(standingProblem({ ...good, username: null, mail_verify: 0 }, ['unfinished']), 'unverified');
    assert.equal(standingProblem({ ...good, level: LEVELS.banned }, ['unverified', 'unfinished']), 'banned');
  });

  it('does not ask an exempted account to confirm its mail', () => {
    assert.equal(standingProblem({ ...good, mail_verify: 0, mail_verification: 0 }), null);
  });
});
