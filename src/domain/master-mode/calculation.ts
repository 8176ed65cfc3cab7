/**
 * The arithmetic of a calculation row: numbers, `[[row-N]]` results, + - * / %, parentheses, decimals
 * and unary minus. A small recursive-descent parser over a token list; nothing is ever evaluated as
 * code, and the size of the work is bounded before any of it is done.
 */

export const MAX_EXPRESSION_LENGTH = 1_000;
export const MAX_NESTING = 40;
const MAX_NUMBER_DIGITS = 30;

/** A calculation the user can fix: the message says what is wrong and where. */
export class CalculationError extends Error {
  override name = 'CalculationError';
}

type Token =
  | { kind: 'number'; value: number; at: number }
  | { kind: 'row'; row: number; at: number }
  | { kind: 'operator'; value: '+' | '-' | '*' | '/' | '%'; at: number }
  | { kind: 'open' | 'close'; at: number }
  | { kind: 'end'; at: number };

const ROW_TOKEN = /^\[\[\s*row[-_](\d{1,6})\s*\]\]/i;
const NUMBER_TOKEN = /^(\d+(\.\d*)?|\.\d+)/;

function tokenize(expression: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < expression.length) {
    const char = expression[i]!;
    if (/\s/.test(char)) {
      i++;
      continue;
    }
    const rest = expression.slice(i, i + 40);
    const row = ROW_TOKEN.exec(rest);
    if (row) {
      tokens.push({ kind: 'row', row: Number(row[1]), at: i });
      i += row[0].length;
      continue;
    }
    const number = NUMBER_TOKEN.exec(expression.slice(i, i + MAX_NUMBER_DIGITS + 2));
    if (number) {
      if (number[0].replace('.', '').length > MAX_NUMBER_DIGITS) {
        throw new CalculationError(`Số ở vị trí ${i + 1} quá dài`);
      }
      tokens.push({ kind: 'number', value: Number(number[0]), at: i });
      i += number[0].length;
      continue;
    }
    if (char === '+' || char === '-' || char === '*' || char === '/' || char === '%') {
      tokens.push({ kind: 'operator', value: char, at: i });
    } else if (char === '(') {
      tokens.push({ kind: 'open', at: i });
    } else if (char === ')') {
      tokens.push({ kind: 'close', at: i });
    } else {
      throw new CalculationError(
        `Ký tự "${char}" không hợp lệ ở vị trí ${i + 1}: phép tính chỉ được chứa số, [[row-N]], + - * / % và dấu ngoặc`,
      );
    }
    i++;
  }
  tokens.push({ kind: 'end', at: expression.length });
  return tokens;
}

/** A row's result as a number: plain decimal text only (surrounding spaces allowed). */
export function numberOfResult(row: number, result: string | undefined): number {
  const label = `Dòng ${String(row).padStart(3, '0')}`;
  if (result === undefined) throw new CalculationError(`[[row-${row}]]: session không có dòng ${row}`);
  const text = result.trim();
  if (text === '') throw new CalculationError(`${label} chưa có kết quả`);
  if (!/^-?(\d+(\.\d*)?|\.\d+)$/.test(text) || text.length > MAX_NUMBER_DIGITS + 2) {
    throw new CalculationError(`Kết quả của ${label} không phải là số: "${text.slice(0, 40)}"`);
  }
  return Number(text);
}

function checked(value: number): number {
  if (!Number.isFinite(value)) throw new CalculationError('Kết quả quá lớn');
  return value;
}

/** Evaluates `expression`; `results[0]` is row 1's result. */
export function evaluateCalculation(expression: string, results: readonly string[]): number {
  if (expression.trim() === '') throw new CalculationError('Hãy nhập một phép tính, ví dụ [[row-1]] * 2');
  if (expression.length > MAX_EXPRESSION_LENGTH) {
    throw new CalculationError(`Phép tính dài tối đa ${MAX_EXPRESSION_LENGTH} ký tự`);
  }
  const tokens = tokenize(expression);
  let next = 0;
  const peek = () => tokens[next]!;
  const take = () => tokens[next++]!;

  const fail = (token: Token): never => {
    if (token.kind === 'end') throw new CalculationError('Phép tính kết thúc quá sớm');
    throw new CalculationError(`Ký tự "${expression[token.at]}" không hợp lệ ở vị trí ${token.at + 1}`);
  };

  const sum = (depth: number): number => {
    let value = product(depth);
    for (let token = peek(); token.kind === 'operator' && (token.value === '+' || token.value === '-'); ) {
      take();
      const right = product(depth);
      value = checked(token.value === '+' ? value + right : value - right);
      token = peek();
    }
    return value;
  };

  const product = (depth: number): number => {
    let value = unary(depth);
    for (
      let token = peek();
      token.kind === 'operator' && (token.value === '*' || token.value === '/' || token.value === '%');
    ) {
      take();
      const right = unary(depth);
      if ((token.value === '/' || token.value === '%') && right === 0) {
        throw new CalculationError('Chia cho 0');
      }
      value = checked(
        token.value === '*' ? value * right : token.value === '/' ? value / right : value % right,
      );
      token = peek();
    }
    return value;
  };

  const unary = (depth: number): number => {
    if (depth > MAX_NESTING) {
      throw new CalculationError(`Phép tính lồng nhau quá sâu (tối đa ${MAX_NESTING} cấp)`);
    }
    const token = peek();
    if (token.kind === 'operator' && (token.value === '-' || token.value === '+')) {
      take();
      const value = unary(depth + 1);
      return token.value === '-' ? -value : value;
    }
    return primary(depth);
  };

  const primary = (depth: number): number => {
    const token = take();
    switch (token.kind) {
      case 'number':
        return checked(token.value);
      case 'row':
        return numberOfResult(token.row, token.row >= 1 ? results[token.row - 1] : undefined);
      case 'open': {
        const value = sum(depth + 1);
        const close = take();
        if (close.kind !== 'close') {
          if (close.kind === 'end') throw new CalculationError('Dấu "(" chưa được đóng');
          fail(close);
        }
        return value;
      }
      default:
        return fail(token);
    }
  };

  const value = sum(0);
  const end = peek();
  if (end.kind !== 'end') fail(end);
  // -0 reads as 0 to a user.
  return value === 0 ? 0 : value;
}

/** The number in plain decimal digits, never in e-notation (1e+21 is 1 and 21 zeros, 1e-7 is 0.0000001). */
function plainDecimal(value: number): string {
  const text = String(value);
  const parts = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!parts) return text;
  const [, sign, lead, rest = '', exponent] = parts;
  const digits = lead + rest;
  const point = 1 + Number(exponent);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

const digitCount = (text: string) => text.replace(/[-.]/g, '').length;

/**
 * The number as a result text, without binary noise such as 0.30000000000000004, and one a later row can
 * read back: plain decimal digits, at most as many as a number in a calculation may have. A result that
 * needs more digits before the point is refused as too large; one that needs more after it is rounded to
 * the digits it may have.
 */
export function formatCalculation(value: number): string {
  const text = plainDecimal(Number(value.toPrecision(15)));
  if (digitCount(text) <= MAX_NUMBER_DIGITS) return text;
  if (Math.abs(value) >= 1) throw new CalculationError('Kết quả quá lớn');
  const rounded = Number(value.toFixed(MAX_NUMBER_DIGITS - 1));
  return rounded === 0 ? '0' : plainDecimal(rounded);
}
