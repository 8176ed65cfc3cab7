import { describe, expect, it } from 'vitest';
import { parseCsv } from '../csv';
import { DomainError } from '../errors';
import { itemsFromCsv } from './csv-items';

const refusal = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).kind).toBe('rule_violated');
    return (error as DomainError).message;
  }
  throw new Error('not refused');
};

describe('parseCsv (RFC 4180)', () => {
  it('reads records with CRLF or LF, quoted fields with commas, line breaks and doubled quotes', () => {
    const text = '\uFEFFa,b,c\r\n1,"x, y","say ""hi"""\n2,"two\nlines",\r\n';
    expect(parseCsv(text)).toEqual([
      { line: 1, fields: ['a', 'b', 'c'] },
      { line: 2, fields: ['1', 'x, y', 'say "hi"'] },
      { line: 3, fields: ['2', 'two\nlines', ''] },
    ]);
  });

  it('keeps a carriage return that ends no record as text of its field', () => {
    expect(parseCsv('a,b\r1,2\n')).toEqual([{ line: 1, fields: ['a', 'b\r1', '2'] }]);
  });

  it('takes a last record without a line break, and skips blank lines', () => {
    expect(parseCsv('a,b\n\n1,2')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 3, fields: ['1', '2'] },
    ]);
    expect(parseCsv('')).toEqual([]);
  });

  it('refuses malformed text, naming the line', () => {
    expect(refusal(() => parseCsv('a,b\n1,"open\n2,3\n'))).toMatch(
      /^CSV dòng 2: dấu ngoặc kép mở nhưng không đóng/,
    );
    expect(refusal(() => parseCsv('a,b\n1,x"y\n'))).toMatch(/^CSV dòng 2: dấu ngoặc kép trong ô/);
    expect(refusal(() => parseCsv('a,b\n"1"x,2\n'))).toMatch(/^CSV dòng 2: có ký tự sau dấu ngoặc kép/);
    expect(refusal(() => parseCsv('a,b\n1,2\n3\n'))).toMatch(/^CSV dòng 3: có 1 cột, dòng tiêu đề có 2/);
  });
});

describe('itemsFromCsv', () => {
  const steps = [
    { id: '11111111-1111-4111-8111-111111111111', name: 'Ý tưởng' },
    { id: '22222222-2222-4222-8222-222222222222', name: 'Bài viết' },
  ];
  let n = 0;
  const newId = () => `item-${++n}`;

  it('maps columns to steps by name or id, expected:<step> and tags; leaves empty cells out', () => {
    n = 0;
    const csv = [
      'ý tưởng,expected:Bài viết,tags,other',
      'trà xanh,"Một bài, về trà",a;b,',
      ',Chỉ expected,,x',
    ].join('\r\n');
    expect(itemsFromCsv(csv, steps, newId)).toEqual({
      unknownColumns: ['other'],
      items: [
        {
          itemId: 'item-1',
          inputs: { [steps[0]!.id]: 'trà xanh' },
          expected: { [steps[1]!.id]: 'Một bài, về trà' },
          tags: ['a', 'b'],
          source: 'csv',
        },
        {
          itemId: 'item-2',
          inputs: { other: 'x' },
          expected: { [steps[1]!.id]: 'Chỉ expected' },
          tags: [],
          source: 'csv',
        },
      ],
    });
  });

  it('refuses a file without rows, a row without texts, a repeated or invalid column, naming the line', () => {
    expect(refusal(() => itemsFromCsv('', steps, newId))).toMatch(/CSV trống/);
    expect(refusal(() => itemsFromCsv('Ý tưởng\n', steps, newId))).toMatch(/chỉ có dòng tiêu đề/);
    expect(refusal(() => itemsFromCsv('Ý tưởng,tags\nx,a\n,b\n', steps, newId))).toMatch(
      /^CSV dòng 3: cần ít nhất một input/,
    );
    expect(refusal(() => itemsFromCsv(`Ý tưởng,${steps[0]!.id}\nx,y\n`, steps, newId))).toMatch(
      /cột 2 .*trùng/,
    );
    // A column whose texts an object of texts by name would drop without a word.
    expect(refusal(() => itemsFromCsv('__proto__\nx\n', steps, newId))).toMatch(
      /cột 1 .*không là step id hay tên step/,
    );
    expect(refusal(() => itemsFromCsv('tên có dấu cách\nx\n', steps, newId))).toMatch(
      /cột 1 .*không là step id hay tên step/,
    );
    expect(refusal(() => itemsFromCsv(`Ý tưởng\n${'x\n'.repeat(501)}`, steps, newId))).toMatch(
      /501 dòng dữ liệu; mỗi lần thêm tối đa 500/,
    );
    expect(refusal(() => itemsFromCsv(`Ý tưởng\nok\n"${'x'.repeat(20_001)}"\n`, steps, newId))).toMatch(
      /^CSV dòng 3: inputs\.11111111.*tối đa 20,000 ký tự/,
    );
  });
});
