import type { SpeakerSegment } from '@earshot/contracts';
import { redactSegments } from '../src/redaction';
import { editSegmentText, renameSpeaker, replaceText } from '../src/services/edits/ops';
import { redactChange } from '../src/services/edits/redaction';
import { idSource } from '../src/services/edits/retime';
import { speakersFor } from '../src/services/segments';

test('a redacted transcript: one label per span and segment keeps the time span; a card said across two segments with the agent between is found', () => {
  const word = (id: string, text: string, start: number) => ({ _id: id, text, start, end: start + 0.4 });
  const segments: SpeakerSegment[] = [
    {
      _id: 's0',
      speakerId: 'speaker_1',
      start: 0,
      end: 3.4,
      text: '',
      words: [
        word('a', 'it', 0),
        word('b', 'is', 0.5),
        word('c', '4111', 1),
        word('d', '1111', 2),
        word('e', '1111', 3),
      ],
    },
    { _id: 's1', speakerId: 'speaker_0', start: 3.5, end: 3.9, text: 'mm-hm', words: [word('f', 'mm-hm', 3.5)] },
    {
      _id: 's2',
      speakerId: 'speaker_1',
      start: 5,
      end: 6.4,
      text: '',
      words: [word('g', '1111', 5), word('h', 'thanks', 6)],
    },
  ];
  const { segments: out, spans } = redactSegments(segments);
  expect(spans).toEqual([{ kind: 'card_number', start: 1, end: 5.4 }]);
  expect(out[0]!.words).toEqual([
    word('a', 'it', 0),
    word('b', 'is', 0.5),
    { _id: 'c', text: '[card number]', start: 1, end: 3.4 },
  ]);
  expect(out[0]!.text).toBe('it is [card number]');
  expect(out[1]).toBe(segments[1]);
  expect(out[2]!.words).toEqual([{ _id: 'g', text: '[card number]', start: 5, end: 5.4 }, word('h', 'thanks', 6)]);
  expect(JSON.stringify(out)).not.toMatch(/1111/);
});

test('a glued number in a transcript word: the word keeps its id, times and the text around the number', () => {
  const segment: SpeakerSegment = {
    _id: 's0',
    speakerId: 'speaker_1',
    start: 0,
    end: 4.4,
    text: '',
    words: [
      { _id: 'a', text: 'number', start: 0, end: 0.4 },
      { _id: 'b', text: 'card:4111', start: 1, end: 1.4 },
      { _id: 'c', text: '1111', start: 2, end: 2.4 },
      { _id: 'd', text: '1111', start: 3, end: 3.4 },
      { _id: 'e', text: '1111,', start: 4, end: 4.4 },
    ],
  };
  const { segments, spans } = redactSegments([segment]);
  expect(spans).toEqual([{ kind: 'card_number', start: 1, end: 4.4 }]);
  expect(segments[0]!.words).toEqual([
    { _id: 'a', text: 'number', start: 0, end: 0.4 },
    { _id: 'b', text: 'card:[card number]', start: 1, end: 4.4 },
  ]);
  expect(segments[0]!.text).toBe('number card:[card number]');
});

test('an edit redacted: its segments, the speaker names it sets and its summary hold labels, and no digit of a number cut short', () => {
  const word = (id: string, text: string, start: number) => ({ _id: id, text, start, end: start + 0.4 });
  const before: SpeakerSegment = {
    _id: 's0',
    speakerId: 'speaker_0',
    start: 0,
    end: 1.4,
    text: 'my number',
    words: [word('a', 'my', 0), word('b', 'number', 1)],
  };
  const state = { speakers: speakersFor(2), segments: [before] };
  const typed = 'my long and winding number is card#4111111111111111 thanks';
  const segmentEdit = editSegmentText(state, 's0', typed, idSource('etest'))!;
  // The summary quotes the typed text cut at 40 characters: "…card#411111111…", which no detector vouches for.
  expect(segmentEdit.summary).toMatch(/card#4111/);
  const { change, redacted } = redactChange(segmentEdit);
  expect(redacted).toBe(1);
  expect(change.after[0]!.text).toBe('my long and winding number is card#[card number] thanks');
  expect(change.summary).not.toMatch(/\d/);
  expect(change.before).toBe(segmentEdit.before);

  const rename = redactChange(renameSpeaker(state, 'speaker_1', 'Dana tel:+37251234567')!);
  expect(rename.redacted).toBe(1);
  expect(rename.change.speakers!.after.map((s) => s.label)).toEqual(['Agent', 'Dana tel:[phone number]']);
  expect(rename.change.summary).toBe('Renamed "Customer" to "Dana tel:[phone number]"');

  // Nothing found: the change as it was, and a find-and-replace count is the edit's, not typed text.
  const plain = renameSpeaker(state, 'speaker_1', 'Dana 2')!;
  expect(redactChange(plain)).toEqual({ change: plain, redacted: 0 });
  const replace = replaceText(
    state,
    { find: 'number', replace: '4111 1111 1111 1111', matchCase: false, wholeWord: false },
    idSource('etest'),
  );
  expect(redactChange(replace.change!).change.summary).toBe('Replaced "number" with [card number] 1 time');
});
