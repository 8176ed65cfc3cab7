/**
 * What the verifier of an audit bundle says, as data (a code and its values) and in words: `en` for the
 * command line, `vi` for the verifier page. Each catalog has one sentence per code (the type `Catalog` makes a
 * missing one a compile error), so a message is written once per language and both say the same things.
 *
 * The Vietnamese keeps in English the terms the product keeps in English (bundle, checkpoint, leaf, stream,
 * hash, proof, signed note, origin, size) and names a checkpoint by its size as the product does
 * (`checkpoint #25`).
 */
import type { NoteProblem } from '../domain/audit/signed-note';

/** Which signed checkpoint a message is about. */
export type CheckpointOf = 'bundle' | 'given' | 'from' | 'to';

/** Why a signed note or a key was refused (as `NoteFailureReason` of the audit library). */
export type NoteReason = 'malformed' | 'no_signature_by_key' | 'invalid_signature';

export type { NoteProblem };

/** What is wrong with a field of a JSON input, from the first issue the schema found. */
export type FieldProblem =
  | { problem: 'type'; expected: string; received: string }
  | { problem: 'too-small'; origin: string; minimum: number }
  | { problem: 'too-big'; origin: string; maximum: number }
  | { problem: 'value'; values: string[] }
  | { problem: 'other' };

/** A place in a stream: the event at `position`, whose leaf in the log is `leaf`. */
interface At {
  stream: string;
  position: number;
  leaf: number | null;
}

/** Every message the verifier gives: its outcome, its warnings and its refusals. */
export type Message =
  // The outcome.
  | { code: 'verified'; events: number; size: number }
  // Warnings.
  | { code: 'own-key' }
  | { code: 'other-key'; key: string }
  // Refusals, in the order of the checks.
  | { code: 'not-json' }
  | { code: 'not-object' }
  | { code: 'format'; format: unknown; expected: string }
  | ({
      code: 'malformed';
      input: 'bundle' | 'consistency';
      path: string;
      /** The schema's own sentence, in English. */
      issue: string;
    } & FieldProblem)
  // `reason`: the audit library's English sentence; `problem`: what it says, as data, when malformed.
  | { code: 'bad-key'; key: 'given' | 'bundle'; reason: string; problem?: NoteProblem }
  | {
      code: 'checkpoint-signature';
      checkpoint: CheckpointOf;
      key: string;
      why: NoteReason;
      reason: string;
      problem?: NoteProblem;
    }
  | { code: 'checkpoint-origin'; checkpoint: CheckpointOf; origin: string; name: string }
  | { code: 'origin'; origin: string; signed: string }
  | { code: 'checkpoint-size'; size: number; signed: number }
  | { code: 'checkpoint-at'; at: string; signed: string | null }
  | { code: 'stream-twice'; stream: string }
  | ({ code: 'leaf-beyond'; size: number } & At)
  | ({ code: 'leaves-order' } & At)
  | ({ code: 'leaf-shared'; other: string } & At)
  | { code: 'positions-order'; stream: string; position: number }
  | ({ code: 'event-missing' } & At)
  | { code: 'position-missing'; stream: string; position: number }
  | { code: 'not-in-log'; stream: string; position: number }
  | ({ code: 'not-stream-leaf' } & At)
  | ({ code: 'proof-length'; hashes: number; expected: number; size: number } & At)
  | ({ code: 'leaf-changed'; size: number } & At)
  | ({ code: 'proof-hash'; index: number; bytes: number } & At)
  | { code: 'given-proof-hash'; index: number; bytes: number }
  | { code: 'bundle-proof-hash'; from: number; index: number; bytes: number }
  | { code: 'checkpoint-not-json' }
  | { code: 'consistency-sizes' }
  | { code: 'consistency-elsewhere'; from: number; to: number; size: number }
  | { code: 'checkpoint-later'; given: number; size: number }
  | { code: 'no-consistency'; from: number }
  | { code: 'not-extend'; later: number; earlier: number }
  | { code: 'rewritten'; size: number }
  | { code: 'unexpected'; error: string };

export type Code = Message['code'];
export type MessageOf<C extends Code> = Extract<Message, { code: C }>;

/** One language: a sentence for every code. */
export type Catalog = { readonly [C in Code]: (message: MessageOf<C>) => string };

/** What is malformed in a key or a signed note, in one language (the audit library says it in English). */
export type NoteProblemCatalog = {
  readonly [P in NoteProblem['problem']]: (problem: Extract<NoteProblem, { problem: P }>) => string;
};

