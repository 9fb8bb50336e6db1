// The OpenAPI document: valid OpenAPI 3.1, with every route of interface.md and every API route the service has,
// each described in full; and the docs page, which loads nothing from another site.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import Fastify from 'fastify';
import { errorSchemaIdFor } from '../http/envelope.ts';
import { ENGLISH_CATALOGUE_FILE, englishCatalogueText, openApiEnglishCatalogue, type OpenApiCatalogue } from './openapi.ts';
import { startService, type TestService } from '../../test/support/service.ts';

interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<string, { content?: Record<string, { example?: unknown }> }>;
}

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

/**
 * The answer without each optional field it holds, one field at a time, at any depth (inside records, the items of
 * arrays, and the branches of anyOf/oneOf that are records): each with the path of the field left out.
 */
function withoutEachOptionalField(schema: JsonSchema, answer: unknown, path = ''): [string, unknown][] {
  if (Array.isArray(answer)) {
    if (!schema.items) return [];
    return answer.flatMap((item, index) =>
      withoutEachOptionalField(schema.items!, item, `${path}[${index}]`).map(([field, variant]): [string, unknown] => [
        field,
        answer.map((other, at) => (at === index ? variant : other)),
      ]),
    );
  }
  if (answer === null || typeof answer !== 'object') return [];
  const branches = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].filter((branch) => branch.properties);
  if (branches.length > 0) return branches.flatMap((branch) => withoutEachOptionalField(branch, answer, path));
  const record = answer as Record<string, unknown>;
  const variants: [string, unknown][] = [];
  for (const [name, value] of Object.entries(record)) {
    const field = schema.properties?.[name];
    if (!field) continue;
    if (!schema.required?.includes(name)) {
      const { [name]: _left, ...rest } = record;
      variants.push([`${path}.${name}`, rest]);
    }
    for (const [deeper, variant] of withoutEachOptionalField(field, value, `${path}.${name}`)) {
      variants.push([deeper, { ...record, [name]: variant }]);
    }
  }
  return variants;
}

