// Contract test of the OpenAPI document against a running service.
//
//   node contract_test.mjs DOCUMENT [--write-examples] [--dump FILE] [--verbose]
//
// Environment (as scripts/quickstart): VCS_PUBLIC_URL, VCS_OPERATOR_URL,
// VCS_OPERATOR_TOKEN. The test provisions its own tenants through the
// operator API, so it runs against any service and database.
//
// It checks that
// - every operation has a unique camelCase operationId and an example of its
//   success response (the 400 of the routes that only answer 400), that
//   every media-type example of the document matches its schema, that the
//   webhook events (x-webhooks) are exactly WebhookEventType's, each with
//   its payload schema and example, and that the document reads the same as
//   YAML 1.1 (PyYAML publishes each listener's /openapi.json);
// - every operation is called and answers its success status (its example
//   status) at least once: an operation the scenario does not reach fails
//   the run; every response, error answers included, has a status
//   documented for its operation, a documented Content-Type and a body that
//   matches the documented schema. Objects that declare `properties` without
//   `additionalProperties` are closed here, so a field the service sends but
//   the document does not list fails, as does a `required` field it omits;
// - the request bodies of the calls meant to succeed match the documented
//   request schemas, the spec's fixed error messages are the ones answered,
//   each listener's /openapi.json has exactly its plane's operations with no
//   dangling reference, every webhook payload queued during the run matches
//   its event's x-webhooks schema, and the billing
//   sweep moves a request, its subscription and the client's campaign as the
//   spec's subscription rules say, and the dialer places a call (the
//   simulated provider) whose webhook deliveries are attempted.
//
// --write-examples stores, as each operation's example, the first real
// response at its example status, through the yaml Document API (comments
// and styles kept): secrets (new API keys, webhook secrets) become
// same-shaped dummies; a text response gives its first lines; /openapi.json
// gives its `openapi` and `info` members (the rest is the document itself).
// --dump FILE saves every exchange as JSON. --verbose prints every call, not
// only the failing ones.
//
// Output: a FAIL line (with the reasons) for each failing call or check, then
// one line per operation with the statuses its calls answered, and a
// summary; the exit status is 1 on any failure.
//
// ES modules resolve packages next to the script: scripts/test copies it
// into build/test/tools, where ajv and yaml are installed. Node.js 18 or later.
import { createHmac } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { isMap, isScalar, isSeq, parseDocument, Scalar, visit } from 'yaml';
import Ajv from 'ajv';

let docPath = null;
let dumpPath = null;
let writeExamplesMode = false;
let verbose = false;
let badArgs = false;
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a === '--write-examples') writeExamplesMode = true;
  else if (a === '--verbose') verbose = true;
  else if (a === '--dump') dumpPath = process.argv[++i];
  else if (!a.startsWith('--') && !docPath) docPath = a;
  else badArgs = true;
}
const publicUrl = process.env.VCS_PUBLIC_URL || 'http://127.0.0.1:8080';
const operatorUrl = process.env.VCS_OPERATOR_URL || 'http://127.0.0.1:8081';
const operatorToken = process.env.VCS_OPERATOR_TOKEN;
// The service key: provider_a callback secrets are derived from it.
const secretKey = process.env.VCS_SECRET_KEY;
if (badArgs || !docPath || (process.argv.includes('--dump') && !dumpPath) || !operatorToken) {
  console.error(
    'usage: VCS_PUBLIC_URL=… VCS_OPERATOR_URL=… VCS_OPERATOR_TOKEN=… ' +
      'node contract_test.mjs docs/openapi.yaml [--write-examples] [--dump FILE] [--verbose]',
  );
  process.exit(2);
}

const failures = [];
const fail = (line) => {
  failures.push(line);
  console.log(`FAIL ${line}`);
};

// ---------------------------------------------------------------- document

const docText = readFileSync(docPath, 'utf8');
const yamlDoc = parseDocument(docText);
if (yamlDoc.errors.length) {
  console.error(`${docPath}: ${yamlDoc.errors.map(String).join('\n')}`);
  process.exit(1);
}
const spec = yamlDoc.toJS();

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options', 'trace'];
const operations = []; // {id, method, path, op}
for (const [path, item] of Object.entries(spec.paths)) {
  for (const method of METHODS) {
    if (item[method]) operations.push({ id: item[method].operationId, method, path, op: item[method] });
  }
}
const byId = new Map(operations.map((o) => [o.id, o]));
const label = (o) => `${o.method.toUpperCase()} ${o.path}`;

function resolve(ref) {
  if (!ref.startsWith('#/')) throw new Error(`unsupported $ref ${ref}`);
  let node = spec;
  for (const part of ref.slice(2).split('/')) {
    node = node?.[part.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  if (node === undefined) throw new Error(`unresolved $ref ${ref}`);
  return node;
}
const deref = (x) => {
  while (x && x.$ref) x = resolve(x.$ref);
  return x;
};

// The success status whose example the operation documents: its first 2xx,
// or its only status for the routes that answer nothing but an error.
const exampleStatus = (op) => {
  const codes = Object.keys(op.responses);
  return codes.find((c) => c.startsWith('2')) ?? codes[0];
};

// ------------------------------------------------------------------ schemas

// A JSON Schema for ajv from an OpenAPI 3.0 schema: $refs inlined, an allOf
// of object schemas merged into one object, and every object that declares
// properties without additionalProperties closed (an allOf member is closed
// only after the merge).
function prepare(schema, seen = [], close = true) {
  if (schema === null || typeof schema !== 'object') return schema;
  if (schema.$ref) {
    if (seen.includes(schema.$ref)) throw new Error(`recursive $ref ${schema.$ref}`);
    return prepare(resolve(schema.$ref), [...seen, schema.$ref], close);
  }
  const out = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'properties') {
      out[k] = Object.fromEntries(Object.entries(v).map(([n, s]) => [n, prepare(s, seen)]));
    } else if ((k === 'items' || k === 'additionalProperties' || k === 'not') && typeof v === 'object') {
      out[k] = prepare(v, seen);
    } else if (k === 'allOf') {
      out[k] = v.map((s) => prepare(s, seen, false));
    } else if (k === 'oneOf' || k === 'anyOf') {
      out[k] = v.map((s) => prepare(s, seen));
    } else {
      out[k] = v; // keywords, examples and defaults as they are
    }
  }
  if (out.allOf && out.allOf.every((s) => s.type === 'object' || s.properties)) {
    const members = out.allOf;
    delete out.allOf;
    out.type ??= 'object';
    out.properties = { ...(out.properties ?? {}) };
    const required = new Set(out.required ?? []);
    for (const m of members) {
      Object.assign(out.properties, m.properties ?? {});
      for (const r of m.required ?? []) required.add(r);
      if (m.additionalProperties !== undefined) out.additionalProperties = m.additionalProperties;
    }
    if (required.size) out.required = [...required];
  }
  if (close && out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

const ajv = new Ajv({ strict: false, allErrors: true });
// The formats the document uses (ajv ships none).
ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i);
ajv.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
ajv.addFormat('email', /^[^\s@]+@[^\s@]+\.[^\s@]+$/);
ajv.addFormat('uri', (s) => {
  try {
    return Boolean(new URL(s));
  } catch {
    return false;
  }
});

const compiled = new Map();
function validator(schema) {
  let v = compiled.get(schema);
  if (!v) {
    v = ajv.compile(prepare(schema));
    compiled.set(schema, v);
  }
  return v;
}
function schemaErrors(schema, value) {
  let v;
  try {
    v = validator(schema);
  } catch (e) {
    return [`the schema does not compile: ${e.message}`];
  }
  if (v(value)) return [];
  return v.errors.map((e) => {
    const extra = e.params?.additionalProperty ? ` (${e.params.additionalProperty})` : '';
    return `${e.instancePath || '/'} ${e.message}${extra}`;
  });
}
const isJson = (mediaType) => mediaType === 'application/json' || mediaType.endsWith('+json');

// ------------------------------------------------------------ static checks

{
  const seenIds = new Map();
  for (const o of operations) {
    if (!o.id) fail(`${label(o)}: no operationId`);
    else if (!/^[a-z][a-zA-Z0-9]*$/.test(o.id)) fail(`${label(o)}: operationId ${o.id} is not camelCase`);
    else if (seenIds.has(o.id)) fail(`${label(o)}: operationId ${o.id} also names ${seenIds.get(o.id)}`);
    else seenIds.set(o.id, label(o));
    const status = exampleStatus(o.op);
    const response = deref(o.op.responses[status]);
    for (const [mediaType, media] of Object.entries(response?.content ?? {})) {
      if (media.example === undefined) fail(`${label(o)}: no example for ${status} ${mediaType}`);
    }
  }

  // Every media-type example (requests, responses, shared responses) against
  // its schema, closed as above.
  let count = 0;
  const checked = new Set();
  const checkContent = (where, content) => {
    for (const [mediaType, media] of Object.entries(content ?? {})) {
      if (checked.has(media)) continue;
      checked.add(media);
      if (media.examples) fail(`${where} ${mediaType}: use example, not examples`);
      if (media.example === undefined || !media.schema) continue;
      count++;
      for (const e of schemaErrors(media.schema, media.example)) fail(`${where} ${mediaType} example: ${e}`);
    }
  };
  for (const o of operations) {
    checkContent(`${label(o)} request`, deref(o.op.requestBody)?.content);
    for (const [status, r] of Object.entries(o.op.responses)) {
      checkContent(`${label(o)} ${status}`, deref(r)?.content);
    }
  }
  for (const [name, r] of Object.entries(spec.components?.responses ?? {})) {
    checkContent(`components.responses.${name}`, r.content);
  }
  // The webhook events (x-webhooks, OpenAPI 3.1's `webhooks` for a 3.0
  // document, which Redoc renders): exactly the event types the service
  // sends, each with its payload's schema and an example of it.
  const eventTypes = resolve('#/components/schemas/WebhookEventType').enum;
  const documented = Object.keys(spec['x-webhooks'] ?? {});
  if (documented.sort().join() !== [...eventTypes].sort().join())
    fail(`x-webhooks names ${documented.join(', ')}; WebhookEventType has ${eventTypes.join(', ')}`);
  for (const [type, item] of Object.entries(spec['x-webhooks'] ?? {})) {
    const media = item.post?.requestBody?.content?.['application/json'];
    if (!media?.schema || media.example === undefined) fail(`x-webhooks ${type}: no payload schema and example`);
    else if (media.example.type !== type) fail(`x-webhooks ${type}: its example is a ${media.example.type}`);
    checkContent(`x-webhooks ${type}`, item.post?.requestBody?.content);
  }
  console.log(`document: ${operations.length} operations, ${count} examples checked against their schemas`);

  // The build turns the document into /openapi.json with PyYAML, a YAML 1.1
  // reader: an unquoted yes, 09:30 or 2026-01-01 would change type there.
  const differences = [];
  const compare = (a, b, where) => {
    if (differences.length >= 10) return;
    if (a && b && typeof a === 'object' && typeof b === 'object' && !(b instanceof Date)) {
      for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) compare(a[k], b[k], `${where}/${k}`);
    } else if (a !== b) {
      differences.push(`${where}: ${JSON.stringify(a)} reads as ${JSON.stringify(b)} in YAML 1.1; quote it`);
    }
  };
  compare(spec, parseDocument(docText, { version: '1.1' }).toJS(), '#');
  for (const d of differences) fail(d);
}

// --------------------------------------------------------------------- HTTP

const exercised = new Set(); // operationIds a call answered with their example status
const answered = new Map(); // operationId -> statuses its calls answered
const failed = new Set(); // operationIds with a failing call
const recorded = new Map(); // operationId -> first response at its example status
const dump = [];
let requests = 0;
const state = {}; // ids and keys the scenario carries along

