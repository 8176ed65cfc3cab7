/**
 * A regular expression matcher that never backtracks: the pattern becomes a program of states, and a text
 * is read once, all the ways a match could go kept side by side (Thompson's construction, run as a Pike VM
 * without captures). Time is O(text length × program size) whatever the pattern, so `(a+)+$` costs what
 * `a+$` costs. It answers one question: does the pattern match somewhere in the text (RegExp.prototype.test).
 *
 * Syntax and meaning are JavaScript's without the `u` flag (code units, not code points): literals and
 * escapes (\n \t \xHH \uHHHH \cX, identity escapes), `.`, classes `[a-z]` `[^…]` with \d \w \s and their
 * negations, `^` `$` `\b` `\B`, groups `(…)` `(?:…)` `(?<name>…)`, alternation, and the quantifiers
 * `* + ? {n} {n,} {n,m}`, greedy or lazy (the same to a yes-or-no answer). Flags: i, m, s. Backreferences and
 * lookarounds cannot be matched without backtracking and are refused. Under `i`, characters are compared
 * by JavaScript's own case folding (see canonical); a class misses only the rare third character of a fold
 * (a class `[ς]` and σ).
 */

/** Program states a pattern may make (a counted repetition copies its part): bounds memory and time. */
export const LINEAR_REGEX_MAX_STATES = 10_000;

export const LINEAR_REGEX_MESSAGES = {
  backreference: 'Biểu thức regex không được dùng tham chiếu ngược (\\1, \\k<tên>)',
  lookaround: 'Biểu thức regex không được dùng lookahead/lookbehind ((?=, (?!, (?<=, (?<!)',
  tooLarge: `Biểu thức regex quá lớn: các phép lặp đếm ({n,m}) tạo quá ${LINEAR_REGEX_MAX_STATES.toLocaleString('en-US')} trạng thái`,
  unsupported: (what: string) => `Biểu thức regex dùng cú pháp chưa được hỗ trợ: ${what}`,
} as const;

type CharTest = (c: number) => boolean;
type Assertion = 'start' | 'end' | 'word' | 'notWord';
type Node =
  | { t: 'char'; test: CharTest }
  | { t: 'assert'; kind: Assertion }
  | { t: 'cat'; items: Node[] }
  | { t: 'alt'; items: Node[] }
  | { t: 'rep'; node: Node; min: number; max: number };

type Op =
  | { op: 'char'; test: CharTest; next: number }
  | { op: 'split'; a: number; b: number }
  | { op: 'jmp'; to: number }
  | { op: 'assert'; kind: Assertion; next: number }
  | { op: 'match' };

class RegexSyntaxError extends Error {}

const isLineEnd = (c: number) => c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;
const isDigit: CharTest = (c) => c >= 0x30 && c <= 0x39;
const isWord: CharTest = (c) =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
const isSpace: CharTest = (c) =>
  (c >= 0x09 && c <= 0x0d) ||
  c === 0x20 ||
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000 ||
  c === 0xfeff;
const not =
  (test: CharTest): CharTest =>
  (c) =>
    !test(c);

const CONTROL_ESCAPES: Record<string, number> = { n: 0x0a, r: 0x0d, t: 0x09, f: 0x0c, v: 0x0b };
const CLASS_ESCAPES: Record<string, CharTest> = {
  d: isDigit,
  D: not(isDigit),
  w: isWord,
  W: not(isWord),
  s: isSpace,
  S: not(isSpace),
};

class Parser {
  private i = 0;
  constructor(
    private readonly src: string,
    private readonly ignoreCase: boolean,
    private readonly dotAll: boolean,
  ) {}

  parse(): Node {
    const node = this.alternation();
    if (this.i < this.src.length) throw new RegexSyntaxError(`')' thừa ở vị trí ${this.i}`);
    return node;
  }

  private peek(offset = 0) {
    return this.src[this.i + offset];
  }

  private alternation(): Node {
    const items = [this.concat()];
    while (this.peek() === '|') {
      this.i++;
      items.push(this.concat());
    }
    return items.length === 1 ? items[0]! : { t: 'alt', items };
  }

  private concat(): Node {
    const items: Node[] = [];
    while (this.i < this.src.length && this.peek() !== '|' && this.peek() !== ')') {
      const atom = this.atom();
      items.push(this.quantified(atom));
    }
    return { t: 'cat', items };
  }

