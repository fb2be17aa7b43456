// whisper.cpp's own C API, called through koffi on the binding's shared library (index.node exports
// all of whisper.h), for what the binding's JavaScript leaves out: each token's probability.
//
// Plain JavaScript on purpose: the worker thread (whisper-host.mjs) loads it, and a worker thread
// has neither tsx's nor jest's TypeScript transform. Types: whisper-ffi.d.mts.
//
// whisper_full() takes `struct whisper_full_params` by value, so koffi must lay it out exactly as
// the library was compiled. The structs below follow whisper.h 1.9 field by field; whether they
// match the library at hand is checked, not assumed (layoutProblems): the library's defaults,
// decoded with these structs, must be whisper.cpp's known defaults, and the size the library writes
// must be the size declared here. A binding built from another header fails that check, and the
// worker then uses the binding's own JavaScript path (words without confidence) and says why.
import { cpus } from 'node:os';

/** whisper.h's `WHISPER_SAMPLING_GREEDY` and `WHISPER_SAMPLING_BEAM_SEARCH`. */
const GREEDY = 0;
const BEAM_SEARCH = 1;
const FLT_MAX = 3.4028234663852886e38;

/** @param {typeof import('koffi')} koffi */
function declare(koffi) {
  const context = koffi.struct({
    use_gpu: 'bool',
    // Not in upstream whisper.h: @fugood's build (whisper.rn's fork) adds a flag here. Found from the
    // library: the next byte is flash_attn (setting it turns on "flash attn" in whisper.cpp's log).
    use_coreml: 'bool',
    flash_attn: 'bool',
    gpu_device: 'int',
    dtw_token_timestamps: 'bool',
    dtw_aheads_preset: 'int',
    dtw_n_top: 'int',
    dtw_aheads: koffi.struct({ n_heads: 'size_t', heads: 'void *' }),
    dtw_mem_size: 'size_t',
  });
  const full = koffi.struct({
    strategy: 'int',
    n_threads: 'int',
    n_max_text_ctx: 'int',
    offset_ms: 'int',
    duration_ms: 'int',
    translate: 'bool',
    no_context: 'bool',
    no_timestamps: 'bool',
    single_segment: 'bool',
    print_special: 'bool',
    print_progress: 'bool',
    print_realtime: 'bool',
    print_timestamps: 'bool',
    token_timestamps: 'bool',
    thold_pt: 'float',
    thold_ptsum: 'float',
    max_len: 'int',
    split_on_word: 'bool',
    max_tokens: 'int',
    debug_mode: 'bool',
    audio_ctx: 'int',
    tdrz_enable: 'bool',
    suppress_regex: 'void *',
    initial_prompt: 'void *',
    carry_initial_prompt: 'bool',
    prompt_tokens: 'void *',
    prompt_n_tokens: 'int',
    language: 'void *',
    detect_language: 'bool',
    suppress_blank: 'bool',
    suppress_nst: 'bool',
    temperature: 'float',
    max_initial_ts: 'float',
    length_penalty: 'float',
    temperature_inc: 'float',
    entropy_thold: 'float',
    logprob_thold: 'float',
    no_speech_thold: 'float',
    greedy: koffi.struct({ best_of: 'int' }),
    beam_search: koffi.struct({ beam_size: 'int', patience: 'float' }),
    new_segment_callback: 'void *',
    new_segment_callback_user_data: 'void *',
    progress_callback: 'void *',
    progress_callback_user_data: 'void *',
    encoder_begin_callback: 'void *',
    encoder_begin_callback_user_data: 'void *',
    abort_callback: 'void *',
    abort_callback_user_data: 'void *',
    logits_filter_callback: 'void *',
    logits_filter_callback_user_data: 'void *',
    grammar_rules: 'void *',
    n_grammar_rules: 'size_t',
    i_start_rule: 'size_t',
    grammar_penalty: 'float',
    vad: 'bool',
    vad_model_path: 'void *',
    vad_params: koffi.struct({
      threshold: 'float',
      min_speech_duration_ms: 'int',
      min_silence_duration_ms: 'int',
      max_speech_duration_s: 'float',
      speech_pad_ms: 'int',
      samples_overlap: 'float',
    }),
  });
  return { context, full };
}
// Pointers to strings are declared `void *`: a wrong layout must not make the check itself read a
// string at an address that is not one (a crash of the whole process). Strings are read only
// once every other field has its expected value (layoutProblems).

