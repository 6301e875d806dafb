import { createRequire } from 'node:module';
import type PDFKitDocument from 'pdfkit';

export type PdfBlock = { text: string } | { table: string[][] };

const MARGIN = 50;
const CELL_PADDING = 4;

/**
 * pdfkit, loaded on the first document: an optional peer dependency, so a shop that renders no PDF
 * documents (a Vendure shop, whose documents are its own) installs none.
 */
function pdfkit(): typeof PDFKitDocument {
  try {
    return createRequire(import.meta.url)('pdfkit') as typeof PDFKitDocument;
  } catch (error) {
    throw new Error(`PDF documents need the pdfkit package: npm install pdfkit (${String(error)})`);
  }
}

/** Renders a title and blocks of text and tables (first row = header) into an A4 PDF. */
export function renderPdf(title: string, blocks: PdfBlock[], meta: { author?: string } = {}): Promise<Buffer> {
  const PDFDocument = pdfkit();
  return new Promise((resolvePdf, rejectPdf) => {
    const doc = new PDFDocument({
      size: 'A4',
      margin: MARGIN,
      info: { Title: title, Author: meta.author ?? 'Suite B2B', Producer: 'Suite B2B' },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolvePdf(Buffer.concat(chunks)));
    doc.on('error', rejectPdf);

    doc.font('Helvetica-Bold').fontSize(18).text(title);
    doc.moveDown();
    doc.font('Helvetica').fontSize(10);
    for (const block of blocks) {
      if ('text' in block) {
        doc.font('Helvetica').fontSize(10).text(block.text, MARGIN, doc.y);
        doc.moveDown(0.3);
      } else {
        drawTable(doc, block.table);
        doc.moveDown();
      }
    }
    doc.end();
  });
}

/** A cell that is a number, an amount ("290.30 EUR") or a rate ("19 %"): right-aligned, never wrapped. */
const FIGURE = /^[-+]?\d[\d.,\s]*(\s?%|\s[A-Z]{3})?$/;

/**
 * Columns whose body cells are all figures are right-aligned. Every column gets its natural width
 * (the longest cell on one line), except the widest text column, which takes what is left and wraps.
 */
export function tableLayout(
  rows: string[][],
  measure: (text: string, bold: boolean) => number,
  available: number,
): { widths: number[]; right: boolean[] } {
  const columns = Math.max(...rows.map((r) => r.length));
  const body = rows.slice(1);
  const right = Array.from(
    { length: columns },
    (_, c) =>
      body.length > 0 &&
      body.every((r) => (r[c] ?? '') === '' || FIGURE.test((r[c] ?? '').trim())) &&
      body.some((r) => (r[c] ?? '') !== ''),
  );
  const natural = Array.from(
    { length: columns },
    (_, c) => Math.max(...rows.map((r, index) => measure(r[c] ?? '', index === 0))) + CELL_PADDING * 2 + 1,
  );
  const total = natural.reduce((a, b) => a + b, 0);
  const candidates = natural.map((width, c) => ({ width, c })).filter(({ c }) => !right[c]);
  const flexible = (candidates.length ? candidates : natural.map((width, c) => ({ width, c }))).reduce((a, b) =>
    b.width > a.width ? b : a,
  ).c;
  const widths = [...natural];
  widths[flexible] = Math.max(natural[flexible]! + (available - total), 40);
  // Still too wide (many figure columns): scale everything down proportionally; cells may wrap then.
  const sum = widths.reduce((a, b) => a + b, 0);
  return { widths: sum > available ? widths.map((w) => (w / sum) * available) : widths, right };
}

function drawTable(doc: PDFKit.PDFDocument, rows: string[][]): void {
  if (rows.length === 0) return;
  const width = doc.page.width - MARGIN * 2;
  const measure = (text: string, bold: boolean) =>
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(9)
      .widthOfString(text);
  const { widths, right } = tableLayout(rows, measure, width);
  const bottom = doc.page.height - MARGIN;
  rows.forEach((row, index) => {
    doc.font(index === 0 ? 'Helvetica-Bold' : 'Helvetica').fontSize(9);
    const height =
      Math.max(...widths.map((w, c) => doc.heightOfString(row[c] ?? '', { width: w - CELL_PADDING * 2 }))) +
      CELL_PADDING * 2;
    if (doc.y + height > bottom) doc.addPage();
    const top = doc.y;
    let x = MARGIN;
    widths.forEach((w, c) => {
      doc.text(row[c] ?? '', x + CELL_PADDING, top + CELL_PADDING, {
        width: w - CELL_PADDING * 2,
        align: right[c] ? 'right' : 'left',
      });
      x += w;
    });
    doc
      .moveTo(MARGIN, top + height)
      .lineTo(MARGIN + width, top + height)
      .lineWidth(index === 0 ? 1 : 0.3)
      .stroke();
    doc.x = MARGIN;
    doc.y = top + height;
  });
}