/** The message in the words of `catalog`, every text it quotes from the input shown as `shown` shows it. */
export function render(catalog: Catalog, message: Message): string {
  const safe = Object.fromEntries(
    Object.entries(message).map(([field, value]) => [
      field,
      // The format is the input's value as it came (any JSON): `json` shows it.
      field === 'code' || field === 'format' ? value : shownValues(value),
    ]),
  ) as Message;
  return (catalog[message.code] as (message: Message) => string)(safe);
}

/** The longest text of the input a message quotes; the rest is cut (a stream ID is 46 characters). */
export const MAX_SHOWN = 120;

/**
 * Characters a message never prints as they are: control characters (a carriage return or an escape sequence
 * would let a bundle rewrite the verdict on a terminal), and the line separators and direction marks that
 * would reorder or hide the text around them.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it escapes
const UNSHOWN = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g;

/** A text of the input as a message quotes it: those characters escaped (`\u001b`), at most MAX_SHOWN long. */
export function shown(text: string): string {
  const escaped = text.replace(UNSHOWN, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return escaped.length > MAX_SHOWN ? `${escaped.slice(0, MAX_SHOWN - 1)}…` : escaped;
}

/** A message's values with each text shown (the values are this module's shapes: a text, a list, a record). */
function shownValues(value: unknown): unknown {
  if (typeof value === 'string') return shown(value);
  if (Array.isArray(value)) return value.map(shownValues);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shownValues(inner)]));
  }
  return value;
}

/** The deepest nesting a message quotes as JSON; a value nested deeper is named by its kind. */
const MAX_QUOTED_DEPTH = 64;

/**
 * Whether a value nests deeper than MAX_QUOTED_DEPTH, walked without recursion: a bundle may nest beyond any
 * stack, and whether JSON.stringify throws on it depends on the Node version.
 */
function nestedTooDeep(value: unknown): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth >= MAX_QUOTED_DEPTH) return true;
    for (const inner of Object.values(item)) pending.push([inner, depth + 1]);
  }
  return false;
}

/**
 * A value quoted as JSON, at most MAX_SHOWN long: a text shown in quotes (showing it again changes nothing),
 * any other value of the input as JSON writes it, or `[…]` or `{…}` when nested too deep to quote.
 */
const json = (value: unknown): string => {
  if (typeof value === 'string') return `"${shown(value)}"`;
  if (nestedTooDeep(value)) return Array.isArray(value) ? '[…]' : '{…}';
  return shown(JSON.stringify(value ?? null));
};

const enWhere = ({ stream, position, leaf }: At) => `stream ${stream} position ${position} (leaf ${leaf})`;

const enCheckpoint: Record<CheckpointOf, string> = {
  bundle: "the bundle's checkpoint",
  given: 'the checkpoint given',
  from: 'the consistency proof\'s "from" checkpoint',
  to: 'the consistency proof\'s "to" checkpoint',
};

const enHash = (index: number, bytes: number) => `hash ${index} is not the base64 of a ${bytes}-byte hash`;

