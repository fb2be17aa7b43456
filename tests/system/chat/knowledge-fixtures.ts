import { randomUUID } from 'node:crypto';
import { Document, HeadingLevel, Packer, Paragraph } from 'docx';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { CustomGptDto, KnowledgeFileDto } from '@earshot/contracts';
import { multipart, type TestStack } from '@earshot/kit/testing';
import { knowledgeQueue } from '@earshot/chat-service';

/** A PDF with one page per entry, each page's text written in lines (a real text layer). */
export async function makePdf(pages: readonly string[], options: { password?: boolean } = {}): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const text of pages) {
    const page = pdf.addPage([595, 842]);
    let y = 800;
    for (const line of wrap(text, 90)) {
      if (text) page.drawText(line, { x: 40, y, size: 11, font });
      y -= 14;
    }
  }
  if (!options.password) return Buffer.from(await pdf.save());
  // pdf-lib cannot encrypt. A standard security handler in the trailer whose user password is not
  // the empty one is what a reader checks first: it asks for the password before reading a page.
  const plain = Buffer.from(await pdf.save({ useObjectStreams: false })).toString('latin1');
  const key = '<' + 'ab'.repeat(32) + '>';
  return Buffer.from(
    plain.replace(
      /trailer\s*<</,
      `trailer\n<<\n/Encrypt << /Filter /Standard /V 1 /R 2 /Length 40 /O ${key} /U ${key} /P -4 >>\n/ID [<${'01'.repeat(16)}> <${'01'.repeat(16)}>]`,
    ),
    'latin1',
  );
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.slice(0, 55);
}

/** A DOCX with a heading and the paragraphs under it. */
export async function makeDocx(sections: readonly { heading: string; paragraphs: string[] }[]): Promise<Buffer> {
  const doc = new Document({
    sections: [
      {
        children: sections.flatMap((s) => [
          new Paragraph({ text: s.heading, heading: HeadingLevel.HEADING_1 }),
          ...s.paragraphs.map((p) => new Paragraph({ text: p })),
        ]),
      },
    ],
  });
  return Buffer.from(await Packer.toBuffer(doc));
}

export async function createGpt(
  stack: TestStack,
  token: string,
  body: Record<string, unknown> = {},
): Promise<CustomGptDto> {
  const res = await stack.as(token, {
    method: 'POST',
    url: '/api/custom-gpt',
    payload: {
      name: `GPT ${randomUUID().slice(0, 6)}`,
      instructions: 'Answer from the handbook.',
      visibility: 'company',
      ...body,
    },
  });
  if (res.statusCode !== 201) throw new Error(`create GPT: ${res.statusCode} ${res.body}`);
  return res.json() as CustomGptDto;
}

export function upload(
  stack: TestStack,
  token: string,
  gptId: string,
  file: { name: string; type: string; data: Buffer },
) {
  const body = multipart({}, file);
  return stack.as(token, { method: 'POST', url: `/api/custom-gpt/${gptId}/files?type=knowledge`, ...body });
}

/** Uploads and waits until the background processing is over (the queue is idle). */
export async function uploadReady(
  stack: TestStack,
  token: string,
  gptId: string,
  file: { name: string; type: string; data: Buffer },
): Promise<KnowledgeFileDto> {
  const res = await upload(stack, token, gptId, file);
  if (res.statusCode !== 201) throw new Error(`upload: ${res.statusCode} ${res.body}`);
  await processed(stack);
  const files = (
    await stack.as(token, { method: 'GET', url: `/api/custom-gpt/${gptId}/files` })
  ).json() as KnowledgeFileDto[];
  return files.find((f) => f._id === (res.json() as KnowledgeFileDto)._id)!;
}

/** Waits for the knowledge queue to finish all it can do now, then for the events it caused. */
export async function processed(stack: TestStack): Promise<void> {
  const queue = knowledgeQueue(stack.database)!;
  queue.nudge();
  await queue.idle();
  await stack.settle();
}

/** Configures an embeddings model as the platform administrator does (prompt service in the stack). */
export async function addEmbeddingsModel(
  stack: TestStack,
  providerId: string,
  name: string,
  isDefault = true,
): Promise<string> {
  const host = await stack.tokenFor('HOST_ADMIN', null);
  const res = await stack.as(host, {
    method: 'POST',
    url: '/api/ai/config/model',
    payload: { providerId, name, label: name, purpose: 'embeddings', isDefault, contextSize: null, enabled: true },
  });
  if (res.statusCode !== 201) throw new Error(`add embeddings model: ${res.statusCode} ${res.body}`);
  await stack.settle();
  return (res.json() as { _id: string })._id;
}
