// A completed run's scorecard: each expected-format type shows its own way, and the Markdown
// download says the same.
import { describe, expect, it } from '@jest/globals';
import { render, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { en } from '../../i18n/locales/en';
import { rangePosition, runMarkdown, scorecard, type AnalysisRun, type FormatField } from '../../entities/transcripts';
import { Scorecard } from './scorecard';

const i18n = i18next.createInstance();
void i18n.init({ lng: 'en', resources: { en: { translation: en } }, interpolation: { escapeValue: false } });

const format: FormatField[] = [
  { name: 'clarity_score', type: 'integer', range: '1-10', description: 'How clear the agent was' },
  { name: 'tone', type: 'custom', options: ['positive', 'neutral', 'negative'], description: 'Overall tone' },
  { name: 'resolved', type: 'boolean', description: 'Was the issue solved' },
  { name: 'summary', type: 'string', description: 'What happened' },
];
const result = { summary: 'The customer | asked\nfor a refund.', resolved: false, tone: 'neutral', clarity_score: 7 };

describe('scorecard', () => {
  it('shows an integer on its range, an option as a chip, a boolean as a badge and text as text', () => {
    const entries = scorecard(result, format);
    expect(entries.map((e) => [e.name, e.kind])).toEqual([
      ['clarity_score', 'integer'],
      ['tone', 'custom'],
      ['resolved', 'boolean'],
      ['summary', 'string'],
    ]);
    render(
      <I18nextProvider i18n={i18n}>
        <Scorecard entries={entries} />
      </I18nextProvider>,
    );
    const [score, tone, resolved, summary] = screen.getAllByTestId('score-entry') as [
      HTMLElement,
      HTMLElement,
      HTMLElement,
      HTMLElement,
    ];
    expect(within(score).getByRole('meter')).toHaveAttribute('max', '10');
    expect(score.querySelector('[data-kind="integer"]')).toHaveTextContent('7 / 10');
    expect(tone.querySelector('[data-kind="custom"]')).toHaveTextContent('neutral');
    expect(resolved.querySelector('[data-kind="boolean"]')).toHaveTextContent('No');
    expect(summary.querySelector('[data-kind="string"]')).toHaveTextContent('The customer | asked for a refund.');
    expect(within(score).getByText('How clear the agent was')).toBeInTheDocument();
  });

  it('never coerces a value of another type than its field, and keeps keys the format does not name', () => {
    const entries = scorecard({ clarity_score: 'seven', extra: 3 }, format);
    expect(entries).toEqual([
      { name: 'clarity_score', description: 'How clear the agent was', kind: 'string', value: 'seven' },
      { name: 'extra', description: '', kind: 'integer', value: 3, min: null, max: null },
    ]);
    expect(rangePosition({ value: 7, min: 1, max: 10 })).toBeCloseTo(6 / 9);
    expect(rangePosition({ value: 3, min: null, max: null })).toBeNull();
  });

  it('downloads as Markdown with the prompt version, model and a table', () => {
    const run: AnalysisRun = {
      _id: 'r1',
      fileId: 'f1',
      promptId: 'p1',
      promptVersion: 2,
      promptName: 'Call review',
      expectedFormat: [],
      patternId: null,
      status: 'completed',
      result,
      error: null,
      errorCode: null,
      model: 'fake-model',
      usage: { inputTokens: 120, outputTokens: 30 },
      progress: null,
      durationMs: 900,
      createdAt: '2026-01-02T10:00:00.000Z',
      finishedAt: '2026-01-02T10:00:01.000Z',
    };
    expect(runMarkdown(run, 'Call review', format)).toBe(
      [
        '# Call review (v2)',
        '',
        '- Run: 2026-01-02T10:00:00.000Z',
        '- Status: completed',
        '- Model: fake-model',
        '- Tokens: 120 in, 30 out',
        '',
        '| Field | Value |',
        '| --- | --- |',
        '| clarity_score | 7 / 10 |',
        '| tone | neutral |',
        '| resolved | false |',
        '| summary | The customer \\| asked for a refund. |',
        '',
      ].join('\n'),
    );
  });
});
