// Chat reports from the 1.19.1-1.19.2 games (contract section 24; authlib 3.11), on SQLite and PostgreSQL: the JSON
// as authlib's Gson writes it (base64 byte buffers, ISO instants, dashless UUIDs, null fields left out, 64-bit salts
// as bare numbers), messages signed with the private key player/certificates gave, in the 1.19.2 layout (header over
// the previous header's signature, the sender and the body digest); the moderators' queue showing them in order with
// their verification; altered, re-chained, foreign-key and decorated messages failing; malformed ones refused.
import assert from 'node:assert/strict';
import { createHash, createSign, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../test/support/clock.ts';
import { describeEachDatabase } from '../../test/support/databases.ts';
import { gameReportClient, gsonJson, listeningReportService } from '../../test/support/game-reports.ts';

const dashless = (uuid: string) => uuid.replace(/-/g, '');
const long = (value: bigint) => {
  const bytes = Buffer.alloc(8);
  bytes.writeBigInt64BE(value);
  return bytes;
};

/** A 1.19.2 chat message as the game keeps it: the header always, the body unless the report sends only the header. */
interface LegacyChat {
  profileId: string;
  previous: Buffer | null;
  timestampMs: number;
  salt: bigint;
  lastSeen: { profileId: string; signature: Buffer }[];
  plain: string;
  decorated?: unknown;
  hashOfBody: Buffer;
  signature: Buffer;
  headerOnly: boolean;
  messageReported: boolean;
}

/** 1.19.2 SignedMessageBody.hash, written here independently of the service (an undecorated body). */
function bodyHash(chat: Pick<LegacyChat, 'salt' | 'timestampMs' | 'plain' | 'lastSeen'>): Buffer {
  return createHash('sha256')
    .update(
      Buffer.concat([
        long(chat.salt),
        long(BigInt(Math.floor(chat.timestampMs / 1000))),
        Buffer.from(chat.plain, 'utf8'),
        Buffer.of(70),
        ...chat.lastSeen.flatMap((seen) => [Buffer.of(70), Buffer.from(dashless(seen.profileId), 'hex'), seen.signature]),
      ]),
    )
    .digest();
}

/** 1.19.2 SignedMessageHeader: SHA256withRSA over the previous signature, the sender UUID and the body hash. */
const headerSign = (key: KeyObject, previous: Buffer | null, profileId: string, hashOfBody: Buffer) =>
  createSign('SHA256')
    .update(Buffer.concat([...(previous ? [previous] : []), Buffer.from(dashless(profileId), 'hex'), hashOfBody]))
    .sign(key);

/** The report as authlib 3.11's Gson writes it (null fields left out; the salt a bare 64-bit number). */
function legacyReportJson(subject: string, chats: LegacyChat[], reason = 'HARASSMENT_OR_BULLYING') {
  const messages = chats.map((chat) => ({
    header: {
      ...(chat.previous && { signatureOfPreviousHeader: chat.previous.toString('base64') }),
      profileId: dashless(chat.profileId),
      hashOfBody: chat.hashOfBody.toString('base64'),
      signature: chat.signature.toString('base64'),
    },
    ...(!chat.headerOnly && {
      body: {
        timestamp: new Date(chat.timestampMs).toISOString(),
        salt: `@@${chat.salt}@@`,
        lastSeenSignatures: chat.lastSeen.map((seen) => ({
          profileId: dashless(seen.profileId),
          lastSignature: seen.signature.toString('base64'),
        })),
        message: { plain: chat.plain, ...(chat.decorated !== undefined && { decorated: chat.decorated }) },
      },
    }),
    messageReported: chat.messageReported,
  }));
  const body = {
    version: 1,
    id: dashless(randomUUID()),
    reportType: 'CHAT',
    report: {
      opinionComments: 'Please look at this',
      reason,
      evidence: { messages },
      reportedEntity: { profileId: dashless(subject) },
      createdTime: new Date().toISOString(),
    },
    clientInfo: { clientVersion: '1.19.2', locale: 'en_US' },
    thirdPartyServerInfo: { address: 'old.example.org' },
  };
  return gsonJson(body);
}

describeEachDatabase('chat reports from 1.19.1-1.19.2 games', (kind) => {
  const clock = new ManualClock();
  let running: Awaited<ReturnType<typeof listeningReportService>>;
  before(async () => (running = await listeningReportService(kind, clock)));
  after(async () => running?.service.close());
  const { player, chatKey, send, queue, reportCount } = gameReportClient(() => running);
  const latestAbout = async (uuid: string) =>
    (await queue()).filter((entry: { subject: { uuid: string } }) => entry.subject.uuid === uuid).at(-1);

  /** A 1.19.2 chain of `sender`: each header over the one before, each body having seen the message before. */
  const chain = (sender: { uuid: string }, key: KeyObject, texts: string[], reported: boolean[]) => {
    const chats: LegacyChat[] = [];
    texts.forEach((plain, at) => {
      const before = chats[at - 1];
      const body = {
        timestampMs: clock.now() + at * 1500 + 321,
        salt: at % 2 === 0 ? -7654321098765432109n - BigInt(at) : 9007199254740995n + BigInt(at),
        lastSeen: before ? [{ profileId: sender.uuid, signature: before.signature }] : [],
        plain,
      };
      const previous = before?.signature ?? null;
      const hashOfBody = bodyHash(body);
      const signature = headerSign(key, previous, sender.uuid, hashOfBody);
      chats.push({ ...body, profileId: sender.uuid, previous, hashOfBody, signature, headerOnly: false, messageReported: reported[at]! });
    });
    return chats;
  };

  describe('POST player/report', () => {
    it('stores a 1.19.2 chat report whose messages verify against the certified key, in order, with full attestation', async () => {
      const [steve, alex] = [await player(), await player()];
      const key = await chatKey(alex.accessToken);
      const chats = chain(alex, key, ['context only', 'hello', 'you are terrible', 'привет 你好'], [false, false, true, true]);
      chats[0]!.headerOnly = true;
      const sent = await send(steve.accessToken, legacyReportJson(alex.uuid, chats));
      assert.equal(sent.status, 204, JSON.stringify(sent.body));
      const report = await latestAbout(alex.uuid);
      assert.equal(report.kind, 'chat');
      assert.equal(report.attestation, 'full');
      assert.deepEqual(report.failed, []);
      assert.deepEqual(
        report.evidence.messages.map((m: { format: string; message: string | null; verified: boolean; messageReported: boolean }) => [
          m.format,
          m.message,
          m.verified,
          m.messageReported,
        ]),
        [
          ['legacy', null, true, false],
          ['legacy', 'hello', true, false],
          ['legacy', 'you are terrible', true, true],
          ['legacy', 'привет 你好', true, true],
        ],
      );
      assert.equal(report.evidence.messages[2].salt, '-7654321098765432111');
      assert.equal(report.evidence.client.version, '1.19.2');
      assert.equal(report.evidence.server, 'old.example.org');
    });

    it('fails attestation for a message altered, re-chained, signed with another key or decorated', async () => {
      const [steve, alex] = [await player(), await player()];
      const key = await chatKey(alex.accessToken);
      const report = async (chats: LegacyChat[]) => {
        assert.equal((await send(steve.accessToken, legacyReportJson(alex.uuid, chats))).status, 204);
        return latestAbout(alex.uuid);
      };

      // The text altered after signing: its body no longer matches the signed hash.
      const altered = chain(alex, key, ['hi', 'you are great'], [false, true]);
      altered[1]!.plain = 'you are terrible';
      let stored = await report(altered);
      assert.equal(stored.attestation, 'none');
      assert.deepEqual(stored.failed, [1]);
      assert.equal(stored.evidence.messages[1].problem, 'altered');
      assert.equal(stored.evidence.messages[1].message, 'you are terrible');

      // A message taken from another chain: signed right, but not after the message listed before it.
      const first = chain(alex, key, ['one', 'two'], [true, false]);
      const second = chain(alex, key, ['three', 'four'], [false, true]);
      stored = await report([first[0]!, first[1]!, second[1]!]);
      assert.equal(stored.attestation, 'partial');
      assert.deepEqual(stored.failed, [2]);
      assert.equal(stored.evidence.messages[2].problem, 'broken-chain');

      // Signed with a key this service never certified for the sender.
      const foreign = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
      stored = await report(chain(alex, foreign, ['I said this'], [true]));
      assert.equal(stored.attestation, 'none');
      assert.equal(stored.evidence.messages[0].problem, 'bad-signature');

      // A decorated message: its component JSON cannot be re-hashed exactly here, so it is not taken as verified.
      const decorated = chain(alex, key, ['plain words', 'more'], [true, true]);
      decorated[1]!.decorated = { text: '<alex> more' };
      stored = await report(decorated);
      assert.equal(stored.attestation, 'partial');
      assert.deepEqual(stored.failed, [1]);
      assert.equal(stored.evidence.messages[1].problem, 'unverifiable');
    });

    it('refuses a malformed 1.19.2 report in the game API’s shape and stores nothing', async () => {
      const [steve, alex] = [await player(), await player()];
      const key = await chatKey(alex.accessToken);
      const good = () => JSON.parse(legacyReportJson(alex.uuid, chain(alex, key, ['a', 'b'], [true, false])));
      const edited = (edit: (body: { report: { evidence: { messages: Record<string, any>[] } } }) => void) => {
        const body = good();
        edit(body);
        return JSON.stringify(body);
      };
      const many = (count: number, reported: number) =>
        legacyReportJson(
          alex.uuid,
          chain(
            alex,
            key,
            Array.from({ length: count }, (_, at) => `m${at}`),
            Array.from({ length: count }, (_, at) => at < reported),
          ),
        );
      const before = await reportCount();
      const refusals = [
        many(41, 1),
        many(5, 5),
        edited((body) => delete body.report.evidence.messages[0]!.header.signature),
        edited((body) => (body.report.evidence.messages[0]!.header.hashOfBody = Buffer.alloc(20).toString('base64'))),
        edited((body) => (body.report.evidence.messages[0]!.header.profileId = 'not-a-uuid')),
        edited((body) => (body.report.evidence.messages[0]!.body.message.plain = 'x'.repeat(257))),
        edited((body) => (body.report.evidence.messages[0]!.body.timestamp = 1660000000)),
        edited((body) => (body.report.evidence.messages[0]!.body.lastSeenSignatures = [{ profileId: alex.uuid, lastSignature: '%%' }])),
        edited((body) => (body.report.evidence.messages[1]!.body.message.decorated = { text: 'x'.repeat(40000) })),
      ];
      for (const json of refusals) {
        const answer = await send(steve.accessToken, json);
        assert.equal(answer.status, 400, json.slice(0, 300));
        assert.equal(answer.body.error, 'IllegalArgumentException');
        assert.match(answer.body.errorMessage, /^Malformed report: /);
        assert.equal(answer.body.path, '/player/report');
      }
      assert.equal(await reportCount(), before);
    });
  });
});