  private quantified(atom: Node): Node {
    let node = atom;
    for (;;) {
      const rest = this.src.slice(this.i, this.i + 40);
      const m = /^(?:([*+?])|\{(\d+)(?:(,)(\d*))?\})/.exec(rest);
      if (!m) return node;
      let min: number;
      let max: number;
      if (m[1] === '*') [min, max] = [0, Number.POSITIVE_INFINITY];
      else if (m[1] === '+') [min, max] = [1, Number.POSITIVE_INFINITY];
      else if (m[1] === '?') [min, max] = [0, 1];
      else {
        min = Number(m[2]);
        max = m[3] === undefined ? min : m[4] === '' ? Number.POSITIVE_INFINITY : Number(m[4]);
      }
      this.i += m[0].length;
      if (this.peek() === '?') this.i++;
      node = { t: 'rep', node, min, max };
    }
  }

  private literal(c: number): Node {
    if (!this.ignoreCase) return { t: 'char', test: (x) => x === c };
    const folded = canonical(c);
    return { t: 'char', test: (x) => x === c || canonical(x) === folded };
  }

  private atom(): Node {
    const ch = this.src[this.i++]!;
    switch (ch) {
      case '(':
        return this.group();
      case '[':
        return this.charClass();
      case '.':
        return { t: 'char', test: this.dotAll ? () => true : (c) => !isLineEnd(c) };
      case '^':
        return { t: 'assert', kind: 'start' };
      case '$':
        return { t: 'assert', kind: 'end' };
      case '\\':
        return this.escape();
      default:
        return this.literal(ch.charCodeAt(0));
    }
  }

  private group(): Node {
    if (this.peek() === '?') {
      const kind = this.src.slice(this.i, this.i + 3);
      if (/^\?[=!]|^\?<[=!]/.test(kind)) throw new RegexSyntaxError(LINEAR_REGEX_MESSAGES.lookaround);
      if (kind.startsWith('?:')) this.i += 2;
      else if (kind.startsWith('?<')) {
        const end = this.src.indexOf('>', this.i);
        if (end < 0) throw new RegexSyntaxError('tên nhóm không đóng');
        this.i = end + 1;
      } else throw new RegexSyntaxError(LINEAR_REGEX_MESSAGES.unsupported(`(${kind}`));
    }
    const inner = this.alternation();
    if (this.peek() !== ')') throw new RegexSyntaxError('thiếu )');
    this.i++;
    return inner;
  }

  /** An escape outside a class. */
  private escape(): Node {
    const ch = this.src[this.i] ?? '\\';
    if (ch === 'b' || ch === 'B') {
      this.i++;
      return { t: 'assert', kind: ch === 'b' ? 'word' : 'notWord' };
    }
    if (/[1-9]/.test(ch) || (ch === 'k' && this.src[this.i + 1] === '<'))
      throw new RegexSyntaxError(LINEAR_REGEX_MESSAGES.backreference);
    const test = CLASS_ESCAPES[ch];
    if (test) {
      this.i++;
      return { t: 'char', test };
    }
    return this.literal(this.escapedCode(false));
  }

  /** The code unit of a character escape (after the backslash). */
  private escapedCode(inClass: boolean): number {
    const ch = this.src[this.i++];
    if (ch === undefined) throw new RegexSyntaxError('\\ ở cuối biểu thức');
    if (ch in CONTROL_ESCAPES) return CONTROL_ESCAPES[ch]!;
    if (inClass && ch === 'b') return 0x08;
    if (ch === '0' && !/[0-9]/.test(this.peek() ?? '')) return 0;
    if (/[0-9]/.test(ch)) throw new RegexSyntaxError(LINEAR_REGEX_MESSAGES.unsupported(`\\${ch} (octal)`));
    if (ch === 'x' && /^[0-9a-fA-F]{2}/.test(this.src.slice(this.i))) {
      this.i += 2;
      return Number.parseInt(this.src.slice(this.i - 2, this.i), 16);
    }
    if (ch === 'u' && /^[0-9a-fA-F]{4}/.test(this.src.slice(this.i))) {
      this.i += 4;
      return Number.parseInt(this.src.slice(this.i - 4, this.i), 16);
    }
    if (ch === 'c' && /^[a-zA-Z]/.test(this.peek() ?? '')) return this.src.charCodeAt(this.i++) % 32;
    if (ch === 'c' || ch === 'p' || ch === 'P' || ch === 'k')
      throw new RegexSyntaxError(LINEAR_REGEX_MESSAGES.unsupported(`\\${ch}`));
    // An identity escape: \. \/ \x without hex digits reads as the letter itself.
    return ch.charCodeAt(0);
  }

