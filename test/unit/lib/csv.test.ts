import { expect } from 'chai';
import { AppError } from '../../../src/lib/errors.js';
import { neutraliseCell, parseCsv, restoreCell, toCsv } from '../../../src/lib/csv.js';

const columns = [{ name: 'email', required: true }, { name: 'first_name', required: true }, { name: 'note' }];
const options = { columns, maxBytes: 10_000, maxRows: 5 };

async function refusal(text: string, opts = options): Promise<AppError> {
  try {
    await parseCsv(text, opts);
  } catch (error) {
    return error as AppError;
  }
  throw new Error('expected the CSV to be refused');
}

describe('lib: csv', () => {
  it('writes RFC 4180: CRLF, quotes only where needed, doubled quotes, formulas neutralised', async () => {
    const text = await toCsv(
      ['a', 'b'],
      [
        ['x,y', 'say "hi"'],
        ['line\nbreak', null],
        ['=SUM(A1)', '-5'],
        ['+1', '@me'],
        ['\tTab', "'=already"],
      ],
    );
    expect(text).to.equal(
      'a,b\r\n"x,y","say ""hi"""\r\n"line\nbreak",\r\n\'=SUM(A1),\'-5\r\n\'+1,\'@me\r\n\'\tTab,\'\'=already\r\n',
    );
  });

  it('neutralising is reversible, so an export re-imports unchanged', async () => {
    for (const value of ['=1+1', '-x', "'=x", "''+y", "'plain", 'plain', '', '@', '\r='])
      expect(restoreCell(neutraliseCell(value))).to.equal(value);
    const rows = [
      ['=cmd|calc', "it's"],
      ['a\r\nb', '-1'],
      ['"quoted"', ''],
    ];
    const text = await toCsv(['email', 'first_name'], rows);
    const parsed = await parseCsv(text, options);
    expect(parsed.problems).to.deep.equal([]);
    expect(parsed.rows.map((r) => [r.values.email, r.values.first_name])).to.deep.equal(rows);
  });

  it('maps header spellings and reports the physical line of each record, quoted line breaks included', async () => {
    const parsed = await parseCsv(
      '\uFEFFE-Mail;First Name\r\na@b.c;"two\nlines"\r\n\r\nx@y.z;Zed\r\nshort\r\n',
      options,
    );
    expect(parsed.rows.map((r) => [r.line, r.values.email, r.values.first_name, r.values.note])).to.deep.equal([
      [2, 'a@b.c', 'two\nlines', ''],
      [5, 'x@y.z', 'Zed', ''],
    ]);
    expect(parsed.problems).to.deep.equal([{ line: 6, reason: 'Expected 2 fields, found 1.' }]);
  });

  it('refuses a bad header with every problem listed', async () => {
    const error = await refusal('email,email,colour\n');
    expect(error.status).to.equal(400);
    expect(error.code).to.equal('SUITE__CSV_INVALID_HEADER');
    expect(error.toBody().errors.map((e) => e.detail)).to.deep.equal([
      'Line 1: The column "email" appears twice.',
      'Line 1: Unknown column "colour"; expected: email, first_name, note.',
      'Line 1: The required column "first_name" is missing.',
    ]);
    expect((await refusal('')).code).to.equal('SUITE__CSV_INVALID_HEADER');
  });

  it('enforces the byte and row limits with a 413', async () => {
    expect((await refusal(`email,first_name\n${'a@b.c,x\n'.repeat(6)}`)).status).to.equal(413);
    expect((await refusal('email,first_name\n' + 'x'.repeat(10_001))).status).to.equal(413);
    expect((await parseCsv(`email,first_name\n${'a@b.c,x\n'.repeat(5)}`, options)).rows).to.have.length(5);
  });

  it('reports an unclosed quote at the line it starts', async () => {
    const parsed = await parseCsv('email,first_name\na@b.c,ok\n"broken,x\n', options);
    expect(parsed.rows).to.have.length(1);
    expect(parsed.problems[0]!.line).to.equal(3);
  });
});
