import { randomUUID } from 'node:crypto';
import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import type { TranscriptDto } from '@earshot/contracts';
import { clean, clock, dateLine, entries, speakerNames } from './shared';

const BODY = 'word/document.xml';

const escapeXml = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

type Docx = typeof import('docx');

/** One turn as docx writes it: the speaker's name in bold with the time stamp, the words beneath. */
const turnParagraphs = ({ Paragraph, TextRun }: Docx, name: string, time: string, text: string) => [
  new Paragraph({
    keepNext: true,
    spacing: { before: 200 },
    children: [new TextRun({ text: name, bold: true }), new TextRun({ text: `  ${time}`, color: '666666' })],
  }),
  new Paragraph({ text }),
];

/**
 * A Word document: the recording's name as title, its date, the speakers, then each segment as the
 * speaker's name in bold with its time stamp and the words beneath.
 *
 * docx builds the document and the markup of one turn, written with markers in place of the name,
 * time and text; every turn is that markup with its values put in. Letting docx build each of a
 * 3-hour call's 6,000 paragraphs took over a second (its generic serialiser); this keeps its
 * markup and takes a few milliseconds. The markers are random per document, so no text can fake one.
 */
export async function toDocx(t: TranscriptDto): Promise<Buffer> {
  // Loaded by the first Word export, not at start: docx is about 3 MB of heap few requests need.
  const docx = await import('docx');
  const { Document, HeadingLevel, Packer, Paragraph } = docx;
  const title = clean(t.file.originalName);
  const marker = randomUUID();
  const slots = { name: `${marker}-name`, time: `${marker}-time`, text: `${marker}-text` };
  const document = new Document({
    creator: 'Earshot',
    title,
    sections: [
      {
        children: [
          new Paragraph({ text: title, heading: HeadingLevel.TITLE }),
          new Paragraph({ text: dateLine(t) }),
          new Paragraph({ text: 'Speakers', heading: HeadingLevel.HEADING_1 }),
          ...speakerNames(t).map((name) => new Paragraph({ text: name, bullet: { level: 0 } })),
          new Paragraph({ text: 'Transcript', heading: HeadingLevel.HEADING_1 }),
          ...turnParagraphs(docx, slots.name, slots.time, slots.text),
        ],
      },
    ],
  });
  const files = unzipSync(await Packer.toBuffer(document));
  const xml = strFromU8(files[BODY]!);
  const named = xml.indexOf(slots.name);
  const from = Math.max(xml.lastIndexOf('<w:p>', named), xml.lastIndexOf('<w:p ', named));
  const to = xml.indexOf('</w:p>', xml.indexOf(slots.text)) + '</w:p>'.length;
  const [before, between, after, end] = xml
    .slice(from, to)
    .split(new RegExp(`${slots.name}|${slots.time}|${slots.text}`));
  const turns = entries(t).map(
    (e) => `${before}${escapeXml(e.speaker)}${between}${clock(e.start)}${after}${escapeXml(e.text)}${end}`,
  );
  const zipped: Zippable = { ...files, [BODY]: strToU8(xml.slice(0, from) + turns.join('') + xml.slice(to)) };
  // Level 1: the markup repeats, so it packs nearly as small as at 6 in a third of the time.
  return Buffer.from(zipSync(zipped, { level: 1 }));
}
