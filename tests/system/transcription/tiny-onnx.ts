// Tiny speaker-diarization models in the real ONNX format (a protobuf written by hand; field
// numbers from onnx/onnx.proto), in the shapes and with the metadata sherpa-onnx reads:
//
// - segmentation (pyannote): x[N,1,T] → y[N,F,7] powerset logits. Its first layer correlates the
//   audio with a sine and a cosine at 220, 1200 and 3000 Hz (991-sample windows, 270 apart),
//   squares and sums each pair: the energy of each tone, whatever its phase. Classes 1-3 (one
//   local speaker alone) are the three tones' energies, class 0 (nobody) a fixed level, so a
//   frame belongs to whichever tone sounds in it and to nobody in silence. That level is low
//   (a tone under −50 dBFS) so a quiet file still has its speakers: at −30 dBFS, files quieter
//   than that (a sox `-m` mix of many bursts scales each by 1/n) had none at all.
// - embedding (wespeaker): fbank[N,T,80] → [N,16]: the mean over time of the log-mel bins, as
//   three numbers: the level of the band around each tone, against the mean of all bins. Each
//   tone's embedding points its own way, so different tones never cluster together.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const varint = (value: number): Buffer => {
  const out: number[] = [];
  let n = value;
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return Buffer.from(out);
};
const key = (field: number, wire: number) => varint(field * 8 + wire);
const vint = (field: number, value: number) => Buffer.concat([key(field, 0), varint(value)]);
const bytes = (field: number, data: Buffer | string) => {
  const b = Buffer.isBuffer(data) ? data : Buffer.from(data);
  return Buffer.concat([key(field, 2), varint(b.length), b]);
};
const msg = (field: number, parts: Buffer[]) => bytes(field, Buffer.concat(parts));

/** GraphProto.initializer (5): TensorProto {dims 1, data_type 2 (FLOAT = 1), name 8, raw_data 9}. */
const tensor = (name: string, dims: number[], data: ArrayLike<number>) =>
  msg(5, [
    ...dims.map((d) => vint(1, d)),
    vint(2, 1),
    bytes(8, name),
    bytes(9, Buffer.from(new Float32Array(data).buffer)),
  ]);
/** ValueInfoProto {name 1, type 2 → TypeProto.tensor_type 1 {elem_type 1, shape 2 {dim 1 {dim_value 1 | dim_param 2}}}}. */
const valueInfo = (field: number, name: string, dims: (number | string)[]) =>
  msg(field, [
    bytes(1, name),
    msg(2, [
      msg(1, [
        vint(1, 1),
        msg(
          2,
          dims.map((d) => msg(1, [typeof d === 'number' ? vint(1, d) : bytes(2, d)])),
        ),
      ]),
    ]),
  ]);
/** AttributeProto {name 1, i 3, ints 8, type 20 (INT = 2, INTS = 7)}. */
const ints = (name: string, values: number[]) =>
  msg(5, [bytes(1, name), ...values.map((v) => vint(8, v)), vint(20, 7)]);
const int = (name: string, value: number) => msg(5, [bytes(1, name), vint(3, value), vint(20, 2)]);
/** NodeProto {input 1, output 2, name 3, op_type 4, attribute 5}. */
const node = (op: string, inputs: string[], outputs: string[], attributes: Buffer[] = []) =>
  msg(1, [
    ...inputs.map((i) => bytes(1, i)),
    ...outputs.map((o) => bytes(2, o)),
    bytes(3, `${op}-${outputs[0]}`),
    bytes(4, op),
    ...attributes,
  ]);

interface Graph {
  nodes: Buffer[];
  initializers: Buffer[];
  inputs: Buffer[];
  outputs: Buffer[];
  metadata: Record<string, string | number>;
}

/** ModelProto {ir_version 1, producer_name 2, graph 7, opset_import 8 {domain 1, version 2}, metadata_props 14 {key 1, value 2}}. */
function model({ nodes, initializers, inputs, outputs, metadata }: Graph): Buffer {
  return Buffer.concat([
    vint(1, 8),
    bytes(2, 'earshot-test'),
    msg(7, [...nodes, bytes(2, 'g'), ...initializers, ...inputs, ...outputs]),
    msg(8, [bytes(1, ''), vint(2, 13)]),
    ...Object.entries(metadata).map(([k, v]) => msg(14, [bytes(1, k), bytes(2, String(v))])),
  ]);
}

