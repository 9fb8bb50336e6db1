// Player certificates (chat signing, Minecraft 1.19+) as the game parses and a game server verifies them: the PEM
// layout the game looks for, the key pair, the times, and both signatures checked with node:crypto against the key
// the service lists under /publickeys; the one pair kept per profile (the same answer until refreshedAfter, on every
// instance, its private key sealed) and the limit per token. On SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import { after, before, it } from 'node:test';
import { ManualClock } from '../../test/support/clock.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { randomAddress, startService, type Reply, type TestService } from '../../test/support/service.ts';

const API = '/api/yggdrasil';
const HOUR_MS = 3600_000;

/** The body of a PEM the way the game reads it (net.minecraft.util.Crypt): the text between these exact markers. */
function gamePemBody(pem: string, label: string): Buffer {
  const match = new RegExp(`^-----BEGIN ${label}-----\\n([A-Za-z0-9+/=\\n]+)\\n-----END ${label}-----\\n$`).exec(pem);
  assert.ok(match, `${label} between its markers: ${pem.slice(0, 40)}`);
  const lines = match[1]!.split('\n');
  assert.ok(
    lines.slice(0, -1).every((line) => line.length === 76) && lines.at(-1)!.length <= 76,
    `${label}: base64 in lines of 76 characters, as Java's MIME encoder writes them`,
  );
  return Buffer.from(lines.join(''), 'base64');
}

/** Java's ByteBuffer.putLong of the UUID's most and least significant halves: always 16 bytes. */
function uuidBytes(uuid: string): Buffer {
  const hex = uuid.replace(/-/g, '');
  const bytes = Buffer.alloc(16);
  bytes.writeBigUInt64BE(BigInt(`0x${hex.slice(0, 16)}`), 0);
  bytes.writeBigUInt64BE(BigInt(`0x${hex.slice(16)}`), 8);
  return bytes;
}

