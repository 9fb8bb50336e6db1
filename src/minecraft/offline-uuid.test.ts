import assert from 'node:assert/strict';
import { it } from 'node:test';
import { offlinePlayerUuid } from './offline-uuid.ts';

it('gives the UUIDs offline-mode servers give (Java UUID.nameUUIDFromBytes of "OfflinePlayer:<name>")', () => {
  // Vectors as minecraft-protocol and @xmcl/user compute them; the letter case of the name matters.
  assert.equal(offlinePlayerUuid('Notch'), 'b50ad385-829d-3141-a216-7e7d7539ba7f');
  assert.equal(offlinePlayerUuid('Steve'), '5627dd98-e6be-3c21-b8a8-e92344183641');
  assert.equal(offlinePlayerUuid('notch'), '42653081-a90e-3475-b3d6-3550cdb43f8e');
});