export const en: Catalog = {
  verified: ({ events, size }) => `verified ${events} events up to checkpoint ${size}`,
  'own-key': () =>
    "the key is the bundle's own: this shows the bundle agrees with itself, not that it is the log's; get the log's public key from elsewhere and check with it",
  'other-key': ({ key }) => `the bundle names another key (${key}); it was checked with the key given`,
  'not-json': () => 'the bundle is not JSON',
  'not-object': () => 'the bundle is not a JSON object',
  format: ({ format, expected }) => `the bundle's format is ${json(format)}, not ${expected}`,
  malformed: ({ input, path, issue }) =>
    `${input === 'bundle' ? 'the bundle' : 'the consistency proof given'} is malformed: ${path === '' ? '' : `${path}: `}${issue}`,
  'bad-key': ({ key, reason }) =>
    `${key === 'given' ? 'the key given' : "the bundle's publicKey"} is not a verifier key: ${reason}`,
  'checkpoint-signature': ({ checkpoint, key, reason }) =>
    `${enCheckpoint[checkpoint]} does not verify with the key ${key}: ${reason}`,
  'checkpoint-origin': ({ checkpoint, origin, name }) =>
    `${enCheckpoint[checkpoint]}'s origin ${json(origin)} is not the key's name ${json(name)}`,
  origin: ({ origin, signed }) =>
    `the bundle's origin ${json(origin)} is not the checkpoint's ${json(signed)}`,
  'checkpoint-size': ({ size, signed }) =>
    `the bundle's checkpoint.size ${size} is not the size its signed note gives, ${signed}`,
  'checkpoint-at': ({ at, signed }) =>
    `the bundle's checkpoint.at ${json(at)} is not the time its signed note gives, ${json(signed)}`,
  'stream-twice': ({ stream }) => `stream ${stream} is listed twice`,
  'leaf-beyond': (m) => `${enWhere(m)}: the leaf is not below the checkpoint's size ${m.size}`,
  'leaves-order': (m) => `${enWhere(m)}: the stream's leaves are not listed once each, by index`,
  'leaf-shared': (m) => `${enWhere(m)}: the leaf is listed for stream ${m.other} as well`,
  'positions-order': ({ stream, position }) =>
    `stream ${stream} position ${position}: listed twice or out of order (the positions must run 1..n)`,
  'event-missing': (m) => `${enWhere(m)}: the event the log holds is missing or was replaced`,
  'position-missing': ({ stream, position }) =>
    `stream ${stream} position ${position}: missing (the positions must run 1..n)`,
  'not-in-log': ({ stream, position }) => `stream ${stream} position ${position}: not in the log`,
  'not-stream-leaf': ({ stream, position, leaf }) =>
    `stream ${stream} position ${position}: not in the log (leaf ${leaf} is not one of the stream's leaves at this position)`,
  'proof-length': (m) =>
    `${enWhere(m)}: the proof has ${m.hashes} hashes, where a leaf ${m.leaf} of a tree of ${m.size} has ${m.expected}`,
  'leaf-changed': (m) => `${enWhere(m)}: does not match the log at checkpoint ${m.size} (changed)`,
  'proof-hash': (m) => `${enWhere(m)}: proof ${enHash(m.index, m.bytes)}`,
  'given-proof-hash': ({ index, bytes }) => `the consistency proof given: ${enHash(index, bytes)}`,
  'bundle-proof-hash': ({ from, index, bytes }) =>
    `the bundle's consistency proof from ${from}: ${enHash(index, bytes)}`,
  'checkpoint-not-json': () => 'the checkpoint given is not JSON (nor a signed note)',
  'consistency-sizes': () => "the consistency proof's sizes are not the ones its signed checkpoints give",
  'consistency-elsewhere': ({ from, to, size }) =>
    `the consistency proof given is between checkpoints ${from} and ${to}; neither is the bundle's checkpoint ${size}`,
  'checkpoint-later': ({ given, size }) =>
    `the checkpoint given (${given}) is later than the bundle's (${size}) and the bundle holds no proof to it: give the consistency proof from ${size} to ${given} (GET /api/audit/proofs/consistency?from=${size}&to=${given}) instead`,
  'no-consistency': ({ from }) =>
    `the bundle holds no consistency proof from checkpoint ${from} (ask for the bundle with ?since=${from})`,
  'not-extend': ({ later, earlier }) =>
    `the log at checkpoint ${later} does not extend checkpoint ${earlier} (cut or rewritten)`,
  rewritten: ({ size }) =>
    `the log at checkpoint ${size} is not the one the checkpoint given shows at the same size: another root (rewritten)`,
  unexpected: ({ error }) => `the bundle could not be checked: ${error}`,
};

const viWhere = ({ stream, position, leaf }: At) => `stream ${stream}, vị trí ${position} (leaf ${leaf})`;

const viCheckpoint: Record<CheckpointOf, string> = {
  bundle: 'checkpoint của bundle',
  given: 'checkpoint được đưa vào',
  from: 'checkpoint "from" của consistency proof',
  to: 'checkpoint "to" của consistency proof',
};

const viType = (type: string) =>
  ({ number: 'số', int: 'số nguyên', string: 'chuỗi', array: 'mảng', object: 'object' })[type] ?? type;

const viProblem = (problem: FieldProblem): string => {
  switch (problem.problem) {
    case 'type':
      return problem.received === 'undefined'
        ? `bị thiếu (cần ${viType(problem.expected)})`
        : `cần ${viType(problem.expected)}, nhưng là ${viType(problem.received)}`;
    case 'too-small':
      if (problem.origin === 'string') return 'không được để trống';
      if (problem.origin === 'array') return `cần ít nhất ${problem.minimum} phần tử`;
      return `phải lớn hơn hoặc bằng ${problem.minimum}`;
    case 'too-big':
      if (problem.origin === 'array') return `có quá nhiều phần tử (tối đa ${problem.maximum})`;
      return `phải nhỏ hơn hoặc bằng ${problem.maximum}`;
    case 'value':
      return `phải là một trong ${problem.values.map(json).join(', ')}`;
    default:
      return 'không hợp lệ';
  }
};