export const LOW_HZ = 220;
export const HIGH_HZ = 1200;
export const HIGHER_HZ = 3000;
const RATE = 16_000;
const KERNEL = 991;
const SHIFT = 270;

export const SEGMENTATION_METADATA = {
  model_type: 'pyannote-segmentation-3.0',
  sample_rate: RATE,
  window_size: 160_000,
  receptive_field_size: KERNEL,
  receptive_field_shift: SHIFT,
  num_speakers: 3,
  powerset_max_classes: 2,
  num_classes: 7,
};
export const EMBEDDING_METADATA = {
  framework: 'wespeaker',
  language: 'English',
  sample_rate: RATE,
  output_dim: 16,
  normalize_samples: 0,
  url: 'test',
  comment: 'earshot test model',
};

export function segmentationModel(metadata: Record<string, string | number> = SEGMENTATION_METADATA): Buffer {
  // Sine and cosine of each tone: a tone of amplitude A gives A² on its pair, whatever its phase.
  const waves = [LOW_HZ, HIGH_HZ, HIGHER_HZ].flatMap((hz) =>
    [Math.sin, Math.cos].map((f) =>
      Array.from({ length: KERNEL }, (_, k) => (2 / KERNEL) * f((2 * Math.PI * hz * k) / RATE)),
    ),
  );
  // Seven classes from the six squared responses: none = a fixed 1e-5 (an amplitude of about
  // 0.003), speakers A, B, C alone = the three tones; the pairs (classes 4-6) never win.
  const mix = [
    [0, 0, 0, 0, 0, 0],
    [1, 1, 0, 0, 0, 0],
    [0, 0, 1, 1, 0, 0],
    [0, 0, 0, 0, 1, 1],
    [0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0],
    [0, 0, 0, 0, 0, 0],
  ];
  const bias = [1e-5, 0, 0, 0, -1, -1, -1];
  return model({
    nodes: [
      node('Conv', ['x', 'W'], ['c'], [ints('kernel_shape', [KERNEL]), ints('strides', [SHIFT])]),
      node('Mul', ['c', 'c'], ['e']),
      node('Conv', ['e', 'M', 'B'], ['l'], [ints('kernel_shape', [1])]),
      node('Transpose', ['l'], ['y'], [ints('perm', [0, 2, 1])]),
    ],
    initializers: [
      tensor('W', [6, 1, KERNEL], waves.flat()),
      tensor('M', [7, 6, 1], mix.flat()),
      tensor('B', [7], bias),
    ],
    inputs: [valueInfo(11, 'x', ['N', 1, 'T'])],
    outputs: [valueInfo(12, 'y', ['N', 'F', 7])],
    metadata,
  });
}

/** Which of the 80 kaldi mel bins (20 Hz-8 kHz) hold each tone: bin i is centred near mel 31.6 + 34.7 (i + 1). */
const BANDS = [
  [4, 5, 6, 7, 8, 9, 10],
  [27, 28, 29, 30, 31, 32, 33],
  [49, 50, 51, 52, 53, 54, 55],
];

export function embeddingModel(metadata: Record<string, string | number> = EMBEDDING_METADATA): Buffer {
  const projection = new Array<number>(80 * 16).fill(0);
  for (let bin = 0; bin < 80; bin++) {
    BANDS.forEach((band, dim) => {
      projection[bin * 16 + dim] = (band.includes(bin) ? 1 / band.length : 0) - 1 / 80;
    });
  }
  return model({
    nodes: [
      node('ReduceMean', ['feats'], ['m'], [ints('axes', [1]), int('keepdims', 0)]),
      node('MatMul', ['m', 'P'], ['embs']),
    ],
    initializers: [tensor('P', [80, 16], projection)],
    inputs: [valueInfo(11, 'feats', ['N', 'T', 80])],
    outputs: [valueInfo(12, 'embs', ['N', 16])],
    metadata,
  });
}

/** Writes both models into `dir`; answers their paths and sizes. */
export function writeDiarizationModels(dir: string): { segmentation: string; embedding: string } {
  const segmentation = join(dir, 'diarization-segmentation.onnx');
  const embedding = join(dir, 'diarization-embedding.onnx');
  writeFileSync(segmentation, segmentationModel());
  writeFileSync(embedding, embeddingModel());
  return { segmentation, embedding };
}
