// The dialer integration of ../dialer_integration.sh, step for step, written
// against a client generated from the public OpenAPI document: the `paths`
// types of openapi-typescript and the openapi-fetch client. Every path,
// parameter, body and answer field below is checked by `tsc` against the
// document, so a change of the API that breaks this integration fails the
// type check before anything runs.
//
//   1. a webhook signing secret for the tenant, and the example receiver
//      (../receiver.py) started with it;
//   2. a voice provider configuration and a campaign whose webhook_url is
//      the receiver;
//   3. leads imported from CSV, the import watched until done, and the rows
//      it rejected;
//   4. the campaign activated and watched while it dials;
//   5. its calls read back, and the events the receiver printed.
//
// Run by run.sh (VCS_PUBLIC_URL, VCS_API_KEY, RECEIVER_PORT as the shell
// example), from this directory.

import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import createClient from 'openapi-fetch';
import type { components, paths } from './generated/api.js';

type WebhookEvent = components['schemas']['WebhookEvent'];

const baseUrl = process.env.VCS_PUBLIC_URL ?? 'http://127.0.0.1:8080';
const apiKey = process.env.VCS_API_KEY;
if (!apiKey) {
  console.error('set VCS_API_KEY to a tenant API key');
  process.exit(2);
}
const port = Number(process.env.RECEIVER_PORT ?? 8090);

const api = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${apiKey}` } });

// The answer's body; any non-2xx is fatal, with the service's message.
async function ok<T>(answer: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await answer;
  if (!response.ok || data === undefined) {
    throw new Error(`${response.status} from ${new URL(response.url).pathname}: ${JSON.stringify(error)}`);
  }
  return data;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const step = (title: string) => console.log(`\n== ${title}`);

// The receiver prints one verified, de-duplicated event per line.
function startReceiver(secret: string): { events: WebhookEvent[]; stop: () => void } {
  const events: WebhookEvent[] = [];
  const child = spawn('python3', [resolve('..', 'receiver.py'), '--port', String(port)], {
    env: { ...process.env, WEBHOOK_SECRET: secret },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let pending = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) events.push(JSON.parse(line) as WebhookEvent);
  });
  return { events, stop: () => child.kill() };
}

async function main(): Promise<void> {
  step('1. A signing secret (shown once) and the receiver');
  const rotation = await ok(api.POST('/api/v2/webhook-secret', { body: { grace_period_seconds: 0 } }));
  const receiver = startReceiver(rotation.data.webhook_secret);
  try {
    for (let i = 0; i < 50; i++) {
      const up = await fetch(`http://127.0.0.1:${port}/`).then(
        () => true,
        () => false,
      );
      if (up) break;
      await sleep(100);
    }
    await integrate(receiver.events);
  } finally {
    receiver.stop();
  }
}

async function integrate(events: WebhookEvent[]): Promise<void> {
  step('2. A voice provider and a campaign that reports to the receiver');
  const provider = await ok(
    api.POST('/api/v2/voice-pod', { body: { voice_provider: 'provider_b', provider_b_api_key: 'example' } }),
  );
  const created = await ok(
    api.POST('/api/v2/voice-campaigns', {
      body: {
        name: 'Example dialer',
        assistant_id: 'asst_example',
        phone_number_id: 'pn_example',
        tenant_voice_provider_id: provider.data.voice_provider_id,
        max_call_attempts: 1,
        webhook_url: `http://127.0.0.1:${port}/hooks`,
      },
    }),
  );
  const campaign_id = created.data.campaign_id;
  console.log(`campaign ${campaign_id}`);

  step('3. Leads from CSV: one malformed, one repeated');
  const csv = `phone_number,first_name,custom_fields.crm_id,custom_fields.simulated_outcomes
+14155552671,Ada,CRM-1,human
+14155552672,Grace,CRM-2,voicemail
+14155552673,Linus,CRM-3,no_answer
not-a-number,Nobody,CRM-4,human
+14155552671,Ada again,CRM-5,human
`;
  // The operation takes JSON or CSV; CSV goes as it is.
  const queued = await ok(
    api.POST('/api/v2/voice-campaigns/{campaign_id}/leads/bulk', {
      params: { path: { campaign_id } },
      body: csv,
      bodySerializer: (body: unknown) => body as string,
      headers: { 'Content-Type': 'text/csv' },
    }),
  );
  const importPath = { path: { campaign_id, import_id: queued.import_id } };
  const readImport = () =>
    ok(api.GET('/api/v2/voice-campaigns/{campaign_id}/leads/imports/{import_id}', { params: importPath }));
  let leadImport = await readImport();
  for (let i = 0; i < 100 && leadImport.status !== 'done'; i++) {
    await sleep(100);
    leadImport = await readImport();
  }
  const { status, accepted, inserted, rejected } = leadImport;
  console.log(JSON.stringify({ status, accepted, inserted, rejected }));
  const rejections = await ok(
    api.GET('/api/v2/voice-campaigns/{campaign_id}/leads/imports/{import_id}/rejected-rows', { params: importPath }),
  );
  for (const r of rejections.data) console.log(`row ${r.index}: ${r.reason}: ${r.message}`);

  step('4. Dialing: the campaign activated and watched until no lead is left to call');
  await ok(
    api.PATCH('/api/v2/voice-campaigns/{campaign_id}/status', {
      params: { path: { campaign_id } },
      body: { status: 'ACTIVE' },
    }),
  );
  const readCampaign = async () =>
    (await ok(api.GET('/api/v2/voice-campaigns/{campaign_id}', { params: { path: { campaign_id } } }))).data;
  let progress = await readCampaign();
  const left = () => progress.dialable_count + progress.lead_counts.IN_PROGRESS;
  for (let i = 0; i < 300 && left() > 0; i++) {
    await sleep(200);
    progress = await readCampaign();
  }
  console.log(JSON.stringify(progress.lead_counts));
  if (left() > 0) throw new Error('the campaign still has leads to call');

  step('5. The calls, newest first, and the events received');
  const calls = await ok(
    api.GET('/api/v2/voice-campaigns/{campaign_id}/calls', { params: { path: { campaign_id } } }),
  );
  for (const c of calls.data) console.log(`${c.phone_number} ${c.status} ${c.outcome} ${c.billed_minutes} min`);
  const has = (type: WebhookEvent['type']) => events.some((e) => e.type === type);
  // The last events may still be on their way.
  for (let i = 0; i < 100; i++) {
    const ended = events.filter((e) => e.type === 'call.ended').length;
    if (has('lead.answered') && has('import.completed') && ended >= 3) break;
    await sleep(100);
  }
  for (const e of events) {
    const phone = 'phone_number' in e.data ? e.data.phone_number : '';
    const crm = 'custom_fields' in e.data ? (e.data.custom_fields.crm_id ?? '') : '';
    console.log(`${e.type} ${phone} ${crm}`);
  }
  if (!has('import.completed') || !has('lead.answered')) throw new Error('the receiver did not get the expected events');
  console.log('\nexample (TypeScript): done');
}

main().catch((err: unknown) => {
  console.error(`example (TypeScript): ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
