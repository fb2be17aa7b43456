import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { CreditFeature, PriceUnit, StatementDto } from '@earshot/contracts';

const require = createRequire(import.meta.url);

/**
 * DejaVu Sans, embedded (only the glyphs used): the PDF standard fonts know only Western European
 * letters, and company names here are Latvian and Estonian too (ā, ē, ķ, ļ, ņ, õ, š …).
 */
let fonts: { regular: Buffer; bold: Buffer } | undefined;
function loadFonts() {
  fonts ??= {
    regular: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
    bold: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
  };
  return fonts;
}

const FEATURE_LABELS: Record<CreditFeature, string> = {
  chat: 'Chat',
  analysis: 'Analysis',
  transcription: 'Transcription',
  embeddings: 'Embeddings',
  custom_gpt: 'Custom GPTs',
};

/** What one of a unit is, as a statement line names it (quantity × this at the unit price). */
const UNIT_LABELS: Record<PriceUnit, string> = {
  input_1k: '1,000 input tokens',
  output_1k: '1,000 output tokens',
  audio_minute: 'minutes of audio',
  embedding_1k: '1,000 embedding tokens',
};

const creditFormat = new Intl.NumberFormat('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 4 });
const quantityFormat = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 4 });
/** Credits as printed: grouped thousands, two to four decimals. */
const formatCredits = (n: number) => creditFormat.format(n);

/** A figure in the display currency (credits × rate), to the cent. */
function formatMoney(credits: number, rate: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-GB', { style: 'currency', currency, currencyDisplay: 'code' }).format(
      credits * rate,
    );
  } catch {
    // A code Intl does not know still prints, with its amount.
    return `${currency} ${(credits * rate).toFixed(2)}`;
  }
}

/** 'November 2026' for '2026-11'. */
function monthTitle(month: string): string {
  return new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-GB', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

const PAGE = { margin: 56, width: 595.28, height: 841.89 };
/** Where each column starts (label, credits, money) and where the table ends. */
const COLUMNS = { label: PAGE.margin, credits: 320, money: 440, right: PAGE.width - PAGE.margin };
const WIDTH = {
  label: COLUMNS.credits - COLUMNS.label - 8,
  credits: COLUMNS.money - COLUMNS.credits - 10,
  money: COLUMNS.right - COLUMNS.money,
};

/** 'Chat · gpt-4o', then '1.234 × 1,000 input tokens at 0.70' below it: what was charged, how many of which unit, at what price. */
function chargeLabel(charge: StatementDto['charges'][number]): string {
  const what = `${FEATURE_LABELS[charge.feature]} · ${charge.model || '—'}`;
  if (charge.unit === null || charge.quantity === null) return what;
  const price = charge.unitPrice === null ? '' : ` at ${formatCredits(charge.unitPrice)}`;
  return `${what}\n${quantityFormat.format(charge.quantity)} × ${UNIT_LABELS[charge.unit]}${price}`;
}

/** The monthly statement as an A4 PDF: heading, then one table of balances and charges. */
export async function renderStatementPdf(statement: StatementDto): Promise<Buffer> {
  // Loaded by the first statement, not at start: pdfkit is about 6 MB of heap few processes need.
  const { default: PDFDocument } = await import('pdfkit');
  const { regular, bold } = loadFonts();
  const doc = new PDFDocument({
    size: 'A4',
    margin: PAGE.margin,
    info: {
      Title: `Credit statement ${statement.month} — ${statement.companyName}`,
      Author: 'Earshot',
      Subject: 'Monthly credit statement',
    },
  });
  doc.registerFont('regular', regular);
  doc.registerFont('bold', bold);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const money = (n: number) => formatMoney(n, statement.creditRate, statement.currency);
  doc.font('bold').fontSize(20).text('Credit statement');
  doc.moveDown(0.3);
  doc.font('regular').fontSize(13).text(statement.companyName);
  doc
    .fontSize(10)
    .fillColor('#444444')
    .text(`${monthTitle(statement.month)} (${statement.month}, UTC)`)
    .text(`Currency: ${statement.currency}, ${statement.creditRate} ${statement.currency} per credit`);
  doc.fillColor('#000000').moveDown(1.5);

  const row = (label: string, credits: number | null, options: { bold?: boolean; rule?: boolean } = {}) => {
    if (doc.y > PAGE.height - PAGE.margin - 40) doc.addPage();
    if (options.rule) {
      doc.moveTo(COLUMNS.label, doc.y).lineTo(COLUMNS.right, doc.y).lineWidth(0.5).strokeColor('#999999').stroke();
      doc.moveDown(0.3);
    }
    const y = doc.y;
    doc.font(options.bold ? 'bold' : 'regular').fontSize(10);
    doc.text(label, COLUMNS.label, y, { width: WIDTH.label });
    const after = doc.y;
    if (credits !== null) {
      doc.text(formatCredits(credits), COLUMNS.credits, y, { width: WIDTH.credits, align: 'right' });
      doc.text(money(credits), COLUMNS.money, y, { width: WIDTH.money, align: 'right' });
    }
    doc.x = COLUMNS.label;
    doc.y = Math.max(after, doc.y) + 4;
  };

  doc.font('bold').fontSize(9).fillColor('#444444');
  const head = doc.y;
  doc.text('Item', COLUMNS.label, head);
  doc.text('Credits', COLUMNS.credits, head, { width: WIDTH.credits, align: 'right' });
  doc.text(statement.currency, COLUMNS.money, head, { width: WIDTH.money, align: 'right' });
  doc.fillColor('#000000');
  doc.x = COLUMNS.label;
  doc.moveDown(0.5);

  row('Opening balance', statement.opening, { bold: true, rule: true });
  row('Grants', statement.grants);
  row('Adjustments', statement.adjustments);
  row('Charges', null, { bold: true, rule: true });
  if (statement.charges.length === 0) row('No charges this month', null);
  for (const charge of statement.charges) row(chargeLabel(charge), -charge.credits);
  row('Total charges', -statement.totalCharges, { bold: true });
  row('Closing balance', statement.closing, { bold: true, rule: true });
  doc
    .moveDown(1.5)
    .font('regular')
    .fontSize(8)
    .fillColor('#666666')
    .text(
      'From the credits ledger, in UTC. Balances count grants, adjustments and charges: work still queued at the end of the month holds credits but has not spent them yet. ' +
        'Each ledger line costs its quantity × unit price, rounded half up to 4 decimals; a charge here sums its lines.',
      COLUMNS.label,
      doc.y,
      { width: COLUMNS.right - COLUMNS.label },
    );

  doc.end();
  return done;
}