/**
 * whisper.cpp's defaults (whisper_context_default_params, whisper_full_default_params in
 * whisper.cpp 1.7–1.9), as the structs above decode them. Every field is listed, so a field moved,
 * added before another or resized shows as a wrong value somewhere. Floats are single precision.
 */
export function expectedDefaults(strategy) {
  const f = Math.fround;
  return {
    context: {
      use_gpu: true,
      use_coreml: false,
      flash_attn: true,
      gpu_device: 0,
      dtw_token_timestamps: false,
      dtw_aheads_preset: 0,
      dtw_n_top: -1,
      dtw_aheads: { n_heads: 0, heads: null },
      dtw_mem_size: 128 * 1024 * 1024,
    },
    full: {
      strategy,
      // std::min(4, std::thread::hardware_concurrency()): the online cores, as os.cpus() counts them.
      n_threads: Math.min(4, cpus().length),
      n_max_text_ctx: 16384,
      offset_ms: 0,
      duration_ms: 0,
      translate: false,
      no_context: true,
      no_timestamps: false,
      single_segment: false,
      print_special: false,
      print_progress: true,
      print_realtime: false,
      print_timestamps: true,
      token_timestamps: false,
      thold_pt: f(0.01),
      thold_ptsum: f(0.01),
      max_len: 0,
      split_on_word: false,
      max_tokens: 0,
      debug_mode: false,
      audio_ctx: 0,
      tdrz_enable: false,
      suppress_regex: null,
      initial_prompt: null,
      carry_initial_prompt: false,
      prompt_tokens: null,
      prompt_n_tokens: 0,
      language: 'en',
      detect_language: false,
      suppress_blank: true,
      suppress_nst: false,
      temperature: 0,
      max_initial_ts: 1,
      length_penalty: -1,
      temperature_inc: f(0.2),
      entropy_thold: f(2.4),
      logprob_thold: -1,
      no_speech_thold: f(0.6),
      greedy: { best_of: strategy === GREEDY ? 5 : -1 },
      beam_search: { beam_size: strategy === GREEDY ? -1 : 5, patience: -1 },
      new_segment_callback: null,
      new_segment_callback_user_data: null,
      progress_callback: null,
      progress_callback_user_data: null,
      encoder_begin_callback: null,
      encoder_begin_callback_user_data: null,
      abort_callback: null,
      abort_callback_user_data: null,
      logits_filter_callback: null,
      logits_filter_callback_user_data: null,
      grammar_rules: null,
      n_grammar_rules: 0,
      i_start_rule: 0,
      grammar_penalty: 100,
      vad: false,
      vad_model_path: null,
      vad_params: {
        threshold: 0.5,
        min_speech_duration_ms: 250,
        min_silence_duration_ms: 100,
        max_speech_duration_s: FLT_MAX,
        speech_pad_ms: 30,
        samples_overlap: f(0.1),
      },
    },
  };
}

/**
 * Each field of `actual` that differs from `expected`, as `path: got …, expected …`. A string
 * expected is a pointer here: it must not be null, and the string is left in `strings` to read
 * once nothing else differs.
 */
function differences(actual, expected, path, out, strings) {
  for (const [key, want] of Object.entries(expected)) {
    const got = actual?.[key];
    const name = `${path}.${key}`;
    if (want !== null && typeof want === 'object') differences(got, want, name, out, strings);
    else if (typeof want === 'string') {
      if (got === null || got === undefined) out.push(`${name}: got null, expected "${want}"`);
      else strings.push({ name, pointer: got, want });
    } else if (!Object.is(typeof got === 'bigint' ? Number(got) : got, want))
      out.push(`${name}: got ${String(got)}, expected ${String(want)}`);
  }
}

/**
 * The number of bytes a function returning a struct by value writes. On x86-64 (System V) such a
 * struct is returned through a hidden first argument pointing at the caller's memory, so the
 * function is called with a buffer filled with a pattern, twice (two patterns, so a byte that
 * happens to equal one pattern is still seen): the last byte changed ends the struct.
 */
function writtenSize(call) {
  let size = 0;
  for (const fill of [0xaa, 0x55]) {
    // Far larger than any whisper.h struct: the function writes into it whatever its size.
    const buffer = Buffer.alloc(4096, fill);
    call(buffer);
    for (let i = buffer.length - 1; i >= size; i--) {
      if (buffer[i] !== fill) {
        size = i + 1;
        break;
      }
    }
  }
  return size;
}