/** A route as "METHOD /path" with every path parameter written `{}`: interface.md writes `:uuid`, OpenAPI `{uuid}`. */
const routeKey = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/:[A-Za-z]+|\{[A-Za-z]+\}/g, '{}')}`;

/** The routes interface.md names, wherever it names them ("POST /api/auth/login", "**GET /api/skin/head/:uuid**"). */
function interfaceRoutes(): Set<string> {
  // A copy of shared/spec/interface.md, so that a fresh clone tests itself.
  const text = readFileSync(new URL('../../test/fixtures/interface.md', import.meta.url), 'utf8');
  return new Set(
    [...text.matchAll(/\b(GET|POST|PUT|PATCH|DELETE) (\/api\/[^\s*,|)]+)/g)].map(([, method, path]) => routeKey(method!, path!)),
  );
}

describe('OpenAPI document and docs page', () => {
  let service: TestService;
  let document: { openapi: string; paths: Record<string, Record<string, Operation>>; components?: unknown };
  const operations = () =>
    Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })),
    );

  before(async () => {
    // With GRAVIT_TOKEN, FRIENDS and MOJANG_FALLBACK, so that the GravitLauncher API, the friends routes and the premium link are there to be documented.
    service = await startService('sqlite', {
      settings: {
        gravitToken: 'a-launchserver-token-for-the-docs',
        friends: true,
        fallback: {
          mode: 'skins',
          cacheTtlSeconds: 600,
          premiumReclaim: false,
          premiumImport: true,
          sources: [
            { kind: 'mojang', name: 'Mojang', sessionUrl: 'http://127.0.0.1:9', apiUrl: 'http://127.0.0.1:9', texturesHost: '127.0.0.1' },
          ],
        },
      },
    });
    const reply = await service.call('GET', '/api/openapi.json');
    assert.equal(reply.status, 200);
    document = reply.body;
  });
  after(async () => service?.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(document);
    assert.deepEqual(result.errors, undefined);
    assert.equal(result.valid, true);
    assert.equal(validator.version, '3.1');
  });

  it('has every route of interface.md', () => {
    const expected = interfaceRoutes();
    // 8 account routes, 13 admin routes, 5 image routes (the cloak path is named twice, :idcloak and :uuid).
    assert.equal(expected.size, 26, 'routes found in interface.md');
    const documented = new Set(operations().map(({ key }) => routeKey(...(key.split(' ') as [string, string]))));
    assert.deepEqual(
      [...expected].filter((route) => !documented.has(route)),
      [],
    );
  });

  it('has every API route the service has, with its access', () => {
    const documented = new Map(operations().map(({ key, operation }) => [key.replace(/\{(\w+)\}/g, ':$1'), operation]));
    for (const [route, access] of service.app.routeAccess) {
      if (!/^\w+ \/(api\/|healthz$|readyz$)/.test(route)) continue;
      const operation = documented.get(route);
      assert.ok(operation, `${route} is missing`);
      assert.match(operation.description ?? '', /Access: /, route);
      if (route.includes(' /api/gravit/')) {
        // The GravitLauncher API's shared secret, not a user's token.
        assert.deepEqual(operation.security, [{ gravitToken: [] }], `${route}: the GRAVIT_TOKEN bearer`);
        assert.ok(operation.responses['401'], `${route}: 401`);
        continue;
      }
      if (access === 'game') {
        // A game login token, refused with 401; the routes' own 403s are their own.
        assert.deepEqual(operation.security, [{ gameToken: [] }], `${route}: the game token bearer`);
        assert.ok(operation.responses['401'], `${route}: 401`);
        continue;
      }
      assert.equal(operation.security !== undefined, access !== 'public', `${route}: bearer security iff protected`);
      if (access !== 'public') assert.ok(operation.responses['401'] && operation.responses['403'], `${route}: 401 and 403`);
    }
  });

  it('describes each route: summary, tags, responses in the envelope, examples of JSON bodies and answers', () => {
    for (const { key, operation } of operations()) {
      assert.ok(operation.summary, `${key}: summary`);
      assert.ok(operation.tags?.length, `${key}: tags`);
      // The game login and the GravitLauncher API answer in the shapes of their clients: 200 or 204 (hasJoined,
      // profile, hardware lookups), errors of their own.
      const game = key.includes(' /api/yggdrasil');
      const gravit = key.includes(' /api/gravit/');
      // A redirect is the success of the routes a browser opens itself (the Discord login's start and callback).
      const success = Object.keys(operation.responses).filter((status) => /^(2..|30[1278])$/.test(status));
      if (game || gravit) {
        assert.ok(success.length >= 1 && success.every((status) => ['200', '204'].includes(status)), `${key}: 200 or 204`);
      } else assert.equal(success.length, 1, `${key}: one success (or redirect) status`);
      // Each API's own error shape (YggdrasilError, GravitError, Mojang's services shape…), else the envelope.
      const errorSchema = errorSchemaIdFor(service.app, key.split(' ')[1]!);
      for (const [status, response] of Object.entries(operation.responses)) {
        const json = response.content?.['application/json'];
        if (status.startsWith('2') && json) assert.notEqual(json.example, undefined, `${key}: example of the ${status} answer`);
        if (status.startsWith('4') || status.startsWith('5')) {
          assert.deepEqual(json, { schema: { $ref: `#/components/schemas/${errorSchema}` } }, `${key}: ${status} is the ${errorSchema}`);
        }
      }
      const jsonBody = operation.requestBody?.content['application/json'];
      if (jsonBody) assert.notEqual(jsonBody.example, undefined, `${key}: example of the body`);
    }
  });

  it("serialises every answer's example, and the example without each of its optional fields, as the routes do (issue 45)", async () => {
    // Fastify's own serialiser (fast-json-stringify, compiled from the response schema) throws on a required field
    // that an answer lacks: the refresh of an unbound token answered 500 that way. Each answer schema of the document
    // is a route of a probe, which sends back what it is given.
    const probe = Fastify({ logger: false });
    const cases: { key: string; schema: JsonSchema; answer: unknown }[] = [];
    for (const { key, operation } of operations()) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const json = response.content?.['application/json'] as { schema?: JsonSchema; example?: unknown } | undefined;
        if (!status.startsWith('2') || !json?.schema || json.example === undefined) continue;
        const url = `/probe/${cases.length}`;
        probe.post(url, { schema: { response: { 200: json.schema } } }, async (request) => request.body);
        cases.push({ key: `${key} ${status}`, schema: json.schema, answer: json.example });
      }
    }
    await probe.ready();
    let variants = 0;
    for (const [index, { key, schema, answer }] of cases.entries()) {
      for (const [without, variant] of [['nothing', answer] as const, ...withoutEachOptionalField(schema, answer)]) {
        const reply = await probe.inject({ method: 'POST', url: `/probe/${index}`, payload: variant as object });
        assert.equal(reply.statusCode, 200, `${key} without ${without}: ${reply.body}`);
        assert.deepEqual(JSON.parse(reply.body), variant, `${key} without ${without}: serialised as it is`);
        variants += 1;
      }
    }
    assert.ok(cases.length > 50 && variants > cases.length, `${cases.length} answers, ${variants} variants`);
    await probe.close();
  });

  it('serves the docs page from this service alone', async () => {
    const page = await service.call('GET', '/api/docs');
    assert.equal(page.status, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(String(page.headers['content-security-policy']), /default-src 'self'/);
    const html = page.raw.toString('utf8');
    const references = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map(([, reference]) => reference!);
    assert.ok(references.length >= 3, 'the page loads its scripts and styles');
    for (const reference of references) {
      assert.doesNotMatch(reference, /^(\w+:)?\/\//, `${reference} is on another site`);
      assert.equal((await service.call('GET', new URL(reference, 'http://skins.test/api/docs').pathname)).status, 200, reference);
    }
  });

  describe('in three languages (contract section 14)', () => {
    const catalogue = (language: string) =>
      JSON.parse(readFileSync(new URL(`../../locales/${language}/openapi.json`, import.meta.url), 'utf8')) as OpenApiCatalogue;

    it('has the English catalogue generated from the routes, as `npm run openapi:catalogue` writes it', () => {
      // locales/en/openapi.json is never edited by hand: after changing a route's summary or description (or a merge
      // that touched the file) run `npm run openapi:catalogue`, then translate the change.
      const generated = englishCatalogueText(openApiEnglishCatalogue(service.app));
      assert.ok(
        readFileSync(ENGLISH_CATALOGUE_FILE, 'utf8') === generated,
        'locales/en/openapi.json is stale: run `npm run openapi:catalogue`',
      );
    });

    it('has the tags, access sentences and answer meanings of the generated catalogue in Russian and Chinese', () => {
      const english = openApiEnglishCatalogue(service.app);
      for (const language of ['ru', 'zh-CN']) {
        const translated = catalogue(language);
        assert.ok(translated.info.description, `${language}: info.description`);
        for (const section of ['tags', 'access', 'responses'] as const) {
          const words = translated[section] as Record<string, string>;
          for (const key of Object.keys(english[section])) assert.ok(words[key], `${language}: ${section}.${key}`);
        }
      }
    });

    it('has every operation with a summary or description translated into Russian and Chinese', () => {
      // The keys of the generated catalogue, not of the file: a route missing from a stale file still counts.
      const english = openApiEnglishCatalogue(service.app);
      for (const language of ['ru', 'zh-CN']) {
        const translated = catalogue(language);
        for (const [key, texts] of Object.entries(english.operations)) {
          for (const field of ['summary', 'description'] as const) {
            if (texts[field]) assert.ok(translated.operations[key]?.[field], `${language}: ${field} of ${key}`);
          }
        }
      }
    });

    it('has every field, parameter and header description translated into Russian and Chinese', () => {
      const english = Object.keys(openApiEnglishCatalogue(service.app).descriptions);
      assert.ok(english.length > 20, 'the document describes its fields');
      for (const language of ['ru', 'zh-CN']) {
        const translated = catalogue(language).descriptions;
        assert.deepEqual(Object.keys(translated).sort(), [...english].sort(), `${language}: the same descriptions as English`);
        for (const text of english) assert.notEqual(translated[text], '', `${language}: ${text}`);
      }
    });

    it('answers ?lang= or else Accept-Language, the docs page too; schemas and examples stay the same', async () => {
      const russian = (await service.call('GET', '/api/openapi.json?lang=ru')).body;
      assert.equal(russian.paths['/api/home'].get.summary, 'Свой профиль (форма user detail)');
      assert.match(russian.paths['/api/home'].get.description, /^Доступ: любой действительный токен/);
      assert.equal(russian.paths['/api/auth/login'].post.responses['429'].description, catalogue('ru').responses['429']);
      assert.equal(russian.tags.find((tag: { name: string }) => tag.name === 'home').description, 'Свой профиль, скины и плащи');
      // Field descriptions are translated; the schemas themselves (names, types, examples) are the API and stay.
      const withoutDescriptions = (node: unknown): unknown =>
        JSON.parse(JSON.stringify(node, (key, value) => (key === 'description' ? undefined : value)));
      assert.deepEqual(withoutDescriptions(russian.components), withoutDescriptions(document.components));
      assert.equal(
        russian.components.schemas.ErrorEnvelope.properties.msg.description,
        catalogue('ru').descriptions[
          (await service.call('GET', '/api/openapi.json')).body.components.schemas.ErrorEnvelope.properties.msg.description
        ],
      );
      assert.equal(
        russian.paths['/api/home'].patch.requestBody.content['application/json'].schema.properties.language.description,
        'язык ваших писем: en, ru или zh-CN',
      );
      assert.deepEqual(Object.keys(russian.paths), Object.keys(document.paths));

      const chinese = await service.call('GET', '/api/openapi.json', { headers: { 'accept-language': 'zh-Hans-CN, en;q=0.5' } });
      assert.equal(chinese.body.paths['/api/home/skins'].post.summary, catalogue('zh-CN').operations['POST /api/home/skins']!.summary);
      const docsJson = await service.call('GET', '/api/docs/json', { headers: { 'accept-language': 'ru' } });
      assert.equal(docsJson.body.paths['/api/home'].get.summary, 'Свой профиль (форма user detail)');
      // ?lang= wins over the header; an unknown value leaves the header to decide; no header is English.
      const english = await service.call('GET', '/api/openapi.json?lang=en', { headers: { 'accept-language': 'ru' } });
      assert.equal(english.body.paths['/api/home'].get.summary, document.paths['/api/home']!.get!.summary);
      const unknown = await service.call('GET', '/api/openapi.json?lang=fr', { headers: { 'accept-language': 'ru' } });
      assert.equal(unknown.body.paths['/api/home'].get.summary, 'Свой профиль (форма user detail)');
      assert.deepEqual((await service.call('GET', '/api/openapi.json')).body, document);
    });
  });
});