  private charClass(): Node {
    const negated = this.peek() === '^';
    if (negated) this.i++;
    const tests: CharTest[] = [];
    const ranges: [number, number][] = [];
    // In JavaScript `[]` matches nothing and `[^]` anything: the first `]` closes the class.
    while (this.peek() !== ']') {
      if (this.i >= this.src.length) throw new RegexSyntaxError('thiếu ]');
      const low = this.classAtom();
      if (
        this.peek() === '-' &&
        this.peek(1) !== ']' &&
        this.peek(1) !== undefined &&
        typeof low === 'number'
      ) {
        this.i++;
        const high = this.classAtom();
        if (typeof high !== 'number') {
          // `[a-\d]`: outside the u flag, the dash is a dash.
          ranges.push([low, low], [0x2d, 0x2d]);
          tests.push(high);
        } else {
          if (high < low) throw new RegexSyntaxError('khoảng ký tự ngược thứ tự');
          ranges.push([low, high]);
        }
        continue;
      }
      if (typeof low === 'number') ranges.push([low, low]);
      else tests.push(low);
    }
    this.i++;
    const inSet = (c: number) => ranges.some(([a, b]) => c >= a && c <= b) || tests.some((t) => t(c));
    const matches = this.ignoreCase ? (c: number) => inSet(c) || caseVariants(c).some(inSet) : inSet;
    return { t: 'char', test: negated ? (c) => !matches(c) : matches };
  }

  private classAtom(): number | CharTest {
    const ch = this.src[this.i++]!;
    if (ch !== '\\') return ch.charCodeAt(0);
    const test = CLASS_ESCAPES[this.peek() ?? ''];
    if (test) {
      this.i++;
      return test;
    }
    return this.escapedCode(true);
  }
}

/** Canonical case of each code unit, filled as met: -1 not yet. */
const canonicalCase = new Int32Array(0x10000).fill(-1);

/**
 * JavaScript's case folding without the `u` flag (Canonicalize): the upper case, when it is one code unit
 * and does not take a non-ASCII character to an ASCII one.
 */
function canonical(c: number): number {
  const known = canonicalCase[c]!;
  if (known >= 0) return known;
  const upper = String.fromCharCode(c).toUpperCase();
  const folded = upper.length === 1 && !(c >= 128 && upper.charCodeAt(0) < 128) ? upper.charCodeAt(0) : c;
  canonicalCase[c] = folded;
  return folded;
}

/**
 * The other code units of the same canonical case as `c` that a class may hold: its canonical case and
 * that one's lower case (σ and ς both fold to Σ; a class holding only ς misses σ: rare enough).
 */
function caseVariants(c: number): number[] {
  const folded = canonical(c);
  const lower = String.fromCharCode(folded).toLowerCase();
  const variants = [folded];
  if (lower.length === 1 && canonical(lower.charCodeAt(0)) === folded) variants.push(lower.charCodeAt(0));
  return variants;
}

class Compiler {
  readonly prog: Op[] = [];

  private emit(op: Op): number {
    if (this.prog.length >= LINEAR_REGEX_MAX_STATES)
      throw new RegexSyntaxError(LINEAR_REGEX_MESSAGES.tooLarge);
    this.prog.push(op);
    return this.prog.length - 1;
  }

  /** Emits `node`; its last state goes on to the state emitted next. */
  compile(node: Node): void {
    switch (node.t) {
      case 'char':
        this.emit({ op: 'char', test: node.test, next: this.prog.length + 1 });
        return;
      case 'assert':
        this.emit({ op: 'assert', kind: node.kind, next: this.prog.length + 1 });
        return;
      case 'cat':
        for (const item of node.items) this.compile(item);
        return;
      case 'alt': {
        // split L1, next; L1: item; jmp end; next: split …
        const jumps: number[] = [];
        node.items.forEach((item, index) => {
          if (index < node.items.length - 1) {
            const split = this.emit({ op: 'split', a: this.prog.length + 1, b: -1 });
            this.compile(item);
            jumps.push(this.emit({ op: 'jmp', to: -1 }));
            (this.prog[split] as { b: number }).b = this.prog.length;
          } else this.compile(item);
        });
        for (const jump of jumps) (this.prog[jump] as { to: number }).to = this.prog.length;
        return;
      }
      case 'rep': {
        const { min, max } = node;
        for (let k = 0; k < min; k++) this.compile(node.node);
        if (max === Number.POSITIVE_INFINITY) {
          // loop: split body, end; body; jmp loop
          const loop = this.emit({ op: 'split', a: this.prog.length + 1, b: -1 });
          this.compile(node.node);
          this.emit({ op: 'jmp', to: loop });
          (this.prog[loop] as { b: number }).b = this.prog.length;
          return;
        }
        const splits: number[] = [];
        for (let k = min; k < max; k++) {
          splits.push(this.emit({ op: 'split', a: this.prog.length + 1, b: -1 }));
          this.compile(node.node);
        }
        for (const split of splits) (this.prog[split] as { b: number }).b = this.prog.length;
        return;
      }
    }
  }
}

