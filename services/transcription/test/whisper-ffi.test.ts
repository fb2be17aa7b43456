import { createRequire } from 'node:module';
import { cpus } from 'node:os';
import { join } from 'node:path';
import koffi from 'koffi';
import { endsInsideCharacter, openWhisperLibrary, type WhisperLibrary } from '../src/engines/whisper-ffi.mjs';
import { whisperPackage } from '../src/engines/whisper';
import { tmp } from './tmp';
import { writeTinyWhisperModel } from './tiny-whisper';

const require = createRequire(import.meta.url);
const f = Math.fround;

/**
 * whisper_full() takes its parameters by value, so the struct whisper-ffi.mjs declares must be the
 * one the pinned binding was compiled with. These tests read the library's own defaults through
 * that struct: a binding upgrade that moves, adds or resizes a field fails here, naming the fields.
 */
describe("whisper.cpp's C API through koffi, on the binding's library", () => {
  let library: WhisperLibrary;
  beforeAll(() => {
    library = openWhisperLibrary(koffi, require.resolve(whisperPackage('cpu')));
  });

  test('the declared parameter structs match the library: every default in place, and the sizes it writes', () => {
    expect(library.layoutProblems()).toEqual([]);
    // The same, spelled out: whisper.cpp's defaults, decoded at the declared offsets.
    const greedy = library.defaults(0);
    expect(greedy.full).toMatchObject({
      strategy: 0,
      n_threads: Math.min(4, cpus().length),
      n_max_text_ctx: 16384,
      offset_ms: 0,
      duration_ms: 0,
      no_context: true,
      print_progress: true,
      print_timestamps: true,
      token_timestamps: false,
      thold_pt: f(0.01),
      thold_ptsum: f(0.01),
      max_len: 0,
      split_on_word: false,
      max_tokens: 0,
      detect_language: false,
      suppress_blank: true,
      temperature: 0,
      max_initial_ts: 1,
      length_penalty: -1,
      temperature_inc: f(0.2),
      entropy_thold: f(2.4),
      logprob_thold: -1,
      no_speech_thold: f(0.6),
      greedy: { best_of: 5 },
      beam_search: { beam_size: -1, patience: -1 },
      abort_callback: null,
      abort_callback_user_data: null,
      grammar_penalty: 100,
      vad: false,
      vad_params: {
        threshold: 0.5,
        min_speech_duration_ms: 250,
        min_silence_duration_ms: 100,
        speech_pad_ms: 30,
        samples_overlap: f(0.1),
      },
    });
    expect(koffi.decode(greedy.full.language, 'char', -1)).toBe('en');
    expect(library.defaults(1).full).toMatchObject({
      strategy: 1,
      greedy: { best_of: -1 },
      beam_search: { beam_size: 5, patience: -1 },
    });
    expect(greedy.context).toMatchObject({
      use_gpu: true,
      flash_attn: true,
      gpu_device: 0,
      dtw_token_timestamps: false,
      dtw_n_top: -1,
      dtw_mem_size: 128 * 1024 * 1024,
    });
    // whisper.h 1.9 on x86-64: what whisper_full_default_params and whisper_context_default_params write.
    expect(library.sizes()).toEqual({ context: 48, full: 304 });
  });

  test('a tiny model gives text tokens with times and a probability each; the abort flag stops whisper_full', () => {
    const path = join(tmp(), 'ggml-tiny-ffi.bin');
    writeTinyWhisperModel(path);
    const context = library.load(path, false);
    try {
      // A second of a 440 Hz tone: random weights hear some tokens in anything.
      const samples = Float32Array.from({ length: 16_000 }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 440 * i) / 16_000));
      const abortFlag = new SharedArrayBuffer(2);
      const heard = library.transcribe(context, samples, { language: 'lv', threads: 1, abortFlag });
      expect(heard).toMatchObject({ isAborted: false, language: 'lv' });
      expect(heard.tokens.length).toBeGreaterThan(0);
      for (const token of heard.tokens) {
        // Special tokens ([_BEG_], timestamps) are left out; the tiny vocabulary's others remain.
        expect(token.text).not.toMatch(/^\[_(BEG|TT_\d+|SOT|EOT)_?\]$/);
        expect(token.p).toBeGreaterThanOrEqual(0);
        expect(token.p).toBeLessThanOrEqual(1);
        expect(token.t1).toBeGreaterThanOrEqual(token.t0);
        expect(token.t1).toBeLessThanOrEqual(30_000);
      }
      // Set before the call, the flag is the first thing whisper.cpp's abort callback reads.
      new Uint8Array(abortFlag)[0] = 1;
      expect(library.transcribe(context, samples, { language: 'auto', threads: 1, abortFlag })).toEqual({
        isAborted: true,
        tokens: [],
      });
    } finally {
      library.free(context);
    }
  }, 60_000);
});

test('a token that ends inside a UTF-8 character waits for the next one', () => {
  const latvian = Buffer.from('ņ'); // two bytes
  const emoji = Buffer.from('🙂'); // four bytes
  expect(endsInsideCharacter(latvian.subarray(0, 1))).toBe(true);
  expect(endsInsideCharacter(latvian)).toBe(false);
  expect(endsInsideCharacter(Buffer.concat([Buffer.from(' a'), emoji.subarray(0, 3)]))).toBe(true);
  expect(endsInsideCharacter(Buffer.concat([Buffer.from(' a'), emoji]))).toBe(false);
  expect(endsInsideCharacter(Buffer.from(' word'))).toBe(false);
  expect(endsInsideCharacter(Buffer.alloc(0))).toBe(false);
});
