// The client's form submissions, newest first, read-only, page by page.

import { api, attempt } from '../../shared/api';
import { alertBox, h, replace, table } from '../../shared/dom';
import { when } from '../../shared/time';

const pageSize = 20;

export function formsPage(main: HTMLElement): void {
  const problem = alertBox();
  const list = h('div', { 'aria-busy': 'true' });
  replace(main, h('h1', {}, 'Form submissions'), problem, list);
  const show = async (page: number) => {
    const d = await attempt(problem, () => api.GET('/api/v2/portal/form-submissions', { params: { query: { page, page_size: pageSize } } }));
    list.setAttribute('aria-busy', 'false');
    if (!d) return;
    const pages = Math.max(1, Math.ceil(d.meta.total / pageSize));
    const answers = (data: Record<string, unknown>) =>
      h('dl', { class: 'answers' }, ...Object.entries(data).map(([k, v]) => h('div', {}, h('dt', {}, k), h('dd', {}, typeof v === 'string' ? v : JSON.stringify(v)))));
    replace(
      list,
      table(
        ['Submitted', 'Form', 'Answers', 'Test'],
        d.data.map((s) => [when(s.submitted_at), s.form_title, answers(s.response_data as Record<string, unknown>), s.is_test ? 'yes' : 'no']),
        'Form submissions, newest first',
      ),
      h(
        'div',
        { class: 'pager' },
        h('button', { type: 'button', disabled: page <= 1, onclick: () => void show(page - 1) }, 'Previous page'),
        h('span', {}, `Page ${page} of ${pages} (${d.meta.total} submission${d.meta.total === 1 ? '' : 's'})`),
        h('button', { type: 'button', disabled: page >= pages, onclick: () => void show(page + 1) }, 'Next page'),
      ),
    );
  };
  void show(1);
}