export interface LinearRegex {
  /** Whether the pattern matches somewhere in `text`. */
  test(text: string): boolean;
  /** How many states the program has: a match costs at most this many steps per character. */
  readonly size: number;
}

/**
 * The pattern compiled for matching in linear time, or why it cannot be (in Vietnamese). Check it with
 * `new RegExp(pattern, flags)` too: this parser is lenient where JavaScript's is strict.
 */
export function compileLinearRegex(pattern: string, flags = ''): LinearRegex | string {
  let prog: Op[];
  try {
    const node = new Parser(pattern, flags.includes('i'), flags.includes('s')).parse();
    const compiler = new Compiler();
    compiler.compile(node);
    compiler.prog.push({ op: 'match' });
    prog = compiler.prog;
  } catch (error) {
    if (error instanceof RegexSyntaxError) return error.message;
    throw error;
  }
  const multiline = flags.includes('m');
  return { test: (text) => run(prog, text, multiline), size: prog.length };
}

function run(prog: readonly Op[], text: string, multiline: boolean): boolean {
  const n = text.length;
  const size = prog.length;
  // Each state is taken once per position: `mark[pc] === generation` when already in the list.
  const mark = new Int32Array(size).fill(-1);
  let current = new Int32Array(size);
  let next = new Int32Array(size);
  let currentCount = 0;
  let nextCount = 0;
  const stack = new Int32Array(2 * size + 2);
  const startAnchored = prog[0]?.op === 'assert' && prog[0].kind === 'start' && !multiline;

  const wordAt = (pos: number) => pos >= 0 && pos < n && isWord(text.charCodeAt(pos));
  const holds = (kind: Assertion, pos: number) => {
    switch (kind) {
      case 'start':
        return pos === 0 || (multiline && isLineEnd(text.charCodeAt(pos - 1)));
      case 'end':
        return pos === n || (multiline && isLineEnd(text.charCodeAt(pos)));
      case 'word':
        return wordAt(pos - 1) !== wordAt(pos);
      case 'notWord':
        return wordAt(pos - 1) === wordAt(pos);
    }
  };
  /** Adds `start` and every state reached from it without reading, at `pos`, to `list`; true on a match. */
  const add = (list: Int32Array, count: number, start: number, pos: number, generation: number) => {
    let top = 0;
    stack[top++] = start;
    let added = count;
    while (top > 0) {
      const pc = stack[--top]!;
      if (mark[pc] === generation) continue;
      mark[pc] = generation;
      const op = prog[pc]!;
      switch (op.op) {
        case 'jmp':
          stack[top++] = op.to;
          break;
        case 'split':
          stack[top++] = op.b;
          stack[top++] = op.a;
          break;
        case 'assert':
          if (holds(op.kind, pos)) stack[top++] = op.next;
          break;
        case 'match':
          return -1;
        default:
          list[added++] = pc;
      }
    }
    return added;
  };

  currentCount = add(current, 0, 0, 0, 0);
  if (currentCount < 0) return true;
  for (let pos = 0; pos < n; pos++) {
    const c = text.charCodeAt(pos);
    const generation = pos + 1;
    nextCount = 0;
    for (let k = 0; k < currentCount; k++) {
      const op = prog[current[k]!] as Extract<Op, { op: 'char' }>;
      if (op.test(c)) {
        nextCount = add(next, nextCount, op.next, pos + 1, generation);
        if (nextCount < 0) return true;
      }
    }
    // A match may also start at the next position (unless the pattern is anchored at the text's start).
    if (!startAnchored) {
      nextCount = add(next, nextCount, 0, pos + 1, generation);
      if (nextCount < 0) return true;
    }
    [current, next] = [next, current];
    currentCount = nextCount;
    if (currentCount === 0 && startAnchored) return false;
  }
  return false;
}
