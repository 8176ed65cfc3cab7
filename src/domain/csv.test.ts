import { describe, expect, it } from 'vitest';
import { csvField, csvText } from './csv';

describe('csvField', () => {
  it('writes plain text and numbers as they are, and quotes commas, quotes and line breaks', () => {
    expect(csvField('Alice')).toBe('Alice');
    expect(csvField(7)).toBe('7');
    expect(csvField(null)).toBe('');
    expect(csvField('a, b')).toBe('"a, b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
  });

  it('prefixes a text that would start a formula with a single quote and quotes it (OWASP CSV injection)', () => {
    expect(csvField('=1+2')).toBe(`"'=1+2"`);
    expect(csvField('+SUM(A1:A2)')).toBe(`"'+SUM(A1:A2)"`);
    expect(csvField('-2+3')).toBe(`"'-2+3"`);
    expect(csvField('@cmd')).toBe(`"'@cmd"`);
    expect(csvField('\tx')).toBe(`"'\tx"`);
    expect(csvField('\rx')).toBe(`"'\rx"`);
    expect(csvField('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    // A NUL first (OWASP ASVS), and a formula after white space a spreadsheet may trim on import.
    expect(csvField('\0=1')).toBe(`"'\0=1"`);
    expect(csvField('  =1+2')).toBe(`"'  =1+2"`);
    expect(csvField('\n@SUM(1)')).toBe(`"'\n@SUM(1)"`);
    expect(csvField('\u00a0\u3000-1')).toBe(`"'\u00a0\u3000-1"`);
    // Only the start counts.
    expect(csvField('a=b')).toBe('a=b');
    expect(csvField('  a=b')).toBe('  a=b');
  });

  it('writes rows with CRLF line ends', () => {
    expect(
      csvText([
        ['a', 1, null],
        ['=x', 'b,c', -2],
      ]),
    ).toBe(`a,1,\r\n"'=x","b,c",-2\r\n`);
  });
});
