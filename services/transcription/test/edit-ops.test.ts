import type { SpeakerSegment } from '@earshot/contracts';
import { HttpError } from '@earshot/kit';
import * as ops from '../src/services/edits/ops';
import { applyRuns, diffRuns, idSource } from '../src/services/edits/retime';
import { speakersFor } from '../src/services/segments';

/** A segment of words `[text, start, end]` with ids `w-r-<n>` from `first`. */
function segment(id: string, speakerId: string, words: [string, number, number][], first = 0): SpeakerSegment {
  const list = words.map(([text, start, end], i) => ({ _id: `w-r-${first + i}`, text, start, end }));
  return {
    _id: id,
    speakerId,
    start: list[0]!.start,
    end: list[list.length - 1]!.end,
    text: list.map((w) => w.text).join(' '),
    words: list,
  };
}

/** Agent, Customer, Agent: three segments of a stereo call. */
function call(): ops.TranscriptState {
  return {
    speakers: speakersFor(2),
    segments: [
      segment('s-r-0', 'speaker_0', [
        ['hello', 0, 0.5],
        ['there', 0.6, 1],
        ['my', 1.2, 1.4],
        ['friend', 1.5, 2],
      ]),
      segment(
        's-r-1',
        'speaker_1',
        [
          ['good', 3, 3.4],
          ['morning', 3.5, 4],
        ],
        4,
      ),
      segment(
        's-r-2',
        'speaker_0',
        [
          ['how', 5, 5.3],
          ['are', 5.4, 5.6],
          ['you', 5.7, 6],
        ],
        6,
      ),
    ],
  };
}

const apply = (state: ops.TranscriptState, change: ops.Change | null): ops.TranscriptState =>
  change
    ? { speakers: change.speakers?.after ?? state.speakers, segments: ops.applyChange(state.segments, change) }
    : state;

const allWordIds = (state: ops.TranscriptState) => state.segments.flatMap((s) => s.words.map((w) => w._id));

function expectHttp(run: () => unknown, status: number, field?: string): void {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).statusCode).toBe(status);
    if (field) expect((error as HttpError).details).toMatchObject({ field });
    return;
  }
  throw new Error(`expected a ${status}`);
}

/** Every segment's text, start and end come from its words; ids are unique. */
function expectConsistent(state: ops.TranscriptState): void {
  for (const s of state.segments) {
    expect(s.text).toBe(s.words.map((w) => w.text).join(' '));
    expect(s.start).toBe(s.words[0]!.start);
    expect(s.end).toBe(s.words[s.words.length - 1]!.end);
  }
  const ids = allWordIds(state);
  expect(new Set(ids).size).toBe(ids.length);
  const segmentIds = state.segments.map((s) => s._id);
  expect(new Set(segmentIds).size).toBe(segmentIds.length);
  const starts = state.segments.map((s) => s.start);
  expect(starts).toEqual([...starts].sort((a, b) => a - b));
}