// Calls an operation by its operationId and checks the answer against the
// document. Options: params (path), query, body, auth (undefined: what the
// operation's security asks for; null: none; a string: that bearer token),
// method (a probe with another method, checked against this operation's
// responses), headers (extra request headers), listener ('public' or 'operator'), expect (status), message
// (the error message the spec fixes), noExample (not the example), note,
// stream (an event stream: what it sends within 1.5 s is its body).
async function call(id, opts = {}) {
  const o = byId.get(id);
  if (!o) throw new Error(`no operation ${id} in the document`);
  const method = (opts.method ?? o.method).toUpperCase();
  // x-listener names the listener serving the operation; `both`: the public.
  const listener = opts.listener ?? (o.op['x-listener'] === 'operator' ? 'operator' : 'public');
  const security = o.op.security ?? spec.security ?? [];
  let token = null;
  if (opts.auth !== undefined) token = opts.auth;
  else if (security.some((s) => 'operatorToken' in s)) token = operatorToken;
  else if (security.some((s) => 'apiKey' in s)) token = state.key;
  const path = o.path.replace(/\{(\w+)\}/g, (_, name) => {
    if (opts.params?.[name] === undefined) throw new Error(`${id}: no value for {${name}}`);
    return encodeURIComponent(opts.params[name]);
  });
  const query = opts.query ? `?${new URLSearchParams(opts.query)}` : '';
  const url = `${listener === 'operator' ? operatorUrl : publicUrl}${path}${query}`;
  const headers = { ...opts.headers };
  if (token) headers.Authorization = `Bearer ${token}`;
  let body;
  if (opts.body !== undefined) {
    headers['Content-Type'] ??= 'application/json';
    body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
  }

  const problems = [];
  // A request meant to succeed must itself follow the document.
  const requestSchema = deref(o.op.requestBody)?.content?.['application/json']?.schema;
  if (
    opts.expect?.toString().startsWith('2') &&
    method === o.method.toUpperCase() &&
    requestSchema &&
    opts.body !== undefined &&
    typeof opts.body !== 'string'
  ) {
    for (const e of schemaErrors(requestSchema, opts.body)) problems.push(`request body: ${e}`);
  }

  requests++;
  const res = await fetch(url, { method, headers, body });
  // A stream stays open: what it sent within a second and a half.
  const text = opts.stream && res.ok ? await readFor(res, 1500) : await res.text();
  const status = res.status;
  const contentType = res.headers.get('content-type') ?? '';
  const mediaType = contentType.split(';')[0].trim().toLowerCase();
  let json;
  if (isJson(mediaType)) {
    try {
      json = JSON.parse(text);
    } catch {
      problems.push('the body is not JSON');
    }
  }

  const response = deref(o.op.responses[String(status)]);
  if (!response) {
    problems.push(`status ${status} is not documented (${Object.keys(o.op.responses).join(', ')})`);
  } else if (!response.content) {
    if (text.length) problems.push('a body where the document has none');
  } else {
    const media = response.content[mediaType];
    if (!media) {
      problems.push(
        `Content-Type ${contentType || '(none)'} is not documented (${Object.keys(response.content).join(', ')})`,
      );
    } else if (media.schema && (json !== undefined || !isJson(mediaType))) {
      for (const e of schemaErrors(media.schema, isJson(mediaType) ? json : text)) problems.push(e);
    }
  }
  if (opts.expect !== undefined && status !== opts.expect) problems.push(`expected ${opts.expect}`);
  if (opts.message !== undefined && json?.message !== opts.message) {
    problems.push(`expected the message ${JSON.stringify(opts.message)}`);
  }

  const sameMethod = method === o.method.toUpperCase();
  if (sameMethod && String(status) === exampleStatus(o.op)) exercised.add(id);
  if (!answered.has(id)) answered.set(id, new Set());
  answered.get(id).add(String(status));
  if (problems.length) failed.add(id);
  if (
    sameMethod &&
    problems.length === 0 &&
    String(status) === exampleStatus(o.op) &&
    !recorded.has(id) &&
    !opts.noExample
  ) {
    recorded.set(id, { status: String(status), mediaType, text, json });
  }
  dump.push({ operationId: id, method, url, status, contentType, body: json ?? text.slice(0, 2000) });
  const line = `${method} ${o.path} ${status} (${id}${opts.note ? `: ${opts.note}` : ''})`;
  if (problems.length) {
    fail(line);
    for (const p of problems) {
      failures.push(`  ${p}`);
      console.log(`       ${p}`);
    }
    if (json !== undefined) console.log(`       body: ${JSON.stringify(scrub(json)).slice(0, 600)}`);
  } else if (verbose) {
    console.log(`ok   ${line}`);
  }
  return { status, json, text, headers: res.headers };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function readFor(res, ms) {
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const stop = Date.now() + ms;
  let out = '';
  try {
    for (;;) {
      const left = stop - Date.now();
      const chunk = left > 0 ? await Promise.race([reader.read(), sleep(left).then(() => null)]) : null;
      if (!chunk || chunk.done) break;
      out += decoder.decode(chunk.value, { stream: true });
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  return out;
}
const expectEqual = (what, actual, expected) => {
  if (actual !== expected) fail(`${what}: ${actual}, expected ${expected}`);
  else if (verbose) console.log(`ok   ${what}: ${actual}`);
};

// ----------------------------------------------------------------- scenario

async function scenario() {
  // Nothing to provision.
  await call('getHealth', { expect: 200, listener: 'public' });
  await call('getHealth', { expect: 200, listener: 'operator', note: 'operator listener' });
  await call('getLiveness', { expect: 200, listener: 'public' });
  await call('getLiveness', { expect: 200, listener: 'operator', note: 'operator listener' });
  await call('getReadiness', { expect: 200, listener: 'public' });
  await call('getReadiness', { expect: 200, listener: 'operator', note: 'operator listener' });
  // Each listener serves its own part of the document, built into the
  // binary: the public listener the public operations and the webhook
  // events, the operator listener the operator operations; both the docs.
  const ops = (d, listeners) =>
    Object.entries(d?.paths ?? {})
      .flatMap(([path, item]) =>
        METHODS.filter((m) => item[m] && (!listeners || listeners.includes(item[m]['x-listener']))).map(
          (m) => `${m} ${path}`,
        ),
      )
      .sort()
      .join('\n');
  for (const [listener, listeners] of [
    ['public', ['public', 'both']],
    ['operator', ['operator', 'both']],
  ]) {
    const served = (
      await call('getOpenApiDocument', { expect: 200, listener, ...(listener === 'operator' ? { note: 'operator listener' } : {}) })
    ).json;
    if (ops(served) !== ops(spec, listeners))
      fail(`GET /openapi.json (${listener}): the served operations are not ${docPath}'s x-listener ${listeners.join(', ')} ones`);
    const webhooks = Object.keys(served?.['x-webhooks'] ?? {}).length;
    if ((listener === 'public') !== (webhooks > 0)) fail(`GET /openapi.json (${listener}): ${webhooks} webhook events`);
    const dangling = JSON.stringify(served).match(/"#\/components\/[^"]+"/g)?.filter((ref) => {
      const [, kind, name] = ref.slice(1, -1).split('/').slice(1);
      return !served.components?.[kind]?.[name];
    });
    if (dangling?.length) fail(`GET /openapi.json (${listener}): unresolved ${[...new Set(dangling)].join(', ')}`);
    // Operations are tagged by resource; the document lists exactly the tags
    // its operations use, and x-listener stays in the source.
    const used = new Set(
      [...Object.values(served?.paths ?? {}), ...Object.values(served?.['x-webhooks'] ?? {})].flatMap((item) =>
        METHODS.flatMap((m) => item[m]?.tags ?? []),
      ),
    );
    const listed = (served?.tags ?? []).map((t) => t.name);
    if ([...used].sort().join() !== [...listed].sort().join())
      fail(`GET /openapi.json (${listener}): tags listed ${listed.join(', ')}; used ${[...used].join(', ')}`);
    if (JSON.stringify(served).includes('"x-listener"')) fail(`GET /openapi.json (${listener}): x-listener published`);
    await call('getApiReferencePage', { expect: 200, listener, ...(listener === 'operator' ? { note: 'operator listener' } : {}) });
    await call('getApiReferenceScript', { expect: 200, listener, ...(listener === 'operator' ? { note: 'operator listener' } : {}) });
  }

  // The tenant console's page (every path under /console) and its assets.
  await call('getConsole', { expect: 200 });
  await call('getConsolePage', { params: { page: 'sign-in' }, expect: 200 });
  await call('getConsoleCampaignPage', { params: { campaign_id: 'Vm9pY2VDYW1wYWlnbjox' }, expect: 200 });
  await call('getConsoleScript', { expect: 200 });
  await call('getConsoleStyle', { expect: 200 });
  // The client portal's page (every path under /portal) and its assets.
  await call('getPortal', { expect: 200 });
  await call('getPortalPage', { params: { page: 'sign-in' }, expect: 200 });
  await call('getPortalCampaignPage', { params: { campaign_id: 'Vm9pY2VDYW1wYWlnbjox' }, expect: 200 });
  await call('getPortalScript', { expect: 200 });
  await call('getPortalStyle', { expect: 200 });

  // Tenants and keys (operator API).
  const tenant = (
    await call('createTenant', {
      body: { name: 'Contract test', plan: 'PRO' },
      expect: 201,
    })
  ).json;
  state.tenantId = tenant.tenant_id;
  state.key = tenant.api_key.key;
  await call('createTenant', {
    body: { name: 'x', plan: 'PRO' },
    auth: null,
    expect: 401,
    note: 'no operator token',
  });
  await call('createTenant', { body: { name: 'x', plan: 'GOLD' }, expect: 400, note: 'unknown plan' });
  await call('createTenant', { body: '{"name":', expect: 400, note: 'malformed JSON' });
  await call('getTenant', { params: { tenant_id: state.tenantId }, expect: 200 });
  await call('getTenant', { params: { tenant_id: '999999999' }, expect: 404, note: 'unknown id' });
  {
    const page = (await call('listTenants', { query: { limit: 1 }, expect: 200 })).json;
    await call('listTenants', { query: { after: page.next_after, active: 'true' }, expect: 200 });
    await call('listTenants', { query: { active: 'maybe' }, expect: 400, note: 'not a boolean' });
  }
  await call('updateTenant', {
    params: { tenant_id: state.tenantId },
    body: { name: 'Contract test (renamed)', campaign_limit: 25 },
    expect: 200,
  });
  await call('updateTenant', {
    params: { tenant_id: state.tenantId },
    body: { plan: 'GOLD' },
    expect: 400,
    note: 'unknown plan',
  });
  const dialerKey = (
    await call('createApiKey', {
      params: { tenant_id: state.tenantId },
      body: { name: 'dialer' },
      expect: 201,
    })
  ).json;
  await call('createApiKey', {
    params: { tenant_id: state.tenantId },
    body: {},
    expect: 400,
    note: 'no name',
  });
  await call('listApiKeys', { params: { tenant_id: state.tenantId }, expect: 200 });
  await call('listApiKeys', { params: { tenant_id: '999999999' }, expect: 404, note: 'unknown tenant' });
  await call('updateApiKey', { params: { key_id: dialerKey.id }, body: { status: 'Disabled' }, expect: 200 });
  await call('updateApiKey', {
    params: { key_id: dialerKey.id },
    body: { status: 'Gone' },
    expect: 400,
    note: 'unknown status',
  });
  await call('listClients', {
    auth: dialerKey.key,
    expect: 401,
    note: 'disabled key',
    message: 'API key is disabled',
  });
  await call('deleteApiKey', { params: { key_id: dialerKey.id }, expect: 200 });
  await call('deleteApiKey', { params: { key_id: dialerKey.id }, expect: 404, note: 'already deleted' });
  await call('listClients', { auth: dialerKey.key, expect: 401, note: 'deleted key' });

  // The billing catalog and a form (operator API).
  const product = {
    product_id: 'prod_contract',
    name: 'Contract pack',
    pricing_model: 'flat_plus_usage',
    min_minutes_included: 500,
    additional_minute_price: '0.0125',
    trial_days: 0,
    prices: [
      {
        price_id: 'price_contract_m',
        billing_type: 'recurring',
        usage_type: 'licensed',
        unit_amount: '49.00',
        currency: 'USD',
        interval: 'month',
      },
    ],
  };
  await call('createProduct', { params: { tenant_id: state.tenantId }, body: product, expect: 201 });
  await call('createProduct', {
    params: { tenant_id: state.tenantId },
    body: product,
    expect: 409,
    note: 'same product_id',
  });
  await call('createProduct', {
    params: { tenant_id: state.tenantId },
    body: { name: 'x' },
    expect: 400,
    note: 'missing fields',
  });
  const form = (
    await call('createClientForm', {
      params: { tenant_id: state.tenantId },
      body: { title: 'Intake' },
      expect: 201,
    })
  ).json;
  const emptyForm = (
    await call('createClientForm', {
      params: { tenant_id: state.tenantId },
      body: { title: 'Feedback' },
      expect: 201,
    })
  ).json;
  await call('createClientForm', {
    params: { tenant_id: state.tenantId },
    body: {},
    expect: 400,
    note: 'no title',
  });

  // Authentication.
  await call('listClients', {
    auth: null,
    expect: 401,
    note: 'no Authorization header',
    message: 'Authorization header not found',
  });
  await call('listClients', { auth: `vcs_${'0'.repeat(48)}`, expect: 401, note: 'unknown key' });
  await call('listClients', { method: 'POST', body: {}, expect: 405, note: 'wrong method' });

  // A voice provider configuration and campaigns.
  const provider = (
    await call('createVoiceProvider', {
      body: {
        voice_provider: 'provider_b',
        provider_b_api_key: 'sk_contract_test',
        provider_b_organization_name: 'Contract',
        concurrency_limit: 5,
      },
      expect: 201,
    })
  ).json.data;
  await call('createVoiceProvider', {
    body: { voice_provider: 'provider_b' },
    expect: 400,
    note: 'no api key',
    message: 'Validation error',
  });
  // Its management: list, read (masked), update, delete.
  const providerRef = { voice_provider_id: provider.voice_provider_id };
  const unknownProvider = { voice_provider_id: Buffer.from('TenantVoiceProvider:999999999').toString('base64') };
  await call('listVoiceProviders', { expect: 200 });
  await call('listVoiceProviders', {
    query: { page_size: 101 },
    expect: 400,
    note: 'page_size 101',
    message: "Invalid page_size: '101'. Must be an integer from 1 to 100",
  });
  const readProvider = await call('getVoiceProvider', { params: providerRef, expect: 200 });
  expectEqual('the API key masked', readProvider.json?.data?.credentials?.provider_b_api_key, '****test');
  await call('getVoiceProvider', {
    params: unknownProvider,
    expect: 404,
    note: 'unknown id',
    message: 'Tenant voice provider not found',
  });
  const check = await call('verifyVoiceProvider', { params: providerRef, expect: 200 });
  expectEqual('a simulated check', check.json?.data?.simulated, true);
  await call('verifyVoiceProvider', {
    params: unknownProvider,
    expect: 404,
    note: 'unknown id',
    message: 'Tenant voice provider not found',
  });
  await call('listProviderAssistants', { params: providerRef, expect: 200 });
  await call('listProviderAssistants', {
    params: unknownProvider,
    expect: 404,
    note: 'unknown id',
    message: 'Tenant voice provider not found',
  });
  await call('listProviderPhoneNumbers', { params: providerRef, expect: 200 });
  const spareProvider = (
    await call('createVoiceProvider', {
      body: { voice_provider: 'provider_d', provider_d_api_key: 'org_contract_spare' },
      expect: 201,
      noExample: true,
      note: 'one to rotate and delete',
    })
  ).json.data;
  const spareRef = { voice_provider_id: spareProvider.voice_provider_id };
  const rotatedProvider = await call('updateVoiceProvider', {
    params: spareRef,
    body: { provider_d_api_key: 'org_contract_rotated_0001', concurrency_limit: 4 },
    expect: 200,
  });
  expectEqual('the rotated key masked', rotatedProvider.json?.data?.credentials?.provider_d_api_key, '****0001');
  await call('updateVoiceProvider', {
    params: spareRef,
    body: { provider_d_api_key: null },
    expect: 400,
    note: 'a required credential removed',
    message: 'Validation error',
  });
  await call('updateVoiceProvider', {
    params: unknownProvider,
    body: { concurrency_limit: 2 },
    expect: 404,
    note: 'unknown id',
    message: 'Tenant voice provider not found',
  });
  await call('deleteVoiceProvider', { params: spareRef, expect: 200 });
  await call('deleteVoiceProvider', {
    params: unknownProvider,
    expect: 404,
    note: 'unknown id',
    message: 'Tenant voice provider not found',
  });
  const campaign = (
    await call('createCampaign', {
      body: {
        name: 'Spring outreach',
        type: 'OUTBOUND',
        tenant_voice_provider_id: provider.voice_provider_id,
        timezone: 'America/New_York',
        days_of_week: ['MONDAY', 'WEDNESDAY', 'FRIDAY'],
        daily_start_time: '09:00',
        daily_end_time: '17:30',
        max_call_attempts: 5,
        max_daily_attempts: 2,
        min_gap_between_attempts: 60,
      },
      expect: 201,
    })
  ).json.data;
  state.campaignId = campaign.campaign_id;
  const cp = { campaign_id: state.campaignId };
  // Idempotency-Key: the repeat replays the first response; the key with
  // another body is 422.
  const idem = { 'Idempotency-Key': `contract-${Date.now()}` };
  const first = await call('createCampaign', {
    body: { name: 'Retried' },
    headers: idem,
    expect: 201,
    noExample: true,
    note: 'Idempotency-Key',
  });
  const replay = await call('createCampaign', {
    body: { name: 'Retried' },
    headers: idem,
    expect: 201,
    noExample: true,
    note: 'Idempotency-Key repeated',
  });
  expectEqual('Idempotency-Key replay body', replay.text, first.text);
  await call('createCampaign', {
    body: { name: 'Retried with another body' },
    headers: idem,
    expect: 422,
    message: 'Idempotency-Key was already used with a different request',
    note: 'Idempotency-Key reused',
  });
  await call('createCampaign', {
    body: { type: 'OUTBOUND' },
    expect: 400,
    note: 'no name',
    message: 'Invalid data',
  });
  await call('createCampaign', {
    body: { name: 'x', tenant_voice_provider_id: 'VGVuYW50Vm9pY2VQcm92aWRlcjo5OTk5OTk5OTk=' },
    expect: 404,
    note: 'unknown voice provider',
    message: 'Tenant voice provider not found',
  });
  await call('getCampaign', { params: cp, expect: 200 });
  await call('getCampaign', {
    params: { campaign_id: '999999999' },
    expect: 404,
    note: 'unknown id',
    message: 'Campaign not found',
  });
  await call('updateCampaign', {
    params: cp,
    body: { name: 'Spring outreach (renamed)', max_call_attempts: 7, lead_local_time: true },
    expect: 200,
  });
  await call('updateCampaign', {
    params: cp,
    body: { type: 'INBOUND' },
    expect: 400,
    note: 'type is immutable',
  });
  await call('updateCampaignStatus', { params: cp, body: { status: 'SCHEDULED' }, expect: 200 });
  await call('updateCampaignStatus', {
    params: cp,
    body: { status: 'RUNNING' },
    expect: 400,
    note: 'unknown status',
  });
  await call('listCampaigns', { expect: 200 });
  const scheduled = await call('listCampaigns', {
    query: { status: 'SCHEDULED', type: 'OUTBOUND', page: 1, page_size: 10 },
    expect: 200,
    noExample: true,
    note: 'filtered',
  });
  expectEqual('the SCHEDULED campaigns', scheduled.json?.data?.map((c) => c.id).join(' '), state.campaignId);
  await call('listCampaigns', {
    query: { status: 'RUNNING' },
    expect: 400,
    note: 'unknown status',
    message: "Invalid status: 'RUNNING'. Valid values are: DRAFT, SCHEDULED, ACTIVE, PAUSED, ENDED",
  });
  // No leads yet, so no calls.
  await call('listCampaignCalls', { params: cp, expect: 200, noExample: true, note: 'no calls yet' });
  await call('listCampaignCalls', {
    params: cp,
    query: { outcome: 'hangup' },
    expect: 400,
    note: 'unknown outcome',
    message: "Invalid outcome: 'hangup'. Valid values are: human, voicemail, no_answer, busy, failed, invalid_number",
  });

  // Leads.
  await call('addLead', {
    params: cp,
    body: {
      phone_number: '+14155550101',
      first_name: 'Ada',
      email: 'ada@example.com',
      custom_fields: { plan: 'gold' },
    },
    expect: 201,
  });
  await call('addLead', {
    params: cp,
    body: { phone_number: '+14155550101' },
    expect: 409,
    note: 'same phone number',
  });
  await call('addLead', {
    params: cp,
    body: { first_name: 'x' },
    expect: 400,
    note: 'no phone number',
    message: 'Invalid data',
  });
  await call('addLead', {
    params: { campaign_id: '999999999' },
    body: { phone_number: '+14155550101' },
    expect: 404,
    note: 'unknown campaign',
    message: 'Campaign not found',
  });
  const bulk = (
    await call('bulkAddLeads', {
      params: cp,
      body: [
        { phone_number: '+14155550102', first_name: 'Grace' },
        { phone_number: '+14155550103', first_name: 'Linus' },
        { phone_number: '+14155550104', last_name: 'Hopper' },
        { phone_number: 'not a number' },
      ],
      expect: 200,
      note: 'one invalid item',
    })
  ).json;
  await call('bulkAddLeads', { params: cp, body: [], expect: 400, note: 'empty list' });
  let imported;
  for (let i = 0; i < 100; i++) {
    imported = await call('getLeadImport', {
      params: { ...cp, import_id: bulk.import_id },
      expect: 200,
      noExample: true,
      note: 'until done',
    });
    if (imported.json?.status === 'done' || imported.json?.status === 'failed') break;
    await sleep(100);
  }
  if (imported.json?.status !== 'done') fail(`the bulk import did not finish: ${imported.text}`);
  await call('getLeadImport', { params: { ...cp, import_id: bulk.import_id }, expect: 200, note: 'done' });
  await call('getLeadImport', {
    params: { ...cp, import_id: 'TGVhZEltcG9ydDo5OTk5OTk5OTk=' },
    expect: 404,
    note: 'unknown import',
  });
  await call('listImportRejectedRows', {
    params: { ...cp, import_id: bulk.import_id },
    expect: 200,
    note: 'the invalid item',
  });
  await call('listImportRejectedRows', {
    params: { ...cp, import_id: bulk.import_id },
    query: { reason: 'other' },
    expect: 400,
    note: 'unknown reason',
  });
  await call('listImportRejectedRows', {
    params: { ...cp, import_id: 'TGVhZEltcG9ydDo5OTk5OTk5OTk=' },
    expect: 404,
    note: 'unknown import',
    message: 'Import not found',
  });
  const csv = (
    await call('bulkAddLeads', {
      params: cp,
      headers: { 'Content-Type': 'text/csv' },
      body: 'phone_number,first_name,custom_fields.crm_id\r\n+14155550105,Ada,A-1\r\n+14155550102,Again,\r\n',
      expect: 200,
      noExample: true,
      note: 'CSV, one number already in the campaign',
    })
  ).json;
  await call('bulkAddLeads', {
    params: cp,
    headers: { 'Content-Type': 'text/csv' },
    body: 'phone,first_name\r\n+14155550106,Bo\r\n',
    expect: 400,
    note: 'CSV with an unknown column',
    message: 'Invalid CSV',
  });
  await call('listLeadImports', { params: cp, expect: 200 });
  await call('listClusterImports', { query: { tenant_id: state.tenantId, limit: 5 }, expect: 200 });
  await call('listClusterImports', { query: { status: 'finished' }, expect: 400, note: 'unknown status' });
  await call('listClusterImports', { query: { tenant_id: '999999999' }, expect: 404, note: 'unknown tenant' });
  await call('listLeadImports', { params: cp, query: { status: 'finished' }, expect: 400, note: 'unknown status' });
  await call('listLeadImports', {
    params: { campaign_id: 'Vm9pY2VDYW1wYWlnbjo5OTk5OTk5' },
    expect: 404,
    note: 'unknown campaign',
    message: 'Campaign not found',
  });
  if (!csv?.import_id) fail('the CSV bulk add answered no import');
  const leads = (await call('listLeads', { params: cp, query: { limit: 2 }, expect: 200 })).json;
  await call('listLeads', { params: cp, query: { limit: 0 }, expect: 400, note: 'limit 0' });
  const leadCsv = await call('exportLeads', { params: cp, expect: 200, note: 'the leads as CSV' });
  if (!leadCsv.text.startsWith('id,phone_number,first_name,')) fail(`the leads export has no header row: ${leadCsv.text.slice(0, 200)}`);
  await call('bulkUpdateLeads', {
    params: cp,
    body: [
      { phone_number: '+14155550102', custom_fields: { tier: 2 }, do_not_call: true },
      { phone_number: '+14155559999', first_name: 'Nobody' },
    ],
    expect: 200,
  });
  await call('bulkUpdateLeads', { params: cp, body: {}, expect: 400, note: 'not a list' });
  const byPhone = Object.fromEntries(leads.leads.map((l) => [l.phone_number, l.id]));
  await call('bulkRemoveLeads', {
    params: cp,
    body: [{ phone_number: '+14155550103' }, { campaign_lead_id: byPhone['+14155550104'] }],
    expect: 200,
  });
  await call('bulkRemoveLeads', { params: cp, body: [], expect: 400, note: 'empty list' });
  await call('updateLeadV1', {
    params: cp,
    body: { tenant_id: state.tenantId, phone_number: '+14155550101', first_name: 'Ann' },
    expect: 200,
  });
  await call('updateLeadV1', {
    params: cp,
    body: { tenant_id: state.tenantId, phone_number: '+14155559999', first_name: 'x' },
    expect: 404,
    note: 'unknown lead',
    message: 'Lead not found',
  });
  await call('updateLeadV1', {
    params: cp,
    body: { tenant_id: 'VGVuYW50Ojk5OTk5OTk5OQ==', phone_number: '+14155550101' },
    expect: 403,
    note: 'another tenant_id',
  });
  await call('removeLeadV1', {
    params: cp,
    body: { tenant_id: state.tenantId, phone_number: '+14155550102' },
    expect: 200,
  });
  await call('removeLeadV1', {
    params: cp,
    body: { tenant_id: state.tenantId },
    expect: 400,
    note: 'no lead given',
  });
  await call('removeLeadV1', {
    params: cp,
    body: { tenant_id: state.tenantId, phone_number: '+14155550102' },
    expect: 404,
    note: 'already removed',
    message: 'Lead not found with the given phone number or campaign lead id',
  });
  await call('removeLeadV1', {
    params: cp,
    method: 'GET',
    expect: 405,
    note: 'wrong method',
    message: 'Invalid request method',
  });

  // The tenant's do-not-call list.
  const dnc = '+14155550123';
  await call('addDoNotCallNumber', { body: { phone_number: dnc }, expect: 201 });
  await call('addDoNotCallNumber', { body: { phone_number: dnc }, expect: 200, note: 'already listed' });
  await call('addDoNotCallNumber', {
    body: { phone_number: '4155550123' },
    expect: 400,
    note: 'not E.164',
    message: 'Invalid data',
  });
  await call('addDoNotCallNumber', {
    body: {},
    expect: 400,
    note: 'no phone number',
    message: 'Invalid data',
  });
  const dncIdem = { 'Idempotency-Key': `contract-dnc-${Date.now()}` };
  await call('addDoNotCallNumber', {
    body: { phone_number: '+14155550124' },
    headers: dncIdem,
    expect: 201,
    noExample: true,
    note: 'Idempotency-Key',
  });
  await call('addDoNotCallNumber', {
    body: { phone_number: '+14155550125' },
    headers: dncIdem,
    expect: 422,
    note: 'Idempotency-Key reused',
    message: 'Idempotency-Key was already used with a different request',
  });
  await call('getDoNotCallNumber', { params: { phone_number: dnc }, expect: 200 });
  // provider_a callbacks: the derived secret is required; a message about no
  // call of the configuration is acknowledged without effect.
  const callback = { message: { type: 'status-update', status: 'ringing', call: { id: 'pa-unknown' } } };
  await call('providerACallback', {
    params: { voice_provider_id: '1' },
    body: callback,
    headers: { 'X-Vapi-Secret': 'wrong' },
    expect: 401,
    note: 'wrong secret',
    message: 'Invalid provider secret',
  });
  if (secretKey) {
    const applied = await call('providerACallback', {
      params: { voice_provider_id: '1' },
      body: callback,
      headers: {
        'X-Vapi-Secret': createHmac('sha256', secretKey).update('provider_a_callback:1').digest('hex'),
      },
      expect: 200,
    });
    expectEqual('a callback about no known call', applied.json?.applied, false);
  }
  // provider_b events: signed with the configuration's API key over the body
  // and the time in milliseconds; an event about no call of it is
  // acknowledged without effect.
  const providerBId = Buffer.from(provider.voice_provider_id, 'base64').toString().split(':')[1];
  const event = { event: 'call_started', call: { call_id: 'rb-unknown' } };
  const signedB = (key, at) => {
    const digest = createHmac('sha256', key).update(JSON.stringify(event) + at).digest('hex');
    return { 'X-Retell-Signature': `v=${at},d=${digest}` };
  };
  await call('providerBCallback', {
    params: { voice_provider_id: providerBId },
    body: event,
    headers: signedB('sk_wrong', Date.now()),
    expect: 401,
    note: 'wrong signature',
    message: 'Invalid provider signature',
  });
  const appliedB = await call('providerBCallback', {
    params: { voice_provider_id: providerBId },
    body: event,
    headers: signedB('sk_contract_test', Date.now()),
    expect: 200,
  });
  expectEqual('an event about no known call', appliedB.json?.applied, false);
  // provider_c webhooks: signed with the configuration's webhook secret over
  // "<seconds>.<body>"; the path names the configuration's public id.
  const providerC = (
    await call('createVoiceProvider', {
      body: {
        voice_provider: 'provider_c',
        provider_c_api_key: 'sk_contract_c',
        provider_c_webhook_id: 'wh_contract',
        provider_c_webhook_secret_key: 'wsec_contract',
      },
      expect: 201,
      noExample: true,
      note: 'provider_c',
    })
  ).json.data;
  const webhookC = { type: 'call_initiation_failure', data: { conversation_id: 'conv-unknown', failure_reason: 'busy' } };
  const signedC = (secret, at) => {
    const digest = createHmac('sha256', secret).update(`${at}.${JSON.stringify(webhookC)}`).digest('hex');
    return { 'ElevenLabs-Signature': `t=${at},v0=${digest}` };
  };
  const nowSeconds = () => Math.floor(Date.now() / 1000);
  await call('providerCCallback', {
    params: { voice_provider_id: providerC.voice_provider_id },
    body: webhookC,
    headers: signedC('wsec_wrong', nowSeconds()),
    expect: 401,
    note: 'wrong signature',
    message: 'Invalid provider signature',
  });
  const appliedC = await call('providerCCallback', {
    params: { voice_provider_id: providerC.voice_provider_id },
    body: webhookC,
    headers: signedC('wsec_contract', nowSeconds()),
    expect: 200,
  });
  expectEqual('a webhook about no known call', appliedC.json?.applied, false);
  // provider_d webhooks: the URL carries the configuration's derived secret.
  await call('providerDCallback', {
    params: { voice_provider_id: '1', secret: '0'.repeat(64) },
    body: { call_id: 'bd-unknown', queue_status: 'complete' },
    expect: 401,
    note: 'wrong secret',
    message: 'Invalid provider secret',
  });
  if (secretKey) {
    const appliedD = await call('providerDCallback', {
      params: {
        voice_provider_id: '1',
        secret: createHmac('sha256', secretKey).update('provider_d_callback:1').digest('hex'),
      },
      body: { call_id: 'bd-unknown', queue_status: 'complete' },
      expect: 200,
    });
    expectEqual('a call object about no known call', appliedD.json?.applied, false);
  }
  const unlisted = await call('getDoNotCallNumber', {
    params: { phone_number: '+14155550199' },
    expect: 200,
    noExample: true,
    note: 'not listed',
  });
  expectEqual('do_not_call of a number not listed', unlisted.json?.data?.do_not_call, false);
  await call('getDoNotCallNumber', {
    params: { phone_number: 'x' },
    expect: 400,
    note: 'not E.164',
    message: 'Invalid data',
  });
  await call('removeDoNotCallNumber', { params: { phone_number: dnc }, expect: 200 });
  await call('removeDoNotCallNumber', {
    params: { phone_number: dnc },
    expect: 404,
    note: 'not listed',
    message: 'Number not on the do-not-call list',
  });
  await call('removeDoNotCallNumber', {
    params: { phone_number: 'x' },
    expect: 400,
    note: 'not E.164',
    message: 'Invalid data',
  });
  await call('removeDoNotCallNumber', {
    params: { phone_number: '+14155550124' },
    headers: dncIdem,
    expect: 422,
    note: 'Idempotency-Key reused',
    message: 'Idempotency-Key was already used with a different request',
  });

  // An inbound campaign and its web widget.
  const inbound = (
    await call('createCampaign', {
      body: { name: 'Support line', type: 'INBOUND' },
      expect: 201,
      note: 'INBOUND',
    })
  ).json.data;
  const widget = {
    voice_campaign_id: inbound.campaign_id,
    voice_assistant_id: 'asst_contract',
    config: { theme: 'dark', title: 'Talk to Acme' },
  };
  await call('createWebWidget', { body: widget, expect: 201 });
  await call('createWebWidget', { body: widget, expect: 409, note: 'second widget' });
  await call('createWebWidget', {
    body: { ...widget, voice_campaign_id: 'Vm9pY2VDYW1wYWlnbjo5OTk5OTk5OTk=' },
    expect: 404,
    note: 'unknown campaign',
  });
  await call('createWebWidget', { body: { config: {} }, expect: 400, note: 'no campaign' });
  await call('updateCampaignStatus', {
    params: { campaign_id: inbound.campaign_id },
    body: { status: 'ENDED' },
    expect: 200,
    note: 'ENDED',
  });
  await call('updateCampaignStatus', {
    params: { campaign_id: inbound.campaign_id },
    body: { status: 'ACTIVE' },
    expect: 409,
    note: 'ENDED is final',
    message: 'Unable to update the campaign status',
  });

  // Clients.
  const client = (
    await call('createClient', {
      body: {
        client_users: [{ email: 'owner@acme.example', password: 'correct horse battery' }],
        client_details: { name: 'Acme', email: 'billing@acme.example' },
        client_asset_group: { name: 'Acme main', tenant_voice_provider_id: provider.voice_provider_id },
        billing_provider: {
          type: 'processor',
          selected_product: { product_id: product.product_id, price_ids: [product.prices[0].price_id] },
        },
        client_access: { assistant: 'view_only', campaign: 'view_and_add' },
        assigned_resources: { assistant: ['asst_1'], campaign: [state.campaignId] },
      },
      expect: 201,
    })
  ).json.data;
  const unbilled = (
    await call('createClient', {
      body: {
        client_users: [{ email: 'solo@example.com', password: 'another secret' }],
        client_details: { name: 'Solo', email: 'solo@example.com' },
        client_asset_group: { name: 'Solo main' },
      },
      expect: 201,
      note: 'no billing',
    })
  ).json.data;
  await call('createClient', {
    body: { client_users: [] },
    expect: 400,
    note: 'no users',
    message: 'Validation error',
  });
  await call('listClients', { expect: 200 });
  await call('listClients', { query: { page: 1, page_size: 1 }, expect: 200, note: 'one page' });
  await call('listClients', { query: { page_size: 0 }, expect: 400, note: 'page_size 0' });
  await call('getClientWithoutId', { expect: 400, message: 'Client ID is required' });
  await call('getClient', {
    params: { client_id: '999999999' },
    expect: 404,
    note: 'unknown id',
    message: 'Client not found',
  });

  // The client's users in the portal: the tenant lists them, sets the
  // client's access and makes a password link; a user signs in, reads its
  // session, uses the link, changes its password and signs out; the tenant
  // disables and enables it.
  const cpath = { client_id: client.client_id };
  const clientUsers = (await call('listClientUsers', { params: cpath, expect: 200 })).json?.data ?? [];
  await call('listClientUsers', { params: { client_id: '999999999' }, expect: 404, note: 'unknown client' });
  const up = { ...cpath, user_id: clientUsers[0]?.id ?? 'none' };
  await call('setClientAccess', {
    params: cpath,
    body: { client_access: { assistant: 'view_only', campaign: 'view_and_add' } },
    expect: 200,
  });
  await call('setClientAccess', {
    params: cpath,
    body: { client_access: { campaign: 'everything' } },
    expect: 400,
    note: 'unknown level',
  });
  const portalOrigin = new URL(publicUrl).origin;
  const portalCookie = (r) => (r.headers?.get('set-cookie') ?? '').split(';')[0];
  const portalHeaders = (r) => ({
    Origin: portalOrigin,
    Cookie: portalCookie(r),
    'X-CSRF-Token': r.json?.data?.csrf_token,
  });
  const portalUser = { tenant_id: state.tenantId, email: 'owner@acme.example' };
  await call('portalSignIn', {
    headers: { Origin: portalOrigin },
    body: { ...portalUser, password: 'not the password' },
    expect: 401,
    note: 'a wrong password',
    message: 'Wrong e-mail or password',
  });
  const portal = await call('portalSignIn', {
    headers: { Origin: portalOrigin },
    body: { ...portalUser, password: 'correct horse battery' },
    expect: 201,
  });
  await call('getPortalSession', { headers: portalHeaders(portal), expect: 200 });
  await call('getPortalBilling', { headers: portalHeaders(portal), expect: 200 });
  await call('listPortalPaymentRequests', { headers: portalHeaders(portal), expect: 200 });
  await call('listPortalPaymentRequests', {
    headers: portalHeaders(portal),
    query: { page_size: 0 },
    expect: 400,
    note: 'page_size 0',
  });
  await call('getPortalResources', { headers: portalHeaders(portal), expect: 200 });
  await call('listPortalFormSubmissions', { headers: portalHeaders(portal), expect: 200 });
  await call('getPortalSession', { auth: state.key, expect: 401, note: 'a key is not a portal session' });
  const portalLink = (await call('clientUserSetupLink', { params: up, expect: 201 })).json?.data;
  await call('clientUserSetupLink', {
    params: { ...cpath, user_id: 'Q2xpZW50VXNlcjo5OTk5OTk5' },
    expect: 404,
    note: 'unknown user',
  });
  const portalToken = portalLink?.setup_url?.split('#token=')[1] ?? '';
  const viaLink = await call('usePortalSetupLink', {
    headers: { Origin: portalOrigin },
    body: { token: portalToken, password: 'a portal passphrase' },
    expect: 201,
  });
  await call('usePortalSetupLink', {
    headers: { Origin: portalOrigin },
    body: { token: portalToken, password: 'a portal passphrase' },
    expect: 404,
    note: 'used twice',
  });
  await call('changePortalPassword', {
    auth: null,
    headers: portalHeaders(viaLink),
    body: { current_password: 'a portal passphrase', new_password: 'correct horse battery' },
    expect: 200,
  });
  const portalAgain = await call('portalSignIn', {
    headers: { Origin: portalOrigin },
    body: { ...portalUser, password: 'correct horse battery' },
    expect: 201,
    noExample: true,
  });
  await call('portalSignOut', { headers: portalHeaders(portalAgain), expect: 200 });
  await call('updateClientUser', { params: up, body: { status: 'Disabled' }, expect: 200 });
  await call('updateClientUser', { params: up, body: { status: 'Gone' }, expect: 400, note: 'unknown status' });
  await call('updateClientUser', { params: up, body: { status: 'Active' }, expect: 200, noExample: true });

  // Resources of the client's account configuration.
  const ag = { client_account_configuration_id: client.asset_group_id };
  await call('getAssignedResources', { params: ag, expect: 200 });
  await call('assignResources', {
    params: ag,
    body: {
      assigned_resources: {
        assistant: ['asst_1', 'asst_2'],
        phone_number: ['pn_1'],
        campaign: [state.campaignId],
      },
    },
    expect: 200,
  });
  await call('assignResources', {
    params: ag,
    body: { assigned_resources: {} },
    expect: 400,
    note: 'empty set',
    message: 'Invalid data',
  });
  await call('getAssignedResources', {
    params: { client_account_configuration_id: '999999999' },
    expect: 404,
    note: 'unknown id',
  });
  await call('getAssignedResourcesWithoutId', { expect: 400 });
  await call('assignResourcesWithoutId', {
    body: { assigned_resources: { assistant: ['asst_1'] } },
    expect: 400,
  });

  // Form submissions.
  await call('createFormSubmission', {
    params: { client_form_id: form.client_form_id },
    body: { client_id: client.client_id, response_data: { company_size: '11-50', wants_demo: true } },
    expect: 201,
  });
  await call('createFormSubmission', {
    params: { client_form_id: form.client_form_id },
    body: {},
    expect: 400,
    note: 'no client',
  });
  await call('listFormSubmissions', { params: { client_form_id: form.client_form_id }, expect: 200 });
  await call('listFormSubmissions', {
    params: { client_form_id: form.client_form_id },
    query: { page: 1, page_size: 1 },
    expect: 200,
    note: 'one page',
  });
  await call('listFormSubmissions', {
    params: { client_form_id: 'x' },
    expect: 400,
    note: 'malformed id',
    message: 'Invalid client_form_id format',
  });
  await call('listFormSubmissions', {
    params: { client_form_id: emptyForm.client_form_id },
    expect: 404,
    note: 'no submissions',
    message: 'Submissions not found',
  });

  // Billing: subscription, payment request, usage.
  const subs = (await call('listSubscriptions', { query: { client_id: client.client_id }, expect: 200 }))
    .json;
  const subscriptionId = subs.data[0].id;
  await call('listSubscriptions', { query: { status: 'paused' }, expect: 400, note: 'unknown status' });
  await call('getSubscription', { params: { subscription_id: subscriptionId }, expect: 200 });
  await call('getSubscription', {
    params: { subscription_id: '999999999' },
    expect: 404,
    note: 'unknown id',
    message: 'Subscription not found',
  });
  const now = new Date();
  const day = (d) => new Date(now.getTime() + d * 86400000).toISOString().slice(0, 10) + 'T00:00:00Z';
  const request = (
    await call('createPaymentRequest', {
      body: {
        client_id: client.client_id,
        subscription_id: subscriptionId,
        type: 'SUBSCRIPTION',
        amount: '49.00',
        currency: 'USD',
        due_date: day(7),
        period_start: day(0),
        period_end: day(30),
        line_items: [{ description: 'Contract pack for one month', amount: '49.00' }],
        notes: 'First month',
      },
      expect: 201,
    })
  ).json;
  await call('createPaymentRequest', {
    body: { client_id: client.client_id, type: 'REFUND' },
    expect: 400,
    note: 'invalid body',
  });
  await call('listPaymentRequests', { query: { client_id: client.client_id }, expect: 200 });
  await call('listPaymentRequests', { query: { status: 'LOST' }, expect: 400, note: 'unknown status' });
  await call('getPaymentRequest', { params: { payment_request_id: request.id }, expect: 200 });
  await call('getPaymentRequest', {
    params: { payment_request_id: '999999999' },
    expect: 404,
    note: 'unknown id',
    message: 'Payment request not found',
  });
  await call('addAddonMinutes', { body: { client_id: client.client_id, minutes: '500' }, expect: 200 });
  await call('recordUsage', { body: { client_id: client.client_id, minutes: '12.50' }, expect: 200 });
  await call('recordUsage', {
    body: { client_id: client.client_id, minutes: '-1' },
    expect: 400,
    note: 'negative minutes',
  });
  await call('recordUsage', {
    body: { client_id: unbilled.client_id, minutes: '1' },
    expect: 404,
    note: 'no subscription',
  });
  await call('addAddonMinutes', {
    body: { client_id: '999999999', minutes: '1' },
    expect: 404,
    note: 'unknown client',
  });
  await call('listUsage', { query: { client_id: client.client_id }, expect: 200 });
  await call('listUsage', { query: { page: 0 }, expect: 400, note: 'page 0' });
  // A cycle request already due: the sweep (as the scheduler would, at the
  // current time) makes it OVERDUE, the subscription past_due and pauses the
  // client's campaign; once no cycle request is left PENDING or OVERDUE (the
  // first one too), the subscription is active again and the campaign resumed.
  const overdue = (
    await call('createPaymentRequest', {
      body: {
        client_id: client.client_id,
        subscription_id: subscriptionId,
        type: 'OVERAGE',
        amount: '3.75',
        currency: 'USD',
        due_date: day(-1),
        period_start: day(-31),
        period_end: day(-1),
      },
      expect: 201,
      note: 'due yesterday',
    })
  ).json;
  await call('runBillingSweep', { expect: 200 });
  await call('runBillingSweep', { body: { now: 'yesterday' }, expect: 400, note: 'invalid now' });
  const billingState = async (note) =>
    [
      (await call('getPaymentRequest', { params: { payment_request_id: overdue.id }, expect: 200, note }))
        .json?.status,
      (await call('getSubscription', { params: { subscription_id: subscriptionId }, expect: 200, note })).json
        ?.status,
      (await call('getCampaign', { params: cp, expect: 200, note })).json?.data?.status,
    ].join(' ');
  expectEqual(
    'after the sweep: request, subscription, campaign',
    await billingState('after the sweep'),
    'OVERDUE past_due PAUSED',
  );
  await call('updatePaymentRequest', {
    params: { payment_request_id: overdue.id },
    body: { status: 'PAID', external_payment_id: 'pi_contract_1' },
    expect: 200,
  });
  expectEqual(
    'paid, the first request still PENDING: request, subscription, campaign',
    await billingState('one paid'),
    'PAID past_due PAUSED',
  );
  await call('updatePaymentRequest', {
    params: { payment_request_id: request.id },
    body: { status: 'PAID' },
    expect: 200,
    note: 'the other cycle request',
  });
  expectEqual(
    'both paid: request, subscription, campaign',
    await billingState('both paid'),
    'PAID active SCHEDULED',
  );
  await call('updatePaymentRequest', {
    params: { payment_request_id: overdue.id },
    body: { status: 'REFUNDED' },
    expect: 400,
    note: 'unknown status',
  });
  await call('updatePaymentRequest', {
    params: { payment_request_id: '999999999' },
    body: { status: 'PAID' },
    expect: 404,
    note: 'unknown id',
    message: 'Payment request not found',
  });

  // The dialer: a campaign that calls (the simulated provider behind the
  // provider_b configuration) one lead, its calls, and its webhooks to a
  // receiver that refuses connections, so the deliveries stay pending (and
  // are retried) with their last error.
  const tp = { tenant_id: state.tenantId };
  await call('rotateWebhookSecret', { params: tp, expect: 201 });
  const dialed = (
    await call('createCampaign', {
      body: {
        name: 'Dialer',
        type: 'OUTBOUND',
        assistant_id: 'asst_1',
        phone_number_id: 'pn_1',
        tenant_voice_provider_id: provider.voice_provider_id,
        webhook_url: 'http://127.0.0.1:9/hook',
        lead_local_time: true,
      },
      expect: 201,
      noExample: true,
      note: 'to dial',
    })
  ).json.data;
  const dc = { campaign_id: dialed.campaign_id };
  await call('addLead', {
    params: dc,
    body: { phone_number: '+14155550111', custom_fields: { simulated_outcomes: 'human' } },
    expect: 201,
    noExample: true,
    note: 'to dial',
  });
  await call('updateCampaignStatus', {
    params: dc,
    body: { status: 'ACTIVE' },
    expect: 200,
    noExample: true,
    note: 'ACTIVE, to dial',
  });
  await call('runDialer', { expect: 200 });
  await call('runDialer', { body: { now: new Date().toISOString() }, expect: 200, note: 'as of now' });
  await call('runDialer', {
    body: { now: 'yesterday' },
    expect: 400,
    note: 'invalid now',
    message: 'Validation error',
  });
  const tc = { ...tp, ...dc };
  const ended = (r) => r.json?.calls?.some((c) => c.ended_at !== null);
  let calls;
  for (let i = 0; i < 100; i++) {
    calls = await call('listCalls', { params: tc, expect: 200, noExample: true, note: 'until a call ended' });
    if (ended(calls)) break;
    await sleep(100);
  }
  if (!ended(calls)) fail(`the dialer placed no call that ended: ${calls.text}`);
  await call('listCalls', { params: tc, expect: 200 });
  // The same calls as the tenant reads them.
  await call('listCampaignCalls', { params: dc, expect: 200, note: 'a dialed campaign' });
  const endedCall = calls.json.calls.find((c) => c.ended_at !== null);
  await call('getCampaignCall', {
    params: { ...dc, call_id: endedCall.id },
    expect: 200,
    note: 'an ended call, with its transcript',
  });
  // The same calls as CSV, streamed: a header row, then one row per call.
  const exported = await call('exportCampaignCalls', { params: dc, expect: 200, note: 'a dialed campaign as CSV' });
  const csvRows = exported.text.split('\r\n').filter((line) => line.length);
  if (!csvRows[0]?.startsWith('call_id,campaign_lead_id,')) fail(`the export has no header row: ${exported.text.slice(0, 200)}`);
  // Every call listed before it (the dialer may have placed more since).
  if (csvRows.length - 1 < calls.json.calls.length) {
    fail(`the export has ${csvRows.length - 1} rows for ${calls.json.calls.length} calls`);
  }
  await call('exportCampaignCalls', {
    params: dc,
    query: { outcome: 'hangup' },
    expect: 400,
    note: 'unknown outcome',
    message: "Invalid outcome: 'hangup'. Valid values are: human, voicemail, no_answer, busy, failed, invalid_number",
  });
  await call('getCampaignCall', {
    params: { ...dc, call_id: '999999999' },
    expect: 404,
    note: 'unknown call',
    message: 'Call not found',
  });
  // Its forecast, after a call ended, and the forecast of no campaign.
  await call('getCampaignForecast', { params: dc, expect: 200, note: 'a dialed campaign' });
  await call('getCampaignForecast', {
    params: { campaign_id: '999999999' },
    expect: 404,
    note: 'unknown campaign',
    message: 'Campaign not found',
  });
  await call('listCalls', {
    params: tc,
    query: { limit: 0 },
    expect: 400,
    note: 'limit 0',
    message: 'limit must be an integer from 1 to 1000',
  });
  await call('listCalls', {
    params: { ...tp, campaign_id: '999999999' },
    expect: 404,
    note: 'unknown campaign',
    message: 'Campaign not found',
  });
  // campaign.activated (started by hand), call.started, call.ended and
  // lead.answered, each attempted once.
  const attempted = (r) => r.json?.deliveries?.filter((d) => d.attempts > 0).length >= 4;
  let deliveries;
  for (let i = 0; i < 100; i++) {
    deliveries = await call('listWebhookDeliveries', {
      params: tp,
      expect: 200,
      noExample: true,
      note: 'until attempted',
    });
    if (attempted(deliveries)) break;
    await sleep(100);
  }
  if (!attempted(deliveries)) fail(`no webhook delivery was attempted: ${deliveries.text}`);
  expectEqual(
    'the webhook events',
    deliveries.json?.deliveries
      ?.map((d) => d.event_type)
      .sort()
      .join(' '),
    'call.ended call.started campaign.activated lead.answered',
  );
  await call('listWebhookDeliveries', { params: tp, query: { status: 'pending', limit: 2 }, expect: 200 });
  await call('listWebhookDeliveries', {
    params: tp,
    query: { status: 'dead' },
    expect: 200,
    noExample: true,
    note: 'status dead',
  });
  await call('listWebhookDeliveries', {
    params: tp,
    query: { status: 'bogus' },
    expect: 400,
    note: 'unknown status',
    message: "Invalid status: 'bogus'. Valid values are: pending, delivered, dead",
  });
  await call('listWebhookDeliveries', {
    params: tp,
    query: { limit: 1001 },
    expect: 400,
    note: 'limit 1001',
    message: 'limit must be an integer from 1 to 1000',
  });
  const delivery = deliveries.json?.deliveries?.[0]?.id ?? '1';
  await call('replayWebhookDelivery', { params: { ...tp, delivery_id: delivery }, expect: 200 });
  await call('replayWebhookDelivery', {
    params: { ...tp, delivery_id: '999999999' },
    expect: 404,
    note: 'unknown delivery',
    message: 'Webhook delivery not found',
  });

  // Phone number pools: created (the defaults filled), listed oldest first,
  // read and changed; campaigns name only pools of their tenant, and a pool
  // a campaign that has not ended names is kept until the campaign moves to
  // another pool or ends. A POOL campaign without a pool says so in its
  // leads' dial state and its forecast. A key held to some campaigns reads
  // pools but changes none.
  const unknownPool = { pool_id: Buffer.from('PhoneNumberPool:999999999').toString('base64') };
  const poolNotFound = 'Phone number pool not found';
  const pool = (
    await call('createPhoneNumberPool', {
      body: {
        name: 'East coast',
        phone_number_ids: ['pn_81d2', 'pn_93fa'],
        daily_cap_per_number: 40,
        timezone: 'America/New_York',
      },
      expect: 201,
    })
  ).json?.data;
  const pp = { pool_id: pool?.id ?? 'none' };
  expectEqual("a new pool's calls left today", pool?.calls_left_today, 80);
  const spare = (
    await call('createPhoneNumberPool', {
      body: { name: 'Spare', phone_number_ids: ['pn_a4c7'] },
      expect: 201,
      noExample: true,
      note: 'the defaults',
    })
  ).json?.data;
  expectEqual('the default cap and time zone', `${spare?.daily_cap_per_number} ${spare?.timezone}`, '100 UTC');
  await call('createPhoneNumberPool', {
    body: { name: 'x', phone_number_ids: ['pn_1', 'pn_1'] },
    expect: 400,
    note: 'a number given twice',
    message: 'Validation error',
  });
  await call('createPhoneNumberPool', {
    body: { name: 'x', phone_number_ids: [] },
    expect: 400,
    note: 'no number',
    message: 'Validation error',
  });
  const unnamed = await call('createPhoneNumberPool', {
    body: { phone_number_ids: ['pn_1'], timezone: 'Mars/Olympus' },
    expect: 400,
    note: 'no name, an unknown time zone',
    message: 'Validation error',
  });
  expectEqual('the fields named', Object.keys(unnamed.json?.errors ?? {}).sort().join(' '), 'name timezone');
  await call('createPhoneNumberPool', {
    body: { name: 'x', phone_number_ids: ['pn_1'], daily_cap_per_number: 0 },
    expect: 400,
    note: 'a cap of 0',
    message: 'Validation error',
  });
  await call('createPhoneNumberPool', { body: '{"name":', expect: 400, note: 'malformed JSON', message: 'Invalid data' });
  await call('listPhoneNumberPools', { expect: 200 });
  const firstPool = await call('listPhoneNumberPools', {
    query: { page: 1, page_size: 1 },
    expect: 200,
    noExample: true,
    note: 'one page',
  });
  expectEqual('the oldest pool first', firstPool.json?.data?.map((p) => p.id).join(' '), pp.pool_id);
  await call('listPhoneNumberPools', {
    query: { page_size: 0 },
    expect: 400,
    note: 'page_size 0',
    message: "Invalid page_size: '0'. Must be an integer from 1 to 100",
  });
  await call('getPhoneNumberPool', { params: pp, expect: 200 });
  await call('getPhoneNumberPool', { params: unknownPool, expect: 404, note: 'unknown id', message: poolNotFound });
  await call('getPhoneNumberPool', {
    params: { pool_id: 'not-an-id' },
    expect: 404,
    note: 'malformed id',
    message: poolNotFound,
  });
  const changedPool = await call('updatePhoneNumberPool', {
    params: pp,
    body: { phone_number_ids: ['pn_a4c7', 'pn_81d2'], daily_cap_per_number: 60 },
    expect: 200,
  });
  expectEqual(
    'the numbers, in the order given',
    changedPool.json?.data?.numbers?.map((n) => n.phone_number_id).join(' '),
    'pn_a4c7 pn_81d2',
  );
  await call('updatePhoneNumberPool', {
    params: pp,
    body: { daily_cap_per_number: 100001 },
    expect: 400,
    note: 'a cap over 100000',
    message: 'Validation error',
  });
  await call('updatePhoneNumberPool', {
    params: pp,
    body: { phone_number_ids: [] },
    expect: 400,
    note: 'no number',
    message: 'Validation error',
  });
  await call('updatePhoneNumberPool', {
    params: unknownPool,
    body: { name: 'x' },
    expect: 404,
    note: 'unknown id',
    message: poolNotFound,
  });
  await call('createCampaign', {
    body: { name: 'x', dialer_type: 'POOL', phone_number_pool_id: unknownPool.pool_id },
    expect: 404,
    note: 'unknown phone number pool',
    message: poolNotFound,
  });
  const pooled = (
    await call('createCampaign', {
      body: {
        name: 'Pooled',
        dialer_type: 'POOL',
        phone_number_pool_id: pp.pool_id,
        tenant_voice_provider_id: provider.voice_provider_id,
      },
      expect: 201,
      noExample: true,
      note: 'POOL, with a pool',
    })
  ).json.data;
  const pc = { campaign_id: pooled.campaign_id };
  const pooledRead = await call('getCampaign', { params: pc, expect: 200, noExample: true, note: 'POOL' });
  expectEqual('the campaign names its pool', pooledRead.json?.data?.phone_number_pool_id, pp.pool_id);
  await call('updateCampaign', {
    params: pc,
    body: { phone_number_pool_id: unknownPool.pool_id },
    expect: 404,
    note: 'unknown phone number pool',
    message: poolNotFound,
  });
  await call('deleteVoiceProvider', {
    params: { voice_provider_id: provider.voice_provider_id },
    expect: 409,
    note: 'named by a campaign that has not ended',
    message:
      'Voice provider configuration is in use: a campaign that has not ended uses it; end the campaign or give it another provider first',
  });
  await call('deletePhoneNumberPool', {
    params: pp,
    expect: 409,
    note: 'named by a DRAFT campaign',
    message: 'Phone number pool is used by a campaign that has not ended',
  });
  await call('updateCampaign', {
    params: pc,
    body: { phone_number_pool_id: spare?.id ?? 'none' },
    expect: 200,
    noExample: true,
    note: 'to another pool',
  });
  await call('deletePhoneNumberPool', { params: pp, expect: 200 });
  await call('deletePhoneNumberPool', { params: pp, expect: 404, note: 'already deleted', message: poolNotFound });
  await call('getPhoneNumberPool', { params: pp, expect: 404, note: 'deleted', message: poolNotFound });
  await call('updateCampaignStatus', {
    params: pc,
    body: { status: 'ENDED' },
    expect: 200,
    noExample: true,
    note: 'ENDED, to free its pool',
  });
  const spp = { pool_id: spare?.id ?? 'none' };
  const heldKey = (
    await call('createTenantApiKey', {
      body: { name: 'one campaign', campaign_ids: [state.campaignId] },
      expect: 201,
      noExample: true,
      note: 'held to one campaign',
    })
  ).json?.data;
  const scoped = 'This API key reaches only some campaigns and cannot change phone number pools';
  await call('getPhoneNumberPool', {
    params: spp,
    auth: heldKey?.key,
    expect: 200,
    noExample: true,
    note: 'a key held to one campaign',
  });
  await call('createPhoneNumberPool', {
    auth: heldKey?.key,
    body: { name: 'x', phone_number_ids: ['pn_1'] },
    expect: 403,
    note: 'a key held to one campaign',
    message: scoped,
  });
  await call('updatePhoneNumberPool', {
    params: spp,
    auth: heldKey?.key,
    body: { name: 'x' },
    expect: 403,
    note: 'a key held to one campaign',
    message: scoped,
  });
  await call('deletePhoneNumberPool', {
    params: spp,
    auth: heldKey?.key,
    expect: 403,
    note: 'a key held to one campaign',
    message: scoped,
  });
  await call('deleteTenantApiKey', {
    params: { key_id: heldKey?.id ?? 'none' },
    expect: 200,
    noExample: true,
    note: 'held to one campaign',
  });
  await call('deletePhoneNumberPool', {
    params: spp,
    expect: 200,
    noExample: true,
    note: 'its campaign ENDED',
  });
  const poolless = (
    await call('createCampaign', {
      body: { name: 'Pool without a pool', dialer_type: 'POOL', tenant_voice_provider_id: provider.voice_provider_id },
      expect: 201,
      noExample: true,
      note: 'POOL, without a pool',
    })
  ).json.data;
  const nc = { campaign_id: poolless.campaign_id };
  await call('addLead', {
    params: nc,
    body: { phone_number: '+14155550131' },
    expect: 201,
    noExample: true,
    note: 'POOL, without a pool',
  });
  await call('updateCampaignStatus', {
    params: nc,
    body: { status: 'ACTIVE' },
    expect: 200,
    noExample: true,
    note: 'ACTIVE, POOL without a pool',
  });
  const numberless = await call('listLeads', {
    params: nc,
    query: { include: 'dial_state' },
    expect: 200,
    noExample: true,
    note: 'POOL without a pool',
  });
  expectEqual('the dial state of a POOL campaign without a pool', numberless.json?.leads?.[0]?.dial_state, 'no_phone_number');
  const unpooled = await call('getCampaignForecast', {
    params: nc,
    expect: 200,
    noExample: true,
    note: 'POOL without a pool',
  });
  expectEqual(
    'the forecast of a POOL campaign without a pool',
    `${unpooled.json?.data?.outlook} ${unpooled.json?.data?.skipped?.no_phone_number}`,
    'no_phone_number 1',
  );
  await call('updateCampaignStatus', {
    params: nc,
    body: { status: 'ENDED' },
    expect: 200,
    noExample: true,
    note: 'ENDED, POOL without a pool',
  });

  // The tenant's own keys: a read-only one, refused a write naming the
  // permission, disabled, listed masked and deleted.
  const readerKey = (
    await call('createTenantApiKey', {
      body: { name: 'reports', permissions: 'read_only' },
      expect: 201,
    })
  ).json.data;
  await call('createTenantApiKey', {
    body: { name: 'x', permissions: ['campaigns:fly'] },
    expect: 400,
    note: 'unknown permission',
  });
  await call('createTenantApiKey', {
    auth: readerKey.key,
    body: { name: 'x' },
    expect: 403,
    note: 'a read-only key',
    message: 'This API key lacks the permission keys:write',
  });
  await call('listTenantApiKeys', { auth: readerKey.key, expect: 200 });
  await call('listEvents', { query: { limit: '5' }, expect: 200 });
  const streamed = await call('streamEvents', { query: { after: '0-0' }, expect: 200, stream: true });
  if (!/^id: \d+-\d+\nevent: [a-z._]+\ndata: \{/m.test(streamed.text)) fail('the event stream sent no event frame');
  await call('streamEvents', {
    headers: { 'Last-Event-ID': 'yesterday' },
    expect: 400,
    note: 'not a cursor',
    message: 'Invalid cursor',
  });
  await call('listEvents', {
    query: { after: 'yesterday' },
    expect: 400,
    note: 'not a cursor',
    message: 'Invalid cursor',
  });
  await call('updateTenantApiKey', { params: { key_id: readerKey.id }, body: { status: 'Disabled' }, expect: 200 });
  await call('updateTenantApiKey', {
    params: { key_id: readerKey.id },
    body: { status: 'Gone' },
    expect: 400,
    note: 'unknown status',
  });
  await call('updateTenantApiKey', {
    params: { key_id: 'key_unknown' },
    body: { status: 'Active' },
    expect: 404,
    note: 'unknown key',
  });
  await call('deleteTenantApiKey', { params: { key_id: readerKey.id }, expect: 200 });
  await call('deleteTenantApiKey', { params: { key_id: readerKey.id }, expect: 404, note: 'already deleted' });

  // People: the operator adds the tenant's owner, whose one-time set-up
  // link signs in; the session invites a viewer, gives it another role and
  // a new link, removes it, changes its password and signs out.
  const origin = new URL(publicUrl).origin;
  const ownerEmail = `owner-${state.tenantId.slice(0, 6)}-${Date.now()}@example.com`;
  const added = (await call('operatorCreateMember', { params: tp, body: { email: ownerEmail }, expect: 201 })).json;
  await call('operatorCreateMember', {
    params: tp,
    body: { email: ownerEmail.toUpperCase() },
    expect: 409,
    note: 'e-mail taken',
    message: 'This e-mail already belongs to a member of this tenant',
  });
  await call('operatorListMembers', { params: tp, expect: 200 });
  const setupToken = added?.setup_url?.split('#token=')[1] ?? '';
  await call('useSetupLink', {
    headers: { Origin: origin },
    body: { token: setupToken, password: 'short' },
    expect: 400,
    note: 'a short password',
  });
  const setUp = await call('useSetupLink', {
    headers: { Origin: origin },
    body: { token: setupToken, password: 'correct horse battery' },
    expect: 201,
  });
  await call('useSetupLink', {
    headers: { Origin: origin },
    body: { token: setupToken, password: 'correct horse battery' },
    expect: 404,
    note: 'used twice',
    message: 'This set-up link is unknown, used or expired',
  });
  const cookieOf = (r) => (r.headers?.get('set-cookie') ?? '').split(';')[0];
  let browser = { Origin: origin, Cookie: cookieOf(setUp), 'X-CSRF-Token': setUp.json?.data?.csrf_token };
  await call('getSession', { headers: browser, expect: 200 });
  await call('getSession', { auth: state.key, expect: 401, note: 'a key is not a session' });
  await call('signIn', {
    headers: { Origin: 'https://elsewhere.example' },
    body: { email: ownerEmail, password: 'correct horse battery' },
    expect: 403,
    note: 'another site',
  });
  await call('signIn', {
    headers: { Origin: origin },
    body: { email: ownerEmail, password: 'not the password' },
    expect: 401,
    note: 'a wrong password',
    message: 'Wrong e-mail or password',
  });
  const signedIn = await call('signIn', {
    headers: { Origin: origin },
    body: { email: ownerEmail, password: 'correct horse battery' },
    expect: 201,
  });
  browser = { Origin: origin, Cookie: cookieOf(signedIn), 'X-CSRF-Token': signedIn.json?.data?.csrf_token };
  const invited = (
    await call('inviteMember', {
      auth: null,
      headers: browser,
      body: { email: `viewer-${Date.now()}@example.com`, role: 'viewer' },
      expect: 201,
    })
  ).json;
  await call('inviteMember', {
    auth: null,
    headers: { ...browser, 'X-CSRF-Token': 'forged' },
    body: { email: 'forged@example.com', role: 'owner' },
    expect: 403,
    note: 'no CSRF token of the session',
    message: 'Missing or wrong X-CSRF-Token',
  });
  await call('inviteMember', { body: { email: 'x@example.com', role: 'king' }, expect: 400, note: 'unknown role' });
  await call('listMembers', { expect: 200 });
  const memberId = invited?.data?.id ?? 'none';
  await call('updateMember', { params: { member_id: memberId }, body: { role: 'admin' }, expect: 200 });
  await call('updateMember', {
    params: { member_id: added?.data?.id ?? 'none' },
    body: { role: 'viewer' },
    expect: 409,
    note: 'the last owner',
  });
  await call('newMemberSetupLink', { params: { member_id: memberId }, expect: 201 });
  await call('operatorMemberSetupLink', { params: { ...tp, member_id: memberId }, expect: 201 });
  await call('operatorMemberSetupLink', {
    params: { ...tp, member_id: 'TWVtYmVyOjk5OTk5OTk=' },
    expect: 404,
    note: 'unknown member',
  });
  await call('removeMember', { params: { member_id: memberId }, expect: 200 });
  await call('removeMember', { params: { member_id: memberId }, expect: 404, note: 'already removed' });
  await call('changePassword', {
    auth: null,
    headers: browser,
    body: { current_password: 'correct horse battery', new_password: 'another long passphrase' },
    expect: 200,
  });
  await call('getSession', { headers: browser, expect: 401, note: 'ended by the new password' });
  const again = await call('signIn', {
    headers: { Origin: origin },
    body: { email: ownerEmail, password: 'another long passphrase' },
    expect: 201,
    noExample: true,
  });
  await call('signOut', {
    headers: { Origin: origin, Cookie: cookieOf(again), 'X-CSRF-Token': again.json?.data?.csrf_token },
    expect: 200,
  });

  // The same outbox as the tenant reads it, a test event and the endpoint
  // the refusing receiver became with its first failed attempt.
  await call('rotateTenantWebhookSecret', { body: { grace_period_seconds: 3600 }, expect: 201 });
  await call('rotateTenantWebhookSecret', {
    body: { grace_period_seconds: -1 },
    expect: 400,
    note: 'negative grace period',
    message: 'Validation error',
  });
  await call('rotateWebhookSecret', {
    params: tp,
    body: { grace_period_seconds: 'soon' },
    expect: 400,
    note: 'grace period not an integer',
    message: 'Validation error',
  });
  const testEvent = (await call('sendWebhookTest', { params: dc, expect: 202 })).json?.data;
  expectEqual('the test event', testEvent?.event_type, 'webhook.test');
  const quiet = (
    await call('createCampaign', { body: { name: 'No hooks' }, expect: 201, noExample: true, note: 'no webhook_url' })
  ).json.data;
  await call('sendWebhookTest', {
    params: { campaign_id: quiet.campaign_id },
    expect: 400,
    note: 'no webhook_url',
    message: 'Invalid data',
  });
  // Every payload the service queued so far, against its event's x-webhooks
  // schema.
  const payloads = (await call('listTenantWebhookDeliveries', { query: { page_size: 100 }, expect: 200, noExample: true, note: 'payloads' })).json?.data ?? [];
  for (const d of payloads) {
    const schema = spec['x-webhooks']?.[d.event_type]?.post?.requestBody?.content?.['application/json']?.schema;
    if (!schema) fail(`a ${d.event_type} delivery has no x-webhooks entry`);
    else for (const e of schemaErrors(schema, d.payload)) fail(`the ${d.event_type} payload: ${e}`);
  }
  if (!payloads.length) fail('no delivery payload to check against x-webhooks');
  await call('listTenantWebhookDeliveries', { expect: 200 });
  await call('listTenantWebhookDeliveries', {
    query: { event_type: 'webhook.test', campaign_id: dc.campaign_id, page_size: 5 },
    expect: 200,
    noExample: true,
    note: 'filtered',
  });
  await call('listTenantWebhookDeliveries', {
    query: { status: 'failed' },
    expect: 400,
    note: 'unknown status',
    message: "Invalid status: 'failed'. Valid values are: pending, delivered, dead",
  });
  const testId = { delivery_id: testEvent?.id ?? '1' };
  await call('getWebhookDelivery', { params: testId, expect: 200 });
  await call('getWebhookDelivery', {
    params: { delivery_id: '999999999' },
    expect: 404,
    note: 'unknown delivery',
    message: 'Webhook delivery not found',
  });
  await call('replayTenantWebhookDelivery', { params: testId, expect: 202 });
  await call('replayTenantWebhookDelivery', {
    params: { delivery_id: '999999999' },
    expect: 404,
    note: 'unknown delivery',
    message: 'Webhook delivery not found',
  });
  const endpoints = await call('listWebhookEndpoints', { expect: 200 });
  expectEqual('the endpoints', endpoints.json?.data?.map((e) => e.url).join(' '), 'http://127.0.0.1:9/hook');
  await call('enableWebhookEndpoint', { params: { endpoint_id: endpoints.json?.data?.[0]?.id ?? '1' }, expect: 200 });
  await call('enableWebhookEndpoint', {
    params: { endpoint_id: '999999999' },
    expect: 404,
    note: 'unknown endpoint',
    message: 'Webhook endpoint not found',
  });

  // The do-not-call list through the operator API: the same list.
  await call('addTenantDoNotCallNumber', { params: tp, body: { phone_number: dnc }, expect: 201 });
  await call('addTenantDoNotCallNumber', {
    params: tp,
    body: { phone_number: dnc },
    expect: 200,
    note: 'already listed',
  });
  await call('addTenantDoNotCallNumber', {
    params: tp,
    body: { phone_number: '4155550123' },
    expect: 400,
    note: 'not E.164',
    message: 'Validation error',
  });
  const listed = await call('getDoNotCallNumber', {
    params: { phone_number: dnc },
    expect: 200,
    noExample: true,
    note: 'added by the operator',
  });
  expectEqual('do_not_call of a number the operator added', listed.json?.data?.do_not_call, true);
  await call('getTenantDoNotCallNumber', { params: { ...tp, phone_number: dnc }, expect: 200 });
  await call('getTenantDoNotCallNumber', {
    params: { ...tp, phone_number: 'x' },
    expect: 400,
    note: 'not E.164',
    message: 'Validation error',
  });
  await call('removeTenantDoNotCallNumber', { params: { ...tp, phone_number: dnc }, expect: 200 });
  await call('removeTenantDoNotCallNumber', {
    params: { ...tp, phone_number: dnc },
    expect: 404,
    note: 'not listed',
    message: 'Number not on the do-not-call list',
  });
  await call('removeTenantDoNotCallNumber', {
    params: { ...tp, phone_number: 'x' },
    expect: 400,
    note: 'not E.164',
    message: 'Validation error',
  });

  // The client detail, with everything above.
  await call('getClient', { params: { client_id: client.client_id }, expect: 200 });
  await call('getClient', {
    params: { client_id: unbilled.client_id },
    expect: 200,
    note: 'no subscription',
  });

  // A tenant below PRO, then inactive.
  const proPlanRequired = 'External Billing API access requires a PRO plan. Error Code: external_billing_api';
  const free = (
    await call('createTenant', {
      body: { name: 'Contract test (free)', plan: 'FREE' },
      expect: 201,
      note: 'FREE',
    })
  ).json;
  for (const id of ['listPaymentRequests', 'listSubscriptions', 'listUsage']) {
    await call(id, { auth: free.api_key.key, expect: 403, note: 'FREE plan', message: proPlanRequired });
  }
  await call('getPaymentRequest', {
    params: { payment_request_id: request.id },
    auth: free.api_key.key,
    expect: 403,
    note: 'FREE plan',
    message: proPlanRequired,
  });
  await call('updatePaymentRequest', {
    params: { payment_request_id: request.id },
    body: { status: 'PAID' },
    auth: free.api_key.key,
    expect: 403,
    note: 'FREE plan',
    message: proPlanRequired,
  });
  await call('getSubscription', {
    params: { subscription_id: subscriptionId },
    auth: free.api_key.key,
    expect: 403,
    note: 'FREE plan',
    message: proPlanRequired,
  });
  await call('updateTenant', {
    params: { tenant_id: free.tenant_id },
    body: { campaign_limit: 0 },
    expect: 200,
    note: 'campaign_limit 0',
  });
  const limited = await call('createCampaign', {
    body: { name: 'x' },
    auth: free.api_key.key,
    expect: 403,
    note: 'plan campaign limit',
  });
  expectEqual('the plan limit error', JSON.stringify(limited.json?.errors), '["Campaign limit reached"]');
  await call('removeLeadV1', {
    params: cp,
    body: { tenant_id: free.tenant_id, phone_number: '+14155550101' },
    expect: 403,
    note: 'another tenant_id',
  });
  await call('updateTenant', {
    params: { tenant_id: free.tenant_id },
    body: { active: false },
    expect: 200,
    note: 'deactivate',
  });
  await call('listClients', {
    auth: free.api_key.key,
    expect: 403,
    note: 'inactive tenant',
    message: 'Tenant is inactive',
  });
  await call('createVoiceProvider', {
    body: { voice_provider: 'provider_b', provider_b_api_key: 'sk_x' },
    auth: free.api_key.key,
    expect: 403,
    note: 'inactive tenant',
  });
  await call('addDoNotCallNumber', {
    body: { phone_number: '+14155550123' },
    auth: free.api_key.key,
    expect: 403,
    note: 'inactive tenant',
    message: 'Tenant is inactive',
  });
  for (const id of ['getDoNotCallNumber', 'removeDoNotCallNumber']) {
    await call(id, {
      params: { phone_number: '+14155550123' },
      auth: free.api_key.key,
      expect: 403,
      note: 'inactive tenant',
      message: 'Tenant is inactive',
    });
  }

  // Unknown ids in the path (or the body) of the remaining operations.
  const unknown = '999999999';
  const globalId = (type, n) => Buffer.from(`${type}:${n}`).toString('base64');
  const unknownCampaign = { campaign_id: globalId('VoiceCampaign', unknown) };
  const unknownTenant = { tenant_id: unknown };
  for (const [id, opts] of [
    [
      'assignResources',
      {
        params: { client_account_configuration_id: unknown },
        body: { assigned_resources: { assistant: ['asst_1'] } },
      },
    ],
    ['updateCampaign', { params: unknownCampaign, body: { name: 'x' } }],
    ['updateCampaignStatus', { params: unknownCampaign, body: { status: 'PAUSED' } }],
    ['bulkAddLeads', { params: unknownCampaign, body: [{ phone_number: '+14155550199' }] }],
    ['listLeads', { params: unknownCampaign }],
    ['listCampaignCalls', { params: unknownCampaign }],
    ['exportCampaignCalls', { params: unknownCampaign }],
    ['exportLeads', { params: unknownCampaign }],
    ['sendWebhookTest', { params: unknownCampaign }],
    ['bulkUpdateLeads', { params: unknownCampaign, body: [{ phone_number: '+14155550199' }] }],
    ['bulkRemoveLeads', { params: unknownCampaign, body: [{ phone_number: '+14155550199' }] }],
    ['updateTenant', { params: unknownTenant, body: { name: 'x' } }],
    ['createApiKey', { params: unknownTenant, body: { name: 'x' } }],
    [
      'createProduct',
      {
        params: unknownTenant,
        body: { ...product, product_id: 'prod_x', prices: [{ price_id: 'price_x', currency: 'USD' }] },
      },
    ],
    ['createClientForm', { params: unknownTenant, body: { title: 'x' } }],
    [
      'createFormSubmission',
      {
        params: { client_form_id: globalId('ClientForm', unknown) },
        body: { client_id: client.client_id, response_data: {} },
      },
    ],
    [
      'createPaymentRequest',
      {
        body: {
          client_id: unknown,
          type: 'ONE_TIME',
          amount: '1.00',
          currency: 'USD',
          due_date: day(7),
          period_start: day(0),
          period_end: day(30),
        },
      },
    ],
    ['updateApiKey', { params: { key_id: unknown }, body: { status: 'Active' } }],
  ]) {
    await call(id, { ...opts, expect: 404, note: 'unknown id' });
  }
  // Unknown tenants of the dialer's operator routes.
  for (const [id, opts] of [
    ['listCalls', { params: { ...unknownTenant, campaign_id: state.campaignId } }],
    ['rotateWebhookSecret', { params: unknownTenant }],
    ['listWebhookDeliveries', { params: unknownTenant }],
    ['replayWebhookDelivery', { params: { ...unknownTenant, delivery_id: '1' } }],
    ['addTenantDoNotCallNumber', { params: unknownTenant, body: { phone_number: '+14155550123' } }],
    ['getTenantDoNotCallNumber', { params: { ...unknownTenant, phone_number: '+14155550123' } }],
    ['removeTenantDoNotCallNumber', { params: { ...unknownTenant, phone_number: '+14155550123' } }],
  ]) {
    await call(id, { ...opts, expect: 404, note: 'unknown tenant', message: 'Tenant not found' });
  }
  await call('updateLeadV1', {
    params: cp,
    body: { tenant_id: state.tenantId, first_name: 'x' },
    expect: 400,
    note: 'no phone number',
  });
  await call('addAddonMinutes', {
    body: { client_id: client.client_id, minutes: 'many' },
    expect: 400,
    note: 'not a number',
  });
  await call('createTenant', {
    body: JSON.stringify({ name: 'x', plan: 'PRO', padding: 'x'.repeat(1100000) }),
    expect: 413,
    note: 'body over the limit',
  });

  // No credentials: every operation that asks for them answers 401 first.
  for (const o of operations) {
    const security = o.op.security ?? spec.security ?? [];
    if (!o.id || !security.some((s) => Object.keys(s).length)) continue;
    const params = Object.fromEntries([...o.path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1], '1']));
    await call(o.id, {
      params,
      body: o.op.requestBody ? {} : undefined,
      auth: null,
      expect: 401,
      note: 'no credentials',
    });
  }

  await call('getMetrics', { expect: 200 });
  await call('getMetrics', { auth: null, expect: 401, note: 'no operator token' });
}

