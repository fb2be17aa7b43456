// sherpa-onnx reads the diarization models' settings from the ONNX file's metadata and ends the
// process (`_Exit(-1)`) when one is missing or wrong. So the keys are checked here first, from
// the file's protobuf (ModelProto field 14, metadata_props: {key = 1, value = 2}), reading only
// the top-level field headers and the metadata itself: the graph (megabytes of weights) is skipped.
import { open, type FileHandle } from 'node:fs/promises';

/** Reads varints and byte ranges of a file at positions, a few bytes at a time. */
class Reader {
  constructor(
    private readonly file: FileHandle,
    readonly size: number,
  ) {}

  async bytes(at: number, length: number): Promise<Buffer> {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await this.file.read(buffer, 0, length, at);
    if (bytesRead !== length) throw new Error('the file ends inside a field');
    return buffer;
  }

  /** The varint at `at` and the position after it. */
  async varint(at: number): Promise<[number, number]> {
    const [value, length] = varintIn(await this.bytes(at, Math.min(10, this.size - at)), 0);
    return [value, at + length];
  }
}

function varintIn(buffer: Buffer, at: number): [number, number] {
  let value = 0;
  let scale = 1;
  for (let i = at; i < buffer.length && i < at + 10; i++) {
    const byte = buffer[i]!;
    value += (byte & 0x7f) * scale;
    if (!(byte & 0x80)) return [value, i + 1];
    scale *= 128;
  }
  throw new Error('a varint runs past its field');
}

/** Walks the fields of one protobuf message in `buffer`, answering the length-delimited ones. */
function* delimited(buffer: Buffer): Generator<[field: number, value: Buffer]> {
  let at = 0;
  while (at < buffer.length) {
    const [key, next] = varintIn(buffer, at);
    at = next;
    const wire = key & 7;
    if (wire === 0) at = varintIn(buffer, at)[1];
    else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else if (wire === 2) {
      const [length, start] = varintIn(buffer, at);
      yield [Math.floor(key / 8), buffer.subarray(start, start + length)];
      at = start + length;
    } else throw new Error(`unsupported protobuf wire type ${wire}`);
  }
}

/** The metadata_props of an ONNX model file, as key → value. Throws when the file is not an ONNX protobuf. */
export async function onnxMetadata(path: string): Promise<Map<string, string>> {
  const file = await open(path, 'r');
  try {
    const reader = new Reader(file, (await file.stat()).size);
    const metadata = new Map<string, string>();
    let at = 0;
    while (at < reader.size) {
      const [key, next] = await reader.varint(at);
      const field = Math.floor(key / 8);
      const wire = key & 7;
      if (wire === 0) at = (await reader.varint(next))[1];
      else if (wire === 1) at = next + 8;
      else if (wire === 5) at = next + 4;
      else if (wire === 2) {
        const [length, start] = await reader.varint(next);
        if (start + length > reader.size) throw new Error('a field runs past the end of the file');
        if (field === 14) {
          const entry = new Map(delimited(await reader.bytes(start, length)));
          metadata.set(entry.get(1)?.toString() ?? '', entry.get(2)?.toString() ?? '');
        }
        at = start + length;
      } else throw new Error(`unsupported protobuf wire type ${wire}`);
    }
    return metadata;
  } finally {
    await file.close();
  }
}

const INTEGER = /^-?\d+$/;

/** What sherpa-onnx's pyannote segmentation reads (offline-speaker-segmentation-pyannote-model.cc). */
const SEGMENTATION_INTEGERS = [
  'sample_rate',
  'window_size',
  'receptive_field_size',
  'receptive_field_shift',
  'num_speakers',
  'powerset_max_classes',
  'num_classes',
];
/** What its wespeaker / 3D-Speaker embedding extractor reads (speaker-embedding-extractor-model.cc). */
const EMBEDDING_INTEGERS = ['output_dim', 'sample_rate', 'normalize_samples'];

/**
 * Why sherpa-onnx would refuse (by ending the process) this model, or null when it has what it
 * needs: every required key, as an integer where one is read, and supported values.
 */
export async function metadataProblem(path: string, kind: 'segmentation' | 'embedding'): Promise<string | null> {
  let metadata: Map<string, string>;
  try {
    metadata = await onnxMetadata(path);
  } catch (error) {
    return `the ${kind} model is not a readable ONNX file (${(error as Error).message})`;
  }
  const integers = kind === 'segmentation' ? SEGMENTATION_INTEGERS : EMBEDDING_INTEGERS;
  const missing = integers.filter((key) => !INTEGER.test(metadata.get(key) ?? ''));
  if (kind === 'embedding' && !metadata.get('language')) missing.push('language');
  if (missing.length) return `the ${kind} model lacks the metadata ${missing.join(', ')} (or it is not an integer)`;
  if (kind === 'segmentation' && !['1', '2'].includes(metadata.get('powerset_max_classes')!)) {
    return 'the segmentation model has powerset_max_classes other than 1 or 2';
  }
  if (kind === 'embedding' && !['wespeaker', '3d-speaker'].includes(metadata.get('framework') ?? '')) {
    return `the embedding model's framework is "${metadata.get('framework') ?? ''}"; only wespeaker and 3d-speaker models are supported`;
  }
  return null;
}
