import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';

/** whisper.cpp's n_vocab of a multilingual model; English-only models have one token fewer. */
export const MULTILINGUAL_VOCAB = 51865;
export const ENGLISH_VOCAB = 51864;

/**
 * Writes a whisper ggml model in the real file format (what whisper.cpp's `whisper_model_load`
 * reads: magic, 11 int32 hyper-parameters, mel filters, vocabulary, then every tensor by name),
 * with one encoder and one decoder layer of width 8 and small random weights: about 1.8 MB, it
 * loads, detects a language and gives timed tokens, of random words. `n_audio_ctx` stays 1500
 * (30 s of mel frames after the stride-2 convolution), and the vocabulary holds the token " "
 * (whisper.cpp looks it up). Returns the file's size and SHA-256, as a catalogue entry wants them.
 */
export function writeTinyWhisperModel(
  path: string,
  options: { vocab?: number; seed?: number } = {},
): { sizeBytes: number; sha256: string } {
  const H = {
    n_vocab: options.vocab ?? MULTILINGUAL_VOCAB,
    n_audio_ctx: 1500,
    n_audio_state: 8,
    n_audio_head: 2,
    n_audio_layer: 1,
    n_text_ctx: 448,
    n_text_state: 8,
    n_text_head: 2,
    n_text_layer: 1,
    n_mels: 80,
    ftype: 0,
  };
  const parts: Buffer[] = [];
  const i32 = (...values: number[]) => {
    const b = Buffer.alloc(4 * values.length);
    values.forEach((v, i) => b.writeInt32LE(v, 4 * i));
    parts.push(b);
  };
  let seed = options.seed ?? 12345;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const f32 = (n: number, fn: (i: number) => number) => {
    const a = new Float32Array(n);
    for (let i = 0; i < n; i++) a[i] = fn(i);
    parts.push(Buffer.from(a.buffer));
  };

  i32(0x67676d6c);
  // The order of H's keys is the file's order.
  i32(...Object.values(H));
  i32(80, 201);
  f32(80 * 201, () => rnd() * 0.01);
  // Word-like tokens with a leading space (" aa", " w30"…) so tokens merge into words as real ones do.
  const VOCAB = 256;
  i32(VOCAB);
  for (let i = 0; i < VOCAB; i++) {
    const s = Buffer.from(
      i === 220 ? ' ' : i < 26 ? ` ${String.fromCharCode(97 + i)}a` : i % 3 === 0 ? `w${i}` : ` w${i}`,
    );
    i32(s.length);
    parts.push(s);
  }

  const tensors: [string, number[]][] = [];
  const t = (name: string, ...ne: number[]) => tensors.push([name, ne]);
  const S = H.n_audio_state;
  const T = H.n_text_state;
  t('encoder.positional_embedding', S, H.n_audio_ctx);
  t('encoder.conv1.weight', 3, H.n_mels, S);
  t('encoder.conv1.bias', 1, S);
  t('encoder.conv2.weight', 3, S, S);
  t('encoder.conv2.bias', 1, S);
  t('encoder.ln_post.weight', S);
  t('encoder.ln_post.bias', S);
  const block = (p: string, D: number, cross: boolean) => {
    t(`${p}mlp_ln.weight`, D);
    t(`${p}mlp_ln.bias`, D);
    t(`${p}mlp.0.weight`, D, 4 * D);
    t(`${p}mlp.0.bias`, 4 * D);
    t(`${p}mlp.2.weight`, 4 * D, D);
    t(`${p}mlp.2.bias`, D);
    for (const a of cross ? ['attn', 'cross_attn'] : ['attn']) {
      t(`${p}${a}_ln.weight`, D);
      t(`${p}${a}_ln.bias`, D);
      t(`${p}${a}.query.weight`, D, D);
      t(`${p}${a}.query.bias`, D);
      t(`${p}${a}.key.weight`, D, D);
      t(`${p}${a}.value.weight`, D, D);
      t(`${p}${a}.value.bias`, D);
      t(`${p}${a}.out.weight`, D, D);
      t(`${p}${a}.out.bias`, D);
    }
  };
  for (let l = 0; l < H.n_audio_layer; l++) block(`encoder.blocks.${l}.`, S, false);
  t('decoder.positional_embedding', T, H.n_text_ctx);
  t('decoder.token_embedding.weight', T, H.n_vocab);
  t('decoder.ln.weight', T);
  t('decoder.ln.bias', T);
  for (let l = 0; l < H.n_text_layer; l++) block(`decoder.blocks.${l}.`, T, true);
  for (const [name, ne] of tensors) {
    const nameBytes = Buffer.from(name);
    // n_dims, name length, type 0 (F32), the dimensions, the name, the data.
    i32(ne.length, nameBytes.length, 0);
    i32(...ne);
    parts.push(nameBytes);
    // Layer-norm gains of 1 keep the activations alive through the layers.
    f32(
      ne.reduce((a, b) => a * b, 1),
      () => (/ln(_post)?\.weight$/.test(name) ? 1 : (rnd() - 0.5) * 0.2),
    );
  }
  const file = Buffer.concat(parts);
  writeFileSync(path, file);
  return { sizeBytes: file.length, sha256: createHash('sha256').update(file).digest('hex') };
}
