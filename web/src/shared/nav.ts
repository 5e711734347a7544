// Moving between the console's pages without a reload.

let show: () => void = () => {};

export function onNavigate(render: () => void): void {
  show = render;
}

export function go(path: string): void {
  history.pushState(null, '', path);
  show();
}