export const viNoteProblem: NoteProblemCatalog = {
  'verifier-key-syntax': () => 'một verifier key có dạng <tên>+<key ID>+<khóa>',
  'signer-key-syntax': () => 'một signer key có dạng PRIVATE+KEY+<tên>+<key ID>+<khóa>',
  'key-not-ed25519': () => 'khóa không phải public key Ed25519',
  'key-id-mismatch': () => 'key ID không khớp với tên và khóa này',
  'key-name': () => 'tên khóa trống hoặc chứa dấu cách hay dấu cộng',
  'key-id-syntax': () => 'key ID không phải 8 chữ số thập lục phân viết thường',
  'key-not-base64': () => 'khóa không phải base64',
  'key-type': () => 'khóa không phải khóa Ed25519 (loại 0x01)',
  'key-length': () => 'khóa Ed25519 phải có 32 byte',
  'note-text': () =>
    'nội dung của note phải là văn bản Unicode kết thúc bằng xuống dòng, không có ký tự điều khiển nào khác',
  'checkpoint-lines': () => 'checkpoint phải có ít nhất ba dòng: origin, size và root hash',
  'origin-empty': () => 'dòng origin trống',
  'size-syntax': () => 'size không phải số thập phân không có số 0 ở đầu',
  'size-too-large': () => 'size quá lớn',
  'root-hash': ({ bytes }) => `root hash không phải base64 của ${bytes} byte`,
  'extension-empty': () => 'có một dòng extension trống',
  'note-control': () => 'note chứa ký tự điều khiển khác xuống dòng',
  'note-unicode': () => 'note không phải văn bản Unicode hợp lệ',
  'no-blank-line': () => 'note không có dòng trống giữa nội dung và các chữ ký',
  'no-signature-line': () => 'note không có dòng chữ ký nào sau dòng trống',
  'signature-newline': () => 'dòng chữ ký cuối cùng không kết thúc bằng xuống dòng',
  'too-many-signatures': ({ limit }) => `note có hơn ${limit} chữ ký`,
  'signature-line': ({ line }) => `không phải dòng chữ ký "— <tên khóa> <chữ ký base64>": ${json(line)}`,
  'signature-payload': ({ name }) => `chữ ký của ${name} không phải base64 của một key ID và một chữ ký`,
};

const viNote = (problem: NoteProblem | undefined, reason: string) =>
  problem === undefined
    ? reason
    : (viNoteProblem[problem.problem] as (problem: NoteProblem) => string)(problem);

const viHash = (index: number, bytes: number) => `hash ${index} không phải base64 của một hash ${bytes} byte`;