try {
  await scenario();
} catch (e) {
  fail(`the scenario stopped: ${e.stack ?? e}`);
}

// One line per operation: the statuses its calls answered.
let documented = 0;
let seen = 0;
for (const o of operations) {
  const codes = Object.keys(o.op.responses);
  const statuses = [...(answered.get(o.id) ?? [])].sort();
  documented += codes.length;
  seen += codes.filter((c) => statuses.includes(c)).length;
  const line = `${label(o)} ${statuses.join(' ') || '-'} (${o.id})`;
  if (!exercised.has(o.id)) fail(`${line}: not exercised (no call answered ${exampleStatus(o.op)})`);
  else console.log(`${failed.has(o.id) ? 'FAIL' : 'ok  '} ${line}`);
}

// ---------------------------------------------------------------- examples

// A fresh API key or webhook secret in an example becomes a same-shaped
// dummy that keeps the last four digits (the masked key shows them anyway).
function scrub(value) {
  if (Array.isArray(value)) return value.map(scrub);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        k === 'key' && typeof v === 'string' && /^vcs_[0-9a-f]{48}$/.test(v)
          ? `vcs_${'0123456789abcdef'.repeat(3).slice(0, 44)}${v.slice(-4)}`
          : k === 'webhook_secret' && typeof v === 'string' && /^whsec_[0-9a-f]{64}$/.test(v)
            ? `whsec_${'0123456789abcdef'.repeat(4).slice(0, 60)}${v.slice(-4)}`
            : scrub(v),
      ]),
    );
  }
  return value;
}