describeEachDatabase('player certificates', (kind) => {
  const clock = new ManualClock();
  let service: TestService;

  before(async () => {
    service = await startService(kind, { clock });
  });
  after(async () => service?.close());

  /** A registered player whose UUID starts with a zero byte, and a game token for it. */
  const playerWithZeroByteUuid = async () => {
    const registered = await service.registerPlayer();
    const hex = `00${randomBytes(15).toString('hex')}`;
    const uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
    // The account's UUID is its primary profile's (contract section 16): both rows carry it.
    const { uuid: before } = await service.db
      .selectFrom('users')
      .select('uuid')
      .where('mail', '=', registered.mail)
      .executeTakeFirstOrThrow();
    await service.db.updateTable('profiles').set({ uuid }).where('uuid', '=', before!).execute();
    await service.db.updateTable('users').set({ uuid }).where('mail', '=', registered.mail).execute();
    const login = await service.call('POST', `${API}/authserver/authenticate`, {
      body: { username: registered.mail, password: registered.password },
      ip: randomAddress(),
    });
    assert.equal(login.status, 200);
    assert.equal(login.body.selectedProfile.id, uuid.replace(/-/g, ''));
    return { ...registered, uuid, accessToken: login.body.accessToken as string };
  };
  const certificates = (authorization?: string) =>
    service.call('POST', `${API}/minecraftservices/player/certificates`, {
      headers: authorization === undefined ? {} : { authorization },
    });
  const serviceKeys = async (): Promise<{ listed: KeyObject; meta: KeyObject; profilePropertyKey: KeyObject }> => {
    const keys = (await service.call('GET', `${API}/minecraftservices/publickeys`)).body;
    const der = (base64: string) => createPublicKey({ key: Buffer.from(base64, 'base64'), format: 'der', type: 'spki' });
    return {
      listed: der(keys.playerCertificateKeys[0].publicKey),
      profilePropertyKey: der(keys.profilePropertyKeys[0].publicKey),
      meta: createPublicKey((await service.call('GET', `${API}/`)).body.signaturePublickey),
    };
  };
  const spki = (key: KeyObject) => key.export({ type: 'spki', format: 'der' });

  it('hands out a key pair the game parses, signed for the player by the published service key', async () => {
    const steve = await playerWithZeroByteUuid();
    const reply = await certificates(`Bearer ${steve.accessToken}`);
    assert.equal(reply.status, 200);
    const answer = reply.body;
    assert.deepEqual(Object.keys(answer).sort(), ['expiresAt', 'keyPair', 'publicKeySignature', 'publicKeySignatureV2', 'refreshedAfter']);
    assert.deepEqual(Object.keys(answer.keyPair).sort(), ['privateKey', 'publicKey']);

    // The markers say RSA although the bodies are PKCS#8 and SPKI: that is what the game looks for.
    const privateKey = createPrivateKey({ key: gamePemBody(answer.keyPair.privateKey, 'RSA PRIVATE KEY'), format: 'der', type: 'pkcs8' });
    const publicDer = gamePemBody(answer.keyPair.publicKey, 'RSA PUBLIC KEY');
    const publicKey = createPublicKey({ key: publicDer, format: 'der', type: 'spki' });
    assert.equal(publicKey.asymmetricKeyType, 'rsa');
    assert.equal(publicKey.asymmetricKeyDetails?.modulusLength, 2048);
    const message = Buffer.from('a chat message');
    assert.ok(verify('sha256', message, publicKey, sign('sha256', message, privateKey)), 'the two halves belong together');

    assert.equal(answer.expiresAt, new Date(clock.now() + 48 * HOUR_MS).toISOString(), 'expires 48 h ahead of the service clock');
    assert.equal(answer.refreshedAfter, new Date(clock.now() + 36 * HOUR_MS).toISOString(), 'to be refreshed after 36 h');

    const { listed, meta, profilePropertyKey } = await serviceKeys();
    assert.deepEqual(spki(listed), spki(meta), '/publickeys lists the key of the metadata');
    assert.deepEqual(spki(profilePropertyKey), spki(meta));
    const expiresAtMs = Date.parse(answer.expiresAt);

    // Version 2 (1.19.1+), as the game's ProfilePublicKey.Data builds it: UUID (16 bytes), expiry ms (8 bytes), DER key.
    const expiry = Buffer.alloc(8);
    expiry.writeBigInt64BE(BigInt(expiresAtMs));
    const signedV2 = Buffer.concat([uuidBytes(steve.uuid), expiry, publicDer]);
    assert.equal(signedV2[0], 0, 'the UUID’s leading zero byte is part of what is signed');
    assert.ok(verify('sha1', signedV2, listed, Buffer.from(answer.publicKeySignatureV2, 'base64')), 'publicKeySignatureV2 verifies');

    // Version 1 (1.19.0): the expiry ms in decimal, then the public key as the game writes it again from the DER.
    const rewritten = `-----BEGIN RSA PUBLIC KEY-----\n${publicDer
      .toString('base64')
      .match(/.{1,76}/g)!
      .join('\n')}\n-----END RSA PUBLIC KEY-----\n`;
    assert.equal(answer.keyPair.publicKey, rewritten);
    const signedV1 = Buffer.from(`${expiresAtMs}${rewritten}`, 'utf8');
    assert.ok(verify('sha1', signedV1, listed, Buffer.from(answer.publicKeySignature, 'base64')), 'publicKeySignature verifies');

    const other = await playerWithZeroByteUuid();
    const otherV2 = Buffer.concat([uuidBytes(other.uuid), expiry, publicDer]);
    assert.equal(verify('sha1', otherV2, listed, Buffer.from(answer.publicKeySignatureV2, 'base64')), false, 'signed for this player only');
  });

  it('answers 401 Unauthorized without a live game token', async () => {
    const steve = await playerWithZeroByteUuid();
    const revoked = (await service.call('POST', `${API}/authserver/invalidate`, { body: { accessToken: steve.accessToken } })).status;
    assert.equal(revoked, 204);
    for (const authorization of [
      undefined,
      '',
      'Bearer',
      'Bearer 0123456789abcdef0123456789abcdef',
      `Bearer ${steve.accessToken}`,
      steve.token,
    ]) {
      const reply = await certificates(authorization);
      assert.equal(reply.status, 401, String(authorization));
      assert.equal(reply.body.error, 'Unauthorized');
      assert.equal(typeof reply.body.errorMessage, 'string');
    }
    const webToken = await certificates(`Bearer ${steve.token}`);
    assert.equal(webToken.status, 401, 'a web session token is not a game token');
  });

  /** What identifies a pair in an answer: both halves and the times (the signatures follow from them). */
  const pairOf = (reply: Reply) => {
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    const { keyPair, expiresAt, refreshedAfter } = reply.body;
    return { keyPair, expiresAt, refreshedAfter };
  };

  it('answers the same pair until refreshedAfter, then a new one', async () => {
    const steve = await playerWithZeroByteUuid();
    const first = pairOf(await certificates(`Bearer ${steve.accessToken}`));
    clock.advance(36 * HOUR_MS - 1);
    assert.deepEqual(pairOf(await certificates(`Bearer ${steve.accessToken}`)), first, 'kept until refreshedAfter');
    clock.advance(1);
    const renewed = pairOf(await certificates(`Bearer ${steve.accessToken}`));
    assert.notEqual(renewed.keyPair.privateKey, first.keyPair.privateKey, 'a new pair from refreshedAfter on');
    assert.equal(renewed.expiresAt, new Date(clock.now() + 48 * HOUR_MS).toISOString());
    assert.deepEqual(pairOf(await certificates(`Bearer ${steve.accessToken}`)), renewed);
  });

  it('answers the same pair on another instance of the same database, also when both are asked at once', async () => {
    const other = await startService(kind, { clock, database: service.database, mailbox: service.mailbox });
    try {
      const steve = await playerWithZeroByteUuid();
      const ask = (instance: TestService) =>
        instance.call('POST', `${API}/minecraftservices/player/certificates`, {
          headers: { authorization: `Bearer ${steve.accessToken}` },
        });
      const [here, there] = await Promise.all([ask(service), ask(other)]);
      assert.deepEqual(pairOf(there), pairOf(here));
      assert.deepEqual(pairOf(await ask(other)), pairOf(here));
      const rows = await service.db.selectFrom('player_certificates').select('id').where('profile_uuid', '=', steve.uuid).execute();
      assert.equal(rows.length, 1, 'one stored pair');
    } finally {
      await other.close();
    }
  });

  it('keeps the private key sealed in the database', async () => {
    const steve = await playerWithZeroByteUuid();
    const { keyPair } = pairOf(await certificates(`Bearer ${steve.accessToken}`));
    const privateDer = gamePemBody(keyPair.privateKey, 'RSA PRIVATE KEY');
    const row = await service.db
      .selectFrom('player_certificates')
      .selectAll()
      .where('profile_uuid', '=', steve.uuid)
      .executeTakeFirstOrThrow();
    const stored = JSON.stringify(row);
    for (const clear of [privateDer.toString('base64'), privateDer.toString('base64url'), privateDer.toString('hex'), keyPair.privateKey]) {
      assert.ok(!stored.includes(clear.slice(40, 120)), 'no part of the private key in clear');
    }
    assert.match(row.private_key, /^v1\./);
  });

  it('refuses the 11th request of a minute with one access token: 429 in the Yggdrasil shape', async () => {
    const steve = await playerWithZeroByteUuid();
    for (let call = 1; call <= 10; call++) assert.equal((await certificates(`Bearer ${steve.accessToken}`)).status, 200, `call ${call}`);
    const refused = await certificates(`Bearer ${steve.accessToken}`);
    assert.equal(refused.status, 429);
    assert.deepEqual(Object.keys(refused.body).sort(), ['error', 'errorMessage']);
    assert.equal(refused.body.error, 'ForbiddenOperationException');
    assert.ok(Number(refused.headers['retry-after']) > 0);
    clock.advance(60_000);
    assert.equal((await certificates(`Bearer ${steve.accessToken}`)).status, 200, 'allowed again the next minute');
  });
});
