// The tenant's phone number pools, which POOL campaigns call from: listed
// with each number's calls today and the calls left today, made, changed
// (given ids replace the numbers) and deleted (refused while a campaign
// that has not ended uses the pool).

import { api, attempt, ok, onSubmit, type Schemas } from '../../shared/api';
import { alertBox, field, h, replace, table } from '../../shared/dom';
import { may } from '../session';

type Pool = Schemas['PhoneNumberPool'];

const idsHint = "One id per line, 1 to 100: the provider's ids, as a campaign's phone number id.";
const capHint = 'The calls each number may place a day.';
const zoneHint = "An IANA zone; the pool's days, and so its caps, are counted in it.";

// A text area's ids, one a line (blank lines left out).
const idsOf = (text: HTMLTextAreaElement): string[] =>
  text.value
    .split('\n')
    .map((x) => x.trim())
    .filter(Boolean);

export function poolsPage(main: HTMLElement): void {
  const problem = alertBox();
  const done = h('p', { role: 'status' });
  const list = h('div');
  const editing = h('div');
  const writable = may('campaigns:write');

  async function show(): Promise<void> {
    const data = await attempt(problem, () => api.GET('/api/v2/phone-number-pools', { params: { query: { page_size: 100 } } }));
    if (!data) return;
    replace(
      list,
      table(
        ['Name', 'Numbers', 'Daily cap per number', 'Time zone', 'Calls left today', 'Actions'],
        data.data.map((p) => [
          p.name,
          h(
            'div',
            {},
            ...p.numbers.map((n) => h('div', {}, h('code', {}, n.phone_number_id), `: ${n.calls_today} ${n.calls_today === 1 ? 'call' : 'calls'} today`)),
          ),
          p.daily_cap_per_number,
          p.timezone,
          p.calls_left_today,
          writable &&
            h(
              'div',
              { class: 'row-actions' },
              h('button', { type: 'button', onclick: () => edit(p) }, `Edit ${p.name}`),
              h(
                'button',
                {
                  type: 'button',
                  class: 'danger',
                  onclick: () => {
                    if (confirm(`Delete the pool ${p.name}? Its numbers and their calls today go with it.`))
                      void act(() => api.DELETE('/api/v2/phone-number-pools/{pool_id}', { params: { path: { pool_id: p.id } } }));
                  },
                },
                `Delete ${p.name}`,
              ),
            ),
        ]),
        'Number pools',
      ),
      data.meta.total > data.data.length && h('p', {}, `The first ${data.data.length} of ${data.meta.total} pools are shown.`),
    );
  }

  async function act(request: () => Promise<{ data?: { message: string }; error?: unknown; response: Response }>): Promise<void> {
    problem.textContent = '';
    done.textContent = '';
    const answer = await attempt(problem, request);
    if (answer === null) return;
    done.textContent = answer.message;
    replace(editing);
    await show();
  }

  // A pool's change, below the list: only what changed is sent.
  function edit(p: Pool): void {
    const wrong = alertBox();
    const ids = p.numbers.map((n) => n.phone_number_id);
    const name = h('input', { type: 'text', maxlength: 255, required: true, value: p.name });
    const numbers = h('textarea', { rows: Math.min(Math.max(ids.length + 1, 3), 12), required: true });
    numbers.value = ids.join('\n');
    const cap = h('input', { type: 'number', min: 1, max: 100000, required: true, value: p.daily_cap_per_number });
    const zone = h('input', { type: 'text', maxlength: 64, required: true, value: p.timezone });
    const form = h(
      'form',
      {
        onsubmit: onSubmit(wrong, async () => {
          done.textContent = '';
          const body: Schemas['PhoneNumberPoolUpdate'] = {};
          if (name.value !== p.name) body.name = name.value;
          const given = idsOf(numbers);
          if (given.join('\n') !== ids.join('\n')) body.phone_number_ids = given;
          if (Number(cap.value) !== p.daily_cap_per_number) body.daily_cap_per_number = Number(cap.value);
          if (zone.value !== p.timezone) body.timezone = zone.value;
          if (Object.keys(body).length) {
            const changed = await ok(api.PATCH('/api/v2/phone-number-pools/{pool_id}', { params: { path: { pool_id: p.id } }, body }));
            done.textContent = changed.message;
          }
          replace(editing);
          await show();
        }),
      },
      h(
        'fieldset',
        {},
        h('legend', {}, `Edit ${p.name}`),
        wrong,
        field('Name', name),
        field('Phone number ids', numbers, `${idsHint} A number kept keeps its calls today.`),
        field('Daily cap per number', cap, capHint),
        field('Time zone', zone, zoneHint),
        h(
          'div',
          { class: 'actions' },
          h('button', { type: 'submit' }, `Save ${p.name}`),
          h('button', { type: 'button', onclick: () => replace(editing) }, 'Cancel'),
        ),
      ),
    );
    replace(editing, form);
    name.focus();
  }

  const name = h('input', { type: 'text', maxlength: 255, required: true });
  const numbers = h('textarea', { rows: 4, required: true });
  const cap = h('input', { type: 'number', min: 1, max: 100000, required: true, value: 100 });
  const zone = h('input', { type: 'text', maxlength: 64, required: true, value: 'UTC' });
  const create = h(
    'form',
    {
      onsubmit: onSubmit(problem, async () => {
        done.textContent = '';
        const body: Schemas['PhoneNumberPoolCreate'] = {
          name: name.value,
          phone_number_ids: idsOf(numbers),
          daily_cap_per_number: Number(cap.value),
          timezone: zone.value,
        };
        const made = await ok(api.POST('/api/v2/phone-number-pools', { body }));
        done.textContent = made.message;
        create.reset();
        await show();
      }),
    },
    h(
      'fieldset',
      {},
      h('legend', {}, 'New number pool'),
      field('Name', name),
      field('Phone number ids', numbers, idsHint),
      field('Daily cap per number', cap, capHint),
      field('Time zone', zone, zoneHint),
      h('button', { type: 'submit' }, 'Create pool'),
    ),
  );

  replace(
    main,
    h('h1', {}, 'Number pools'),
    h('p', {}, "A campaign with the POOL dialer calls from a pool's numbers, each up to the pool's daily cap."),
    writable && create,
    problem,
    done,
    list,
    editing,
  );
  void show();
}