// The first lines of a text response (all of a short one).
function excerpt(text) {
  if (text.length <= 600) return text;
  const out = [];
  let size = 0;
  for (const line of text.split('\n')) {
    if (out.length && size + line.length > 300) break;
    out.push(line.length > 200 ? `${line.slice(0, 200)}…` : line);
    size += line.length + 1;
  }
  return `${out.join('\n')}\n`;
}

function exampleValue(o, rec) {
  if (o.id === 'getOpenApiDocument') return { openapi: rec.json.openapi, info: rec.json.info };
  if (rec.json !== undefined) return scrub(rec.json);
  return excerpt(rec.text);
}

// Quoted unless plainly safe for YAML 1.1 readers too (PyYAML builds
// /openapi.json: unquoted times, dates and yes/no would change type).
const plainSafe = (s) =>
  /^[A-Za-z][A-Za-z0-9 _.,@/=+()*-]*$/.test(s) &&
  !s.endsWith(' ') &&
  !/^(y|n|yes|no|on|off|true|false|null)$/i.test(s);

function exampleNode(value, inFlow = false) {
  const node = yamlDoc.createNode(value, { aliasDuplicateObjects: false });
  visit(node, {
    Scalar(key, n) {
      if (typeof n.value !== 'string' || key === 'key') return;
      if (n.value.includes('\n')) n.type = Scalar.BLOCK_LITERAL;
      else n.type = plainSafe(n.value) ? Scalar.PLAIN : Scalar.QUOTE_SINGLE;
    },
    Pair(_, pair) {
      if (isScalar(pair.key) && !plainSafe(String(pair.key.value))) pair.key.type = Scalar.QUOTE_SINGLE;
    },
  });
  // Small collections on one line, as the rest of the document writes them;
  // the items of a list all on one line each, or none.
  const isCollection = (n) => isMap(n) || isSeq(n);
  const fits = (n) => {
    const json = JSON.stringify(n.toJSON());
    return json.length <= 100 && !json.includes('\\n');
  };
  const flow = (n, mode) => {
    if (!isCollection(n)) return;
    n.flow = mode === 'flow' || (mode !== 'block' && fits(n));
    const children = (isMap(n) ? n.items.map((p) => p.value) : n.items).filter(isCollection);
    let childMode = n.flow ? 'flow' : undefined;
    if (!n.flow && isSeq(n)) childMode = children.every(fits) ? 'flow' : 'block';
    for (const c of children) flow(c, childMode);
  };
  flow(node, inFlow ? 'flow' : undefined);
  return node;
}

