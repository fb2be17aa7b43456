import { zipSync, type Zippable } from 'fflate';

export interface NamedFile {
  name: string;
  data: Uint8Array;
  /** Already compressed (DOCX): stored, not deflated again. */
  compressed: boolean;
}

/** "call.txt" taken → "call (2).txt", "call (3).txt"…; compared without case, as Windows and macOS do. */
function unique(name: string, taken: Set<string>): string {
  const dot = name.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  let candidate = name;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${extension}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}

/** A ZIP of the files, one entry each, at the top level; equal names get a number. */
export function zipFiles(files: readonly NamedFile[], mtime: Date): Uint8Array<ArrayBuffer> {
  const taken = new Set<string>();
  const entries: Zippable = {};
  for (const file of files) entries[unique(file.name, taken)] = [file.data, { level: file.compressed ? 0 : 6, mtime }];
  return zipSync(entries);
}