/**
 * Opens the library at `libraryPath` (the binding's index.node) with `koffi`. `abortFlag` is a
 * two-byte SharedArrayBuffer: while its first byte is not 0, a running whisper_full stops.
 *
 * @param {typeof import('koffi')} koffi
 * @param {string} libraryPath
 */
export function openWhisperLibrary(koffi, libraryPath) {
  const lib = koffi.load(libraryPath);
  const types = declare(koffi);
  const fn = (result, name, args) => lib.func(name, result, args);
  const c = {
    contextDefaults: fn('void *', 'whisper_context_default_params_by_ref', []),
    fullDefaults: fn('void *', 'whisper_full_default_params_by_ref', ['int']),
    freeContextParams: fn('void', 'whisper_free_context_params', ['void *']),
    freeFullParams: fn('void', 'whisper_free_params', ['void *']),
    init: fn('void *', 'whisper_init_from_file_with_params', ['const char *', types.context]),
    free: fn('void', 'whisper_free', ['void *']),
    full: fn('int', 'whisper_full', ['void *', types.full, 'const float *', 'int']),
    nSegments: fn('int', 'whisper_full_n_segments', ['void *']),
    nTokens: fn('int', 'whisper_full_n_tokens', ['void *', 'int']),
    tokenId: fn('int', 'whisper_full_get_token_id', ['void *', 'int', 'int']),
    tokenText: fn('void *', 'whisper_full_get_token_text', ['void *', 'int', 'int']),
    tokenP: fn('float', 'whisper_full_get_token_p', ['void *', 'int', 'int']),
    tokenT0: fn('int64_t', 'whisper_full_get_token_t0', ['void *', 'int', 'int']),
    tokenT1: fn('int64_t', 'whisper_full_get_token_t1', ['void *', 'int', 'int']),
    tokenEot: fn('int', 'whisper_token_eot', ['void *']),
    langId: fn('int', 'whisper_full_lang_id', ['void *']),
    langStr: fn('const char *', 'whisper_lang_str', ['int']),
    // Returning a struct by value, declared as the x86-64 System V call it is (see writtenSize).
    contextDefaultsInto: fn('void *', 'whisper_context_default_params', ['void *']),
    fullDefaultsInto: fn('void *', 'whisper_full_default_params', ['void *', 'int']),
  };
  // The C library, as this process already has it (dlopen of the process itself).
  const libc = koffi.load(null);
  const strlen = libc.func('strlen', 'size_t', ['void *']);

  /** The library's defaults decoded with our structs (whisper.cpp allocates them; freed here). */
  function defaults(strategy) {
    const contextPtr = c.contextDefaults();
    const fullPtr = c.fullDefaults(strategy);
    try {
      return { context: koffi.decode(contextPtr, types.context), full: koffi.decode(fullPtr, types.full) };
    } finally {
      c.freeContextParams(contextPtr);
      c.freeFullParams(fullPtr);
    }
  }

  /** What the library writes for each struct, where that can be measured (x86-64 System V), else null. */
  function sizes() {
    if (process.arch !== 'x64' || process.platform === 'win32') return null;
    return {
      context: writtenSize((out) => c.contextDefaultsInto(out)),
      full: writtenSize((out) => c.fullDefaultsInto(out, GREEDY)),
    };
  }

  /** Every way the library differs from the structs declared here; empty when they match. */
  function layoutProblems() {
    const problems = [];
    const strings = [];
    for (const strategy of [GREEDY, BEAM_SEARCH]) {
      const expected = expectedDefaults(strategy);
      const contextPtr = c.contextDefaults();
      const fullPtr = c.fullDefaults(strategy);
      try {
        differences(
          koffi.decode(contextPtr, types.context),
          expected.context,
          'whisper_context_params',
          problems,
          strings,
        );
        differences(
          koffi.decode(fullPtr, types.full),
          expected.full,
          `whisper_full_params(strategy ${strategy})`,
          problems,
          strings,
        );
        if (problems.length) continue;
        for (const { name, pointer, want } of strings.splice(0)) {
          const got = koffi.decode(pointer, 'char', -1);
          if (got !== want) problems.push(`${name}: got "${got}", expected "${want}"`);
        }
      } finally {
        c.freeContextParams(contextPtr);
        c.freeFullParams(fullPtr);
      }
    }
    const measured = sizes();
    if (measured) {
      const declared = { context: koffi.sizeof(types.context), full: koffi.sizeof(types.full) };
      if (measured.context !== declared.context)
        problems.push(
          `whisper_context_params: the library writes ${measured.context} bytes, declared ${declared.context}`,
        );
      if (measured.full !== declared.full)
        problems.push(`whisper_full_params: the library writes ${measured.full} bytes, declared ${declared.full}`);
    }
    return [...new Set(problems)];
  }

  /** Loads a model; throws when whisper.cpp refuses the file. */
  function load(path, useGpu) {
    const params = { ...defaults(GREEDY).context, use_gpu: useGpu };
    const ctx = c.init(path, params);
    if (!ctx) throw new Error('whisper.cpp could not load the file');
    return ctx;
  }

  /** The token's text as whisper.cpp holds it: bytes, since a token may end inside a UTF-8 character. */
  function tokenBytes(ctx, segment, token) {
    const text = c.tokenText(ctx, segment, token);
    const length = Number(strlen(text));
    return length ? Buffer.from(koffi.view(text, length)) : Buffer.alloc(0);
  }

  /**
   * Recognises `samples` (16 kHz mono, -1…1). Returns the language and the text tokens (special
   * tokens and timestamps left out) with times in milliseconds and their probabilities; tokens that
   * end inside a UTF-8 character are joined to the next. Synchronous: the worker thread waits in
   * whisper.cpp; `abortFlag`, written by the main thread, stops it from outside.
   */
  function transcribe(ctx, samples, { language, threads, abortFlag }) {
    const params = {
      ...defaults(GREEDY).full,
      n_threads: threads,
      // Read by whisper_full during this (synchronous) call only.
      language: Buffer.from(`${language}\0`),
      token_timestamps: true,
      print_progress: false,
      print_timestamps: false,
      // whisper.cpp asks abort_callback(user_data) between steps; strlen of the flag (a byte, then
      // a NUL) is 1 once the main thread sets it. A native function, so no JavaScript runs on
      // whisper.cpp's threads, and it works while this thread is busy inside whisper_full.
      abort_callback: libc.symbol('strlen'),
      abort_callback_user_data: koffi.address(new Uint8Array(abortFlag)),
    };
    const code = c.full(ctx, params, samples, samples.length);
    if (new Uint8Array(abortFlag)[0]) return { isAborted: true, tokens: [] };
    if (code !== 0) throw new Error(`whisper_full failed (code ${code})`);
    const eot = c.tokenEot(ctx);
    const tokens = [];
    let pending = null;
    for (let segment = 0; segment < c.nSegments(ctx); segment++) {
      for (let token = 0; token < c.nTokens(ctx, segment); token++) {
        // Ids from end-of-text on are special ([_SOT_], [_BEG_], languages, timestamps…), never words.
        if (c.tokenId(ctx, segment, token) >= eot) continue;
        const piece = {
          bytes: tokenBytes(ctx, segment, token),
          t0: Number(c.tokenT0(ctx, segment, token)) * 10,
          t1: Number(c.tokenT1(ctx, segment, token)) * 10,
          p: c.tokenP(ctx, segment, token),
        };
        pending = pending
          ? {
              bytes: Buffer.concat([pending.bytes, piece.bytes]),
              t0: pending.t0,
              t1: piece.t1,
              p: Math.min(pending.p, piece.p),
            }
          : piece;
        if (endsInsideCharacter(pending.bytes)) continue;
        tokens.push({ text: pending.bytes.toString('utf8'), t0: pending.t0, t1: pending.t1, p: pending.p });
        pending = null;
      }
    }
    if (pending) tokens.push({ text: pending.bytes.toString('utf8'), t0: pending.t0, t1: pending.t1, p: pending.p });
    return { isAborted: false, language: c.langStr(c.langId(ctx)) ?? undefined, tokens };
  }

  return { defaults, sizes, layoutProblems, load, free: (ctx) => c.free(ctx), transcribe };
}

/** Whether `bytes` ends with the first bytes of a UTF-8 character whose other bytes are still to come. */
export function endsInsideCharacter(bytes) {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back];
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back;
  }
  return false;
}
