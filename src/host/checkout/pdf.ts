import PDFDocument from 'pdfkit';

export type PdfBlock = { text: string } | { table: string[][] };

const MARGIN = 50;
const CELL_PADDING = 4;

/** Renders a title and blocks of text and tables (first row = header) into an A4 PDF. */
export function renderPdf(title: string, blocks: PdfBlock[], meta: { author?: string } = {}): Promise<Buffer> {
  return new Promise((resolvePdf, rejectPdf) => {
    const doc = new PDFDocument({ size: 'A4', margin: MARGIN, info: { Title: title, Author: meta.author ?? 'Suite B2B', Producer: 'Suite B2B' } });
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

function drawTable(doc: PDFKit.PDFDocument, rows: string[][]): void {
  if (rows.length === 0) return;
  const columns = Math.max(...rows.map((r) => r.length));
  const width = doc.page.width - MARGIN * 2;
  // Columns get width in proportion to their longest cell, with a floor so no column collapses.
  const longest = Array.from({ length: columns }, (_, c) => Math.max(4, ...rows.map((r) => (r[c] ?? '').length)));
  const sum = longest.reduce((a, b) => a + b, 0);
  const widths = longest.map((l) => (l / sum) * width);
  const bottom = doc.page.height - MARGIN;
  rows.forEach((row, index) => {
    doc.font(index === 0 ? 'Helvetica-Bold' : 'Helvetica').fontSize(9);
    const height = Math.max(...widths.map((w, c) => doc.heightOfString(row[c] ?? '', { width: w - CELL_PADDING * 2 }))) + CELL_PADDING * 2;
    if (doc.y + height > bottom) doc.addPage();
    const top = doc.y;
    let x = MARGIN;
    widths.forEach((w, c) => {
      doc.text(row[c] ?? '', x + CELL_PADDING, top + CELL_PADDING, { width: w - CELL_PADDING * 2 });
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