describe('segment text: the timing rule', () => {
  test('unchanged words keep id and times; a changed word takes the span between its unchanged neighbours', () => {
    const state = call();
    const change = ops.editSegmentText(state, 's-r-0', 'hello there my fiend', idSource('t'))!;
    const after = change.after[0]!;
    expect(after._id).toBe('s-r-0');
    expect(after.words.slice(0, 3)).toEqual(state.segments[0]!.words.slice(0, 3));
    // "fiend" replaces "friend": from the end of "my" (1.4) to the segment's end (2).
    expect(after.words[3]).toEqual({ _id: 'w-t-0', text: 'fiend', start: 1.4, end: 2 });
    expectConsistent(apply(state, change));
  });

  test('inserted words share the span in proportion to their length in characters', () => {
    const state = call();
    // "there my" (0.5 .. 1.5 between "hello" and "friend") becomes "a" + "bbb" (1 : 3 characters).
    const after = ops.editSegmentText(state, 's-r-0', 'hello a bbb friend', idSource('t'))!.after[0]!;
    expect(after.words.map((w) => [w.text, w.start, w.end])).toEqual([
      ['hello', 0, 0.5],
      ['a', 0.5, 0.75],
      ['bbb', 0.75, 1.5],
      ['friend', 1.5, 2],
    ]);
    expect(after.words[0]!._id).toBe('w-r-0');
    expect(after.words[3]!._id).toBe('w-r-3');
  });

  test('a word inserted at the start spans from the segment start; removing words keeps the rest', () => {
    const state = call();
    const inserted = ops.editSegmentText(state, 's-r-0', 'oh hello there my friend', idSource('t'))!.after[0]!;
    expect(inserted.words[0]).toMatchObject({ text: 'oh', start: 0, end: 0 });
    expect(inserted.words.slice(1)).toEqual(state.segments[0]!.words);
    const removed = ops.editSegmentText(state, 's-r-0', 'hello friend', idSource('t'))!.after[0]!;
    expect(removed.words).toEqual([state.segments[0]!.words[0], state.segments[0]!.words[3]]);
  });

  test('the same text changes nothing; an over-long word is a 400 naming body.text; another segment id is a 404', () => {
    const state = call();
    expect(ops.editSegmentText(state, 's-r-0', '  hello   there my friend ', idSource('t'))).toBeNull();
    expectHttp(() => ops.editSegmentText(state, 's-r-0', 'x'.repeat(101), idSource('t')), 400, 'body.text');
    expectHttp(() => ops.editSegmentText(state, 's-other', 'x', idSource('t')), 404);
  });

  test('diffRuns finds the smallest runs', () => {
    const words = segment('s', 'a', [
      ['a', 0, 1],
      ['b', 1, 2],
      ['c', 2, 3],
    ]).words;
    expect(diffRuns(words, ['a', 'x', 'c'])).toEqual([{ from: 1, to: 2, tokens: ['x'] }]);
    expect(diffRuns(words, ['a', 'b', 'c', 'd'])).toEqual([{ from: 3, to: 3, tokens: ['d'] }]);
    expect(diffRuns(words, [])).toEqual([{ from: 0, to: 3, tokens: [] }]);
    expect(
      applyRuns(
        segment('s', 'a', [
          ['a', 0, 1],
          ['b', 1, 2],
          ['c', 2, 3],
        ]),
        [],
        idSource('t'),
      ),
    ).toEqual(words);
  });
});

describe('speakers', () => {
  test('rename sets the label; the same name changes nothing; an unknown speaker is a 404', () => {
    const state = call();
    const change = ops.renameSpeaker(state, 'speaker_1', 'Maria')!;
    expect(change.speakers!.after.map((s) => s.label)).toEqual(['Agent', 'Maria']);
    expect(change.before).toEqual([]);
    expect(ops.renameSpeaker(state, 'speaker_0', 'Agent')).toBeNull();
    expectHttp(() => ops.renameSpeaker(state, 'speaker_9', 'X'), 404);
  });

  test('merge gives every segment of one speaker to the other and drops it; every word stays exactly once', () => {
    const state = call();
    const after = apply(state, ops.mergeSpeakers(state, 'speaker_1', 'speaker_0'));
    expect(after.speakers.map((s) => s.id)).toEqual(['speaker_0']);
    expect(after.segments.every((s) => s.speakerId === 'speaker_0')).toBe(true);
    expect(allWordIds(after).sort()).toEqual(allWordIds(state).sort());
    expectConsistent(after);
  });
});

describe('reassign, split, merge', () => {
  test('a whole segment changes speaker and keeps its id', () => {
    const state = call();
    const change = ops.reassign(state, 's-r-1', 'speaker_0', undefined, idSource('t'))!;
    expect(change.after).toEqual([{ ...state.segments[1]!, speakerId: 'speaker_0' }]);
    expect(ops.reassign(state, 's-r-1', 'speaker_1', undefined, idSource('t'))).toBeNull();
  });

  test('a run of words in the middle splits the segment in three; every word exactly once, in time order', () => {
    const state = call();
    const after = apply(state, ops.reassign(state, 's-r-0', 'speaker_1', ['w-r-2', 'w-r-1'], idSource('t')));
    expect(after.segments.map((s) => [s._id, s.speakerId, s.text])).toEqual([
      ['s-r-0', 'speaker_0', 'hello'],
      ['s-t-0', 'speaker_1', 'there my'],
      ['s-t-1', 'speaker_0', 'friend'],
      ['s-r-1', 'speaker_1', 'good morning'],
      ['s-r-2', 'speaker_0', 'how are you'],
    ]);
    expect(allWordIds(after).sort()).toEqual(allWordIds(state).sort());
    expectConsistent(after);
  });

  test('words that do not follow each other are a 400; a word of another segment a 404', () => {
    const state = call();
    expectHttp(() => ops.reassign(state, 's-r-0', 'speaker_1', ['w-r-0', 'w-r-2'], idSource('t')), 400, 'body.wordIds');
    expectHttp(() => ops.reassign(state, 's-r-0', 'speaker_1', ['w-r-4'], idSource('t')), 404);
    expectHttp(() => ops.reassign(state, 's-r-0', 'speaker_7', undefined, idSource('t')), 404);
  });

  test('split at a word; not before the first word; merge with the next only when it is the same speaker', () => {
    const state = call();
    const split = apply(state, ops.split(state, 's-r-2', 'w-r-7', idSource('t')));
    expect(split.segments.slice(2).map((s) => [s._id, s.text, s.start, s.end])).toEqual([
      ['s-r-2', 'how', 5, 5.3],
      ['s-t-0', 'are you', 5.4, 6],
    ]);
    expectHttp(() => ops.split(state, 's-r-2', 'w-r-6', idSource('t')), 400, 'body.wordId');
    const merged = apply(split, ops.mergeWithNext(split, 's-r-2'));
    expect(merged).toEqual(state);
    expectHttp(() => ops.mergeWithNext(state, 's-r-0'), 409);
    expectHttp(() => ops.mergeWithNext(state, 's-r-2'), 409);
  });
});

