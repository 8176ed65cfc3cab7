import { describe, expect, it } from 'vitest';
import {
  CalculationError,
  evaluateCalculation,
  formatCalculation,
  MAX_EXPRESSION_LENGTH,
  MAX_NESTING,
} from './calculation';

const calc = (expression: string, results: string[] = []) => evaluateCalculation(expression, results);
const refusal = (expression: string, results: string[] = []) => {
  try {
    calc(expression, results);
  } catch (error) {
    expect(error).toBeInstanceOf(CalculationError);
    return (error as Error).message;
  }
  throw new Error(`"${expression.slice(0, 30)}" was not refused`);
};

describe('calculation rows', () => {
  it('follows the usual precedence: * / % before + -, left to right, parentheses first', () => {
    expect(calc('1 + 2 * 3')).toBe(7);
    expect(calc('(1 + 2) * 3')).toBe(9);
    expect(calc('10 - 4 - 3')).toBe(3);
    expect(calc('100 / 10 / 2')).toBe(5);
    expect(calc('17 % 5 + 1')).toBe(3);
    expect(calc('2 * (3 + (4 - 1)) / 3')).toBe(4);
  });

  it('reads decimals and unary minus', () => {
    expect(calc('1.5 * 4')).toBe(6);
    expect(calc('.5 + 0.25')).toBe(0.75);
    expect(calc('-3 + 5')).toBe(2);
    expect(calc('-(2 + 3)')).toBe(-5);
    expect(calc('4 * -2')).toBe(-8);
    expect(calc('--2')).toBe(2);
    expect(calc('+2')).toBe(2);
  });

  it('uses the results of the rows it references', () => {
    expect(calc('[[row-1]] * 2 + [[row-2]]', ['21', '0.5'])).toBe(42.5);
    expect(calc('[[ Row_2 ]] - [[row-001]]', ['3', ' 10 '])).toBe(7);
    expect(calc('-[[row-1]]', ['-4'])).toBe(4);
  });

  it('refuses references to rows that are missing, empty or not numbers', () => {
    expect(refusal('[[row-3]] + 1', ['1'])).toMatch(/không có dòng 3/);
    expect(refusal('[[row-1]] + 1', [''])).toMatch(/Dòng 001 chưa có kết quả/);
    expect(refusal('[[row-1]] + 1', ['twelve'])).toMatch(/Kết quả của Dòng 001 không phải là số/);
    // A result is a number, never more expression: it cannot smuggle operators in.
    expect(refusal('[[row-1]]', ['1) + (2'])).toMatch(/không phải là số/);
  });

  it('formats results without binary noise', () => {
    expect(formatCalculation(calc('0.1 + 0.2'))).toBe('0.3');
    expect(formatCalculation(calc('10 / 4'))).toBe('2.5');
    expect(formatCalculation(calc('-0 * 5'))).toBe('0');
    expect(formatCalculation(calc('1 / 3'))).toBe('0.333333333333333');
  });

  it('writes every result in plain digits that a later row reads back', () => {
    for (const expression of [
      '0.0000001 * 0.0000001',
      '123456789 * 1000000000000',
      '-1 / 30000000',
      '2 / 3 / 100000000000000000000',
    ]) {
      const result = formatCalculation(calc(expression));
      expect(result).not.toMatch(/e/i);
      expect(calc('[[row-1]] * 1', [result])).toBe(Number(result));
    }
    expect(formatCalculation(calc('0.0000001 * 0.0000001'))).toBe('0.00000000000001');
    expect(formatCalculation(calc('123456789 * 1000000000000'))).toBe('123456789000000000000');
    // Too many digits after the point: rounded to the 30 a number may have.
    expect(formatCalculation(calc('0.000000000000001 * 0.000000000000001 * 1234'))).toBe(
      '0.00000000000000000000000000123',
    );
    expect(formatCalculation(calc('0.000000000000001 * 0.000000000000001 * 0.000001'))).toBe('0');
  });

  it('refuses a result with more digits before the point than a row can read back', () => {
    for (const expression of [
      '99999999999999999999 * 99999999999999999999',
      '999999999999999999999999999999',
    ]) {
      expect(() => formatCalculation(calc(expression))).toThrow(new CalculationError('Kết quả quá lớn'));
    }
    expect(formatCalculation(calc('99999999999999999999 * 9999999999'))).toBe(
      '999999999900000000000000000000',
    );
  });

  it('refuses division by zero and malformed expressions with a clear message', () => {
    expect(refusal('1 / 0')).toBe('Chia cho 0');
    expect(refusal('5 % (2 - 2)')).toBe('Chia cho 0');
    expect(refusal('')).toMatch(/Hãy nhập một phép tính/);
    expect(refusal('1 +')).toMatch(/kết thúc quá sớm/);
    expect(refusal('(1 + 2')).toMatch(/chưa được đóng/);
    expect(refusal('1 + 2)')).toMatch(/Ký tự "\)" không hợp lệ ở vị trí 6/);
    expect(refusal('1 2')).toMatch(/Ký tự "2"/);
    expect(refusal('1..2')).toMatch(/không hợp lệ/);
    expect(refusal('* 3')).toMatch(/Ký tự "\*"/);
  });

  describe('hostile input', () => {
    it('has no names, properties or calls: code is just an unexpected character', () => {
      for (const hostile of [
        'constructor',
        'constructor.constructor("return process")()',
        '__proto__',
        'this',
        'process.exit(1)',
        'Math.PI',
        '[].constructor',
        'alert`1`',
        '1; 2',
        '"1" + 1',
        '[[row-1]]()',
      ]) {
        expect(refusal(hostile, ['1'])).toMatch(/không hợp lệ/);
      }
    });

    it('has no exponents: no ** operator and no e-notation', () => {
      expect(refusal('2 ** 1024')).toMatch(/Ký tự "\*"/);
      expect(refusal('9 ^ 999')).toMatch(/Ký tự "\^"/);
      expect(refusal('1e308 * 10')).toMatch(/Ký tự "e"/);
    });

    it('refuses numbers and results too large to be exact, and overflow', () => {
      expect(refusal('9'.repeat(400))).toMatch(/quá dài/);
      const big = '9'.repeat(30);
      expect(refusal(Array.from({ length: 12 }, () => big).join(' * '))).toBe('Kết quả quá lớn');
    });

    it('refuses deep nesting before recursing into it', () => {
      const deep = `${'('.repeat(MAX_NESTING + 1)}1${')'.repeat(MAX_NESTING + 1)}`;
      expect(refusal(deep)).toMatch(/lồng nhau quá sâu/);
      expect(refusal(`${'-'.repeat(MAX_NESTING + 5)}1`)).toMatch(/lồng nhau quá sâu/);
      const fine = `${'('.repeat(MAX_NESTING - 1)}1${')'.repeat(MAX_NESTING - 1)}`;
      expect(calc(fine)).toBe(1);
    });

    it('refuses very long input without reading it', () => {
      expect(refusal('1+'.repeat(MAX_EXPRESSION_LENGTH))).toMatch(/tối đa 1000 ký tự/);
      expect(refusal('('.repeat(1_000_000))).toMatch(/tối đa 1000 ký tự/);
    });
  });
});