// The example node for value, reusing the existing node where the shape is
// the same (same keys in the same order, same lengths) so that styles stay
// and a rerun changes only the values that changed.
function updateNode(node, value, inFlow = false) {
  const plainObject = value && typeof value === 'object' && !Array.isArray(value);
  if (
    isMap(node) &&
    plainObject &&
    sameJson(
      node.items.map((p) => String(p.key?.value)),
      Object.keys(value),
    )
  ) {
    for (const pair of node.items)
      pair.value = updateNode(pair.value, value[pair.key.value], inFlow || node.flow);
    return node;
  }
  if (isSeq(node) && Array.isArray(value) && node.items.length === value.length) {
    node.items = node.items.map((item, i) => updateNode(item, value[i], inFlow || node.flow));
    return node;
  }
  if (isScalar(node) && (value === null || typeof value !== 'object') && node.value === value) return node;
  return exampleNode(value, inFlow);
}

const sameJson = (a, b) => JSON.stringify(a) === JSON.stringify(b);

if (writeExamplesMode) {
  let written = 0;
  for (const o of operations) {
    const rec = recorded.get(o.id);
    if (!rec) {
      fail(`${label(o)}: no conforming ${exampleStatus(o.op)} response to write as its example`);
      continue;
    }
    const responseNode = yamlDoc.getIn(['paths', o.path, o.method, 'responses', rec.status]);
    const media = isMap(responseNode) ? responseNode.getIn(['content', rec.mediaType]) : undefined;
    if (!isMap(media)) {
      fail(`${label(o)}: ${rec.status} ${rec.mediaType} is not an inline response; no example written`);
      continue;
    }
    const value = exampleValue(o, rec);
    if (sameJson(media.toJSON().example, value)) continue;
    // An example on one line stays so while the line stays reasonable.
    const old = media.get('example', true);
    let node = old === undefined ? undefined : updateNode(old, value);
    if (!node || (node.flow && JSON.stringify(value).length > 260)) node = exampleNode(value);
    media.set('example', node);
    written++;
  }
  writeFileSync(docPath, yamlDoc.toString({ lineWidth: 0, flowCollectionPadding: false }));
  console.log(`examples: ${written} written to ${docPath}`);
}

if (dumpPath) writeFileSync(dumpPath, `${JSON.stringify(dump, null, 1)}\n`);

console.log(
  `contract: ${requests} requests; ${exercised.size} of ${operations.length} operations exercised, ` +
    `${seen} of their ${documented} documented statuses answered; ` +
    `${failures.filter((f) => !f.startsWith('  ')).length} failures`,
);
process.exit(failures.length ? 1 : 0);