describe('find and replace', () => {
  const input = (find: string, replace: string, more: Partial<ops.ReplaceInput> = {}): ops.ReplaceInput => ({
    find,
    replace,
    matchCase: false,
    wholeWord: false,
    ...more,
  });
  const state = (): ops.TranscriptState => ({
    speakers: speakersFor(1),
    segments: [
      segment('s-r-0', 'speaker_0', [
        ['The', 0, 0.3],
        ['cat', 0.4, 0.7],
        ['and', 0.8, 1],
        ['the', 1.1, 1.3],
        ['cathedral', 1.4, 2],
      ]),
      segment(
        's-r-1',
        'speaker_0',
        [
          ['the', 3, 3.2],
          ['end', 3.3, 3.6],
        ],
        5,
      ),
    ],
  });

  test('counts: case-insensitive by default, match case, whole word', () => {
    // "The", "the", "ca-the-dral", "the".
    expect(ops.replaceText(state(), input('the', 'a'), idSource('t')).replaced).toBe(4);
    expect(ops.replaceText(state(), input('the', 'a', { matchCase: true }), idSource('t')).replaced).toBe(3);
    expect(ops.replaceText(state(), input('the', 'a', { wholeWord: true }), idSource('t')).replaced).toBe(3);
    expect(
      ops.replaceText(state(), input('The', 'a', { wholeWord: true, matchCase: true }), idSource('t')).replaced,
    ).toBe(1);
    expect(ops.replaceText(state(), input('cat', 'dog'), idSource('t')).replaced).toBe(2);
    expect(ops.replaceText(state(), input('cat', 'dog', { wholeWord: true }), idSource('t')).replaced).toBe(1);
    expect(ops.replaceText(state(), input('zebra', 'x'), idSource('t'))).toEqual({ replaced: 0, change: null });
  });

  test("a match inside a word edits that word, with the word's own span; the others keep theirs", () => {
    const s = state();
    const { change } = ops.replaceText(s, input('cat', 'dog'), idSource('t'));
    const after = apply(s, change).segments[0]!;
    expect(after.text).toBe('The dog and the doghedral');
    expect(after.words[1]).toMatchObject({ text: 'dog', start: 0.3, end: 0.8 });
    expect(after.words[0]).toEqual(s.segments[0]!.words[0]);
    expect(after.words[2]).toEqual(s.segments[0]!.words[2]);
    expect(after.words[4]).toMatchObject({ text: 'doghedral', start: 1.3, end: 2 });
  });

  test('a phrase of several words matches within a segment and may become fewer words', () => {
    const s = state();
    const { replaced, change } = ops.replaceText(s, input('cat and the', 'kitten'), idSource('t'));
    expect(replaced).toBe(1);
    const after = apply(s, change);
    expect(after.segments[0]!.text).toBe('The kitten cathedral');
    expect(after.segments[0]!.words[1]).toMatchObject({ text: 'kitten', start: 0.3, end: 1.4 });
    expectConsistent(after);
    // "the end" spans two segments' texts nowhere: no match across segments.
    expect(ops.replaceText(s, input('cathedral the', 'x'), idSource('t')).replaced).toBe(0);
  });

  test('replace-one: only the occurrence-th match of that segment', () => {
    const s = state();
    const { replaced, change } = ops.replaceText(
      s,
      input('the', 'a', { segmentId: 's-r-0', occurrence: 1 }),
      idSource('t'),
    );
    expect(replaced).toBe(1);
    expect(apply(s, change).segments.map((x) => x.text)).toEqual(['The cat and a cathedral', 'the end']);
    expect(ops.replaceText(s, input('the', 'a', { segmentId: 's-r-0', occurrence: 5 }), idSource('t')).replaced).toBe(
      0,
    );
    expectHttp(() => ops.replaceText(s, input('the', 'a', { segmentId: 's-nope' }), idSource('t')), 404);
  });

  test('replacing every word of a segment with nothing removes the segment', () => {
    const s = state();
    const { change } = ops.replaceText(s, input('the end', ''), idSource('t'));
    const after = apply(s, change);
    expect(after.segments.map((x) => x._id)).toEqual(['s-r-0']);
    expect(ops.patchOf(change!)).toEqual({ removed: ['s-r-1'], segments: [] });
  });

  test('special characters are found literally', () => {
    const s = {
      speakers: speakersFor(1),
      segments: [
        segment('s-r-0', 'speaker_0', [
          ['a.b', 0, 1],
          ['(c)', 1, 2],
          ['$&', 2, 3],
        ]),
      ],
    };
    const { change, replaced } = ops.replaceText(s, input('(c)', '$&x'), idSource('t'));
    expect(replaced).toBe(1);
    expect(apply(s, change).segments[0]!.text).toBe('a.b $&x $&');
  });
});

