import { inflateSync } from 'node:zlib';

/**
 * The text a PDF written by pdfkit shows, one string per text-showing operator: its content
 * streams inflated, the hex strings of each TJ array decoded and joined. Enough to assert what a
 * reader sees in our own documents; not a general PDF parser.
 */
export function pdfTexts(pdf: Buffer): string[] {
  const texts: string[] = [];
  const source = pdf.toString('latin1');
  const streams = /stream\r?\n/g;
  let match: RegExpExecArray | null;
  while ((match = streams.exec(source))) {
    const start = match.index + match[0].length;
    const end = source.indexOf('endstream', start);
    if (end < 0) break;
    let content: string;
    try {
      content = inflateSync(Buffer.from(source.slice(start, end), 'latin1')).toString('latin1');
    } catch {
      continue;
    }
    for (const operator of content.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
      const hex = [...operator[1]!.matchAll(/<([0-9a-fA-F]*)>/g)].map((m) => m[1]).join('');
      texts.push(Buffer.from(hex, 'hex').toString('latin1'));
    }
    streams.lastIndex = end;
  }
  return texts;
}
