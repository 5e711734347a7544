// Builds elements from text and attributes only: nothing from the API is
// ever parsed as HTML, so no value can become markup or script.

export type Child = Node | string | number | null | undefined | false;
type Handler = (event: Event) => void;
export type Attrs = Record<string, string | number | boolean | Handler | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.slice(2).toLowerCase(), value);
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  append(el, ...children);
  return el;
}

export function append(el: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

export function replace(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, ...children);
}

let ids = 0;
// A labelled form field: the label names the input for screen readers.
export function field(label: string, input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement, hint?: string): HTMLElement {
  input.id ||= `f${++ids}`;
  const parts: Child[] = [h('label', { for: input.id }, label), input];
  if (hint) {
    const hintId = `${input.id}-hint`;
    input.setAttribute('aria-describedby', hintId);
    parts.push(h('small', { id: hintId }, hint));
  }
  return h('div', { class: 'field' }, ...parts);
}

export function table(headers: string[], rows: Child[][], caption: string): HTMLElement {
  return h(
    'div',
    { class: 'table-wrap', role: 'region', 'aria-label': caption, tabindex: 0 },
    h(
      'table',
      {},
      h('caption', { class: 'sr-only' }, caption),
      h('thead', {}, h('tr', {}, ...headers.map((t) => h('th', { scope: 'col' }, t)))),
      h(
        'tbody',
        {},
        ...(rows.length
          ? rows.map((r) => h('tr', {}, ...r.map((c) => h('td', {}, c))))
          : [h('tr', {}, h('td', { colspan: headers.length }, 'None yet.'))]),
      ),
    ),
  );
}

// A region that says what went wrong, read out when it changes.
export function alertBox(): HTMLElement {
  return h('div', { class: 'alert', role: 'alert' });
}

// A read-only value with a button that copies it.
export function copyable(label: string, value: string): HTMLElement {
  const input = h('input', { type: 'text', readonly: true, value, class: 'secret' });
  const done = h('span', { role: 'status', class: 'copied' });
  const button = h(
    'button',
    {
      type: 'button',
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(value);
          done.textContent = 'Copied';
        } catch {
          input.select();
          done.textContent = 'Select and copy it by hand';
        }
      },
    },
    'Copy',
  );
  return h('div', { class: 'copy' }, field(label, input), button, done);
}