describe('undo and redo', () => {
  test('undo restores what the edit changed; redo makes it again', () => {
    const state = call();
    const change = ops.split(state, 's-r-0', 'w-r-2', idSource('t'));
    const edited = apply(state, change);
    const undone = apply(edited, ops.reverse(edited, change, 'undo', 'Undid'));
    expect(undone).toEqual(state);
    const redone = apply(undone, ops.reverse(undone, change, 'redo', 'Redid'));
    expect(redone).toEqual(edited);
  });

  test('a speaker merge undone brings the speaker back in its place without losing a later rename of another speaker', () => {
    const state = call();
    const merge = ops.mergeSpeakers(state, 'speaker_1', 'speaker_0');
    const merged = apply(state, merge);
    const renamed = apply(merged, ops.renameSpeaker(merged, 'speaker_0', 'Ann'));
    const undone = apply(renamed, ops.reverse(renamed, merge, 'undo', 'Undid'));
    expect(undone.speakers.map((s) => [s.id, s.label])).toEqual([
      ['speaker_0', 'Ann'],
      ['speaker_1', 'Customer'],
    ]);
    expect(undone.segments.map((s) => s.speakerId)).toEqual(['speaker_0', 'speaker_1', 'speaker_0']);
  });

  test('409 when what the edit changed has been changed since', () => {
    const state = call();
    const change = ops.editSegmentText(state, 's-r-1', 'good evening', idSource('t'))!;
    const edited = apply(state, change);
    const again = apply(edited, ops.editSegmentText(edited, 's-r-1', 'good night', idSource('u')));
    expectHttp(() => ops.reverse(again, change, 'undo', 'Undid'), 409);
    // A change elsewhere does not stand in the way.
    const elsewhere = apply(edited, ops.editSegmentText(edited, 's-r-2', 'how is it', idSource('v')));
    expect(apply(elsewhere, ops.reverse(elsewhere, change, 'undo', 'Undid')).segments[1]).toEqual(state.segments[1]);
    // A rename renamed again since cannot be undone.
    const rename = ops.renameSpeaker(state, 'speaker_0', 'Ann')!;
    const twice = apply(apply(state, rename), ops.renameSpeaker(apply(state, rename), 'speaker_0', 'Anna'));
    expectHttp(() => ops.reverse(twice, rename, 'undo', 'Undid'), 409);
  });

  test('the order of segments that start together is kept', () => {
    const state: ops.TranscriptState = {
      speakers: speakersFor(2),
      segments: [segment('s-r-0', 'speaker_0', [['a', 1, 2]]), segment('s-r-1', 'speaker_1', [['b', 1, 2]], 1)],
    };
    const change = ops.editSegmentText(state, 's-r-1', 'c', idSource('t'))!;
    expect(apply(state, change).segments.map((s) => s._id)).toEqual(['s-r-0', 's-r-1']);
  });
});
