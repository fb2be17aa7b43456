import { crc32, createDeflateRaw, deflateSync } from 'node:zlib';

// Files built to cost far more to read than to upload, generated here so none is kept in the
// repository: a DOCX whose text inflates past any limit, a PDF of many (empty) pages, a PDF whose
// one page draws the same text through nested forms a hundred thousand times.

interface ZipPart {
  name: string;
  /** Written in this order; a number is a run of that many 'a' bytes (generated as it is deflated). */
  pieces: (string | number)[];
}

const RUN_CHUNK = 1024 * 1024;

async function deflatePart(pieces: (string | number)[]): Promise<{ data: Buffer; crc: number; size: number }> {
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  let crc = 0;
  let size = 0;
  const write = async (chunk: Buffer) => {
    crc = crc32(chunk, crc);
    size += chunk.length;
    if (!deflate.write(chunk)) await new Promise((resolve) => deflate.once('drain', resolve));
  };
  const run = Buffer.alloc(RUN_CHUNK, 'a');
  for (const piece of pieces) {
    if (typeof piece === 'string') await write(Buffer.from(piece));
    else
      for (let left = piece; left > 0; left -= RUN_CHUNK) await write(left >= RUN_CHUNK ? run : run.subarray(0, left));
  }
  deflate.end();
  await ended;
  return { data: Buffer.concat(out), crc, size };
}

/** A zip of deflated parts with honest sizes in its local headers and central directory. */
export async function zipOf(parts: readonly ZipPart[]): Promise<Buffer> {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const { data, crc, size } = await deflatePart(part.pieces);
    const name = Buffer.from(part.name);
    const header = (central: boolean) => {
      const fixed = Buffer.alloc(central ? 46 : 30);
      let at = 0;
      fixed.writeUInt32LE(central ? 0x02014b50 : 0x04034b50, at);
      at += 4;
      if (central) {
        fixed.writeUInt16LE(20, at);
        at += 2;
      }
      fixed.writeUInt16LE(20, at); // version needed
      fixed.writeUInt16LE(0, at + 2); // flags
      fixed.writeUInt16LE(8, at + 4); // deflated
      fixed.writeUInt32LE(0, at + 6); // time, date
      fixed.writeUInt32LE(crc >>> 0, at + 10);
      fixed.writeUInt32LE(data.length, at + 14);
      fixed.writeUInt32LE(size, at + 18);
      fixed.writeUInt16LE(name.length, at + 22);
      fixed.writeUInt16LE(0, at + 24); // extra
      if (central) fixed.writeUInt32LE(offset, 42); // comment, disk, attributes stay 0
      return Buffer.concat([fixed, name]);
    };
    const local = header(false);
    locals.push(local, data);
    centrals.push(header(true));
    offset += local.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/** A DOCX (as Word writes one: content types, relationships, document) whose one paragraph is `textBytes` letters. */
export function docxWithText(textBytes: number): Promise<Buffer> {
  return zipOf([
    {
      name: '[Content_Types].xml',
      pieces: [
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      ],
    },
    {
      name: '_rels/.rels',
      pieces: [
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
      ],
    },
    {
      name: 'word/document.xml',
      pieces: [
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}"><w:body><w:p><w:r><w:t>`,
        textBytes,
        '</w:t></w:r></w:p></w:body></w:document>',
      ],
    },
  ]);
}

/** A PDF from its objects (numbered from 1, the first the catalog), with its cross-reference table. */
function pdfOf(objects: readonly string[]): Buffer {
  const parts = ['%PDF-1.4\n'];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  objects.forEach((body, i) => {
    offsets.push(length);
    const object = `${i + 1} 0 obj\n${body}\nendobj\n`;
    parts.push(object);
    length += Buffer.byteLength(object, 'latin1');
  });
  const xref = [`xref\n0 ${objects.length + 1}\n`, '0000000000 65535 f \n'];
  for (const offset of offsets) xref.push(`${String(offset).padStart(10, '0')} 00000 n \n`);
  parts.push(...xref, `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`);
  return Buffer.from(parts.join(''), 'latin1');
}

const stream = (content: string, dictionary = '') =>
  `<< ${dictionary} /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`;

/** A PDF of `pages` pages with nothing on them: small to upload, `pages` page objects to read. */
export function pdfWithPages(pages: number): Buffer {
  const kids = Array.from({ length: pages }, (_, i) => `${i + 3} 0 R`).join(' ');
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`,
    ...Array.from({ length: pages }, () => '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>'),
  ]);
}

/**
 * A one-page PDF of a few kilobytes whose page draws a form that draws `fanout` times a form
 * that … (`depth` levels) draws a line of text: fanout^depth lines, the "billion laughs" of PDF.
 */
export function pdfNestedText(
  depth: number,
  fanout: number,
  line = 'The same line of text, drawn once more. ',
): Buffer {
  // Objects: 1 catalog, 2 pages, 3 page, 4 font, 5 the page's content, 6… the forms (6 the outermost, 6 + depth the text).
  const form = (level: number) => {
    const content =
      level === depth
        ? `BT /F1 10 Tf 10 10 Td (${line}) Tj ET`
        : Array.from({ length: fanout }, () => '/X Do').join('\n');
    const resources =
      level === depth
        ? '/Resources << /Font << /F1 4 0 R >> >>'
        : `/Resources << /XObject << /X ${7 + level} 0 R >> >>`;
    return stream(content, `/Type /XObject /Subtype /Form /BBox [0 0 200 200] ${resources}`);
  };
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 5 0 R /Resources << /XObject << /X 6 0 R >> >> >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    stream('/X Do'),
    ...Array.from({ length: depth + 1 }, (_, level) => form(level)),
  ]);
}

/**
 * A small PDF whose one page's content stream inflates (Flate) to `mb` MB of drawing operators and
 * no text: a few hundred KB to upload, seconds of parsing for any PDF reader, which only the reading
 * time limit stops.
 */
export function pdfWithDrawing(mb: number): Buffer {
  const content = deflateSync(Buffer.alloc(mb * 1024 * 1024, '0 0 m 1 1 l S\n'), { level: 9 }).toString('latin1');
  return pdfOf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 5 0 R /Resources << /Font << /F1 4 0 R >> >> >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    stream(content, '/Filter /FlateDecode'),
  ]);
}