export const vi: Catalog = {
  verified: ({ events, size }) => `Đã xác minh ${events} sự kiện, tính đến checkpoint #${size}`,
  'own-key': () =>
    'khóa dùng để kiểm tra là khóa của chính bundle: kết quả này chỉ cho thấy bundle khớp với chính nó, không chứng minh nó là của log; hãy lấy public key của log từ nguồn khác và kiểm tra lại bằng khóa đó',
  'other-key': ({ key }) =>
    `bundle ghi một khóa khác (${key}); bundle đã được kiểm tra bằng khóa được đưa vào`,
  'not-json': () => 'bundle không phải JSON',
  'not-object': () => 'bundle không phải một object JSON',
  format: ({ format, expected }) => `format của bundle là ${json(format)}, không phải ${expected}`,
  malformed: (m) =>
    `${m.input === 'bundle' ? 'bundle' : 'consistency proof được đưa vào'} không đúng cấu trúc: ${m.path === '' ? '' : `trường ${m.path} `}${viProblem(m)}`,
  'bad-key': ({ key, reason, problem }) =>
    `${key === 'given' ? 'khóa được đưa vào' : 'publicKey của bundle'} không phải verifier key: ${viNote(problem, reason)}`,
  'checkpoint-signature': ({ checkpoint, key, why, reason, problem }) =>
    why === 'invalid_signature'
      ? `${viCheckpoint[checkpoint]} không xác minh được bằng khóa ${key}: chữ ký không hợp lệ (nội dung hoặc chữ ký của checkpoint đã bị sửa)`
      : why === 'no_signature_by_key'
        ? `${viCheckpoint[checkpoint]} không xác minh được bằng khóa ${key}: không có chữ ký nào của khóa này`
        : `${viCheckpoint[checkpoint]} không xác minh được bằng khóa ${key}: signed note không đọc được: ${viNote(problem, reason)}`,
  'checkpoint-origin': ({ checkpoint, origin, name }) =>
    `origin của ${viCheckpoint[checkpoint]} là ${json(origin)}, không phải tên của khóa ${json(name)}`,
  origin: ({ origin, signed }) =>
    `origin của bundle là ${json(origin)}, không phải origin của checkpoint ${json(signed)}`,
  'checkpoint-size': ({ size, signed }) =>
    `checkpoint.size của bundle là ${size}, khác với size mà signed note của nó ghi (${signed})`,
  'checkpoint-at': ({ at, signed }) =>
    `checkpoint.at của bundle là ${json(at)}, khác với thời điểm mà signed note của nó ghi (${json(signed)})`,
  'stream-twice': ({ stream }) => `stream ${stream} được liệt kê hai lần`,
  'leaf-beyond': (m) =>
    `${viWhere(m)}: leaf nằm ngoài log tại checkpoint #${m.size} (index của leaf phải nhỏ hơn ${m.size})`,
  'leaves-order': (m) =>
    `${viWhere(m)}: các leaf của stream không được liệt kê mỗi leaf một lần, theo thứ tự index`,
  'leaf-shared': (m) => `${viWhere(m)}: leaf này cũng được liệt kê cho stream ${m.other}`,
  'positions-order': ({ stream, position }) =>
    `stream ${stream}, vị trí ${position}: bị lặp hoặc sai thứ tự (các vị trí phải chạy liên tục 1..n)`,
  'event-missing': (m) => `${viWhere(m)}: sự kiện mà log lưu ở vị trí này bị thiếu hoặc đã bị thay thế`,
  'position-missing': ({ stream, position }) =>
    `stream ${stream}, vị trí ${position}: bị thiếu (các vị trí phải chạy liên tục 1..n)`,
  'not-in-log': ({ stream, position }) => `stream ${stream}, vị trí ${position}: không có trong log`,
  'not-stream-leaf': ({ stream, position, leaf }) =>
    `stream ${stream}, vị trí ${position}: không có trong log (leaf ${leaf} không phải leaf của stream ở vị trí này)`,
  'proof-length': (m) =>
    `${viWhere(m)}: proof có ${m.hashes} hash, trong khi proof của leaf ${m.leaf} trong cây ${m.size} leaf phải có ${m.expected}`,
  'leaf-changed': (m) => `${viWhere(m)}: không khớp với log tại checkpoint #${m.size} (đã bị thay đổi)`,
  'proof-hash': (m) =>
    `${viWhere(m)}: hash ${m.index} của proof không phải base64 của một hash ${m.bytes} byte`,
  'given-proof-hash': ({ index, bytes }) => `consistency proof được đưa vào: ${viHash(index, bytes)}`,
  'bundle-proof-hash': ({ from, index, bytes }) =>
    `consistency proof từ checkpoint #${from} trong bundle: ${viHash(index, bytes)}`,
  'checkpoint-not-json': () => 'checkpoint được đưa vào không phải JSON (cũng không phải signed note)',
  'consistency-sizes': () =>
    'các size trong consistency proof khác với size mà các checkpoint đã ký của nó ghi',
  'consistency-elsewhere': ({ from, to, size }) =>
    `consistency proof được đưa vào là giữa checkpoint #${from} và checkpoint #${to}; không cái nào là checkpoint #${size} của bundle`,
  'checkpoint-later': ({ given, size }) =>
    `checkpoint được đưa vào (#${given}) mới hơn checkpoint của bundle (#${size}) và bundle không có proof đến nó: hãy đưa vào consistency proof từ ${size} đến ${given} (GET /api/audit/proofs/consistency?from=${size}&to=${given})`,
  'no-consistency': ({ from }) =>
    `bundle không có consistency proof từ checkpoint #${from} (hãy lấy lại bundle với ?since=${from})`,
  'not-extend': ({ later, earlier }) =>
    `log tại checkpoint #${later} không nối tiếp checkpoint #${earlier} (log đã bị cắt hoặc bị viết lại)`,
  rewritten: ({ size }) =>
    `log tại checkpoint #${size} khác với log mà checkpoint được đưa vào cho thấy ở cùng size: root hash khác (log đã bị viết lại)`,
  unexpected: ({ error }) => `không kiểm tra được bundle: ${error}`,
};
