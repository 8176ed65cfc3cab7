/**
 * The verifier page's script (bundled as one inline script into dist/audit-verify.html): the same checks as
 * the command-line verifier, on files the user picks or drops, in the browser, offline. It speaks Vietnamese:
 * the checks' messages in the words of messages.ts's `vi`.
 */
import './jitless';
import { render, shown, vi } from './messages';
import { checkBundle } from './verify-bundle';

const FIELDS = ['bundle', 'key', 'checkpoint'] as const;
type Field = (typeof FIELDS)[number];

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`the page has no #${id}`);
  return found as T;
}

/** The files dropped on each field's zone, which take the place of the one its input picked. */
const dropped = new Map<Field, File>();

function fileOf(field: Field): File | undefined {
  return dropped.get(field) ?? element<HTMLInputElement>(field).files?.[0];
}

/** The chosen file's text (by FileReader, which every browser has), or undefined if none was chosen. */
function textOf(field: Field): Promise<string | undefined> {
  const file = fileOf(field);
  if (!file) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(file, 'utf-8');
  });
}

function show(ok: boolean, lines: { text: string; className?: string }[]): void {
  const result = element<HTMLElement>('result');
  result.replaceChildren(
    ...lines.map(({ text, className }) => {
      const p = document.createElement('p');
      p.textContent = text;
      if (className) p.className = className;
      return p;
    }),
  );
  result.className = ok ? 'ok' : 'fail';
  result.hidden = false;
}

async function verify(): Promise<void> {
  if (!fileOf('bundle')) {
    show(false, [{ text: 'Không xác minh được: chưa chọn tệp bundle.' }]);
    return;
  }
  let bundle: string;
  let key: string | undefined;
  let checkpoint: string | undefined;
  try {
    bundle = (await textOf('bundle'))!;
    const pasted = element<HTMLInputElement>('key-text').value.trim();
    key = pasted !== '' ? pasted : await textOf('key');
    checkpoint = await textOf('checkpoint');
  } catch (error) {
    show(false, [{ text: `Không xác minh được: không đọc được tệp: ${String(error)}` }]);
    return;
  }
  const result = checkBundle(bundle, {
    ...(key === undefined ? {} : { key }),
    ...(checkpoint === undefined ? {} : { checkpoint }),
  });
  if (result.ok) {
    show(true, [
      { text: render(vi, result.message), className: 'message' },
      ...result.warnings.map((warning) => ({
        text: `Cảnh báo: ${render(vi, warning)}`,
        className: 'warning',
      })),
    ]);
  } else {
    show(false, [{ text: `Không xác minh được: ${render(vi, result.message)}`, className: 'message' }]);
  }
}

function setUp(): void {
  for (const zone of document.querySelectorAll<HTMLElement>('.drop')) {
    const field = zone.dataset.for as Field;
    const input = element<HTMLInputElement>(field);
    const hint = zone.querySelector('small');
    const hintText = hint?.textContent ?? '';
    input.addEventListener('change', () => {
      dropped.delete(field);
      if (hint) hint.textContent = hintText;
    });
    zone.addEventListener('dragover', (event) => {
      event.preventDefault();
      zone.classList.add('over');
    });
    zone.addEventListener('dragleave', () => zone.classList.remove('over'));
    zone.addEventListener('drop', (event) => {
      event.preventDefault();
      zone.classList.remove('over');
      const file = event.dataTransfer?.files[0];
      if (!file) return;
      dropped.set(field, file);
      input.value = '';
      if (hint) hint.textContent = `Đã chọn: ${file.name}`;
    });
  }
  // A file dropped outside a zone would otherwise replace the page with the file.
  window.addEventListener('dragover', (event) => event.preventDefault());
  window.addEventListener('drop', (event) => event.preventDefault());
  const button = element<HTMLButtonElement>('verify');
  const label = button.textContent;
  element<HTMLFormElement>('form').addEventListener('submit', (event) => {
    event.preventDefault();
    if (button.disabled) return;
    // A large bundle takes a few seconds: the button says so, and the page draws that before the check runs.
    button.disabled = true;
    button.textContent = 'Đang kiểm tra…';
    setTimeout(() => {
      void verify()
        .catch((error: unknown) => {
          show(false, [{ text: `Không xác minh được: ${shown(String(error))}`, className: 'message' }]);
        })
        .finally(() => {
          button.disabled = false;
          button.textContent = label;
        });
    }, 20);
  });
}

setUp();
