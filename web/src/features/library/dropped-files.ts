// The recordings among what was chosen or dropped: a dropped folder is walked (its sub-folders
// too) so a folder of calls is one drop, and what is plainly not audio (a folder's notes, its
// .DS_Store) is left out before anything is sent. The server still checks each file's content.
export const AUDIO_EXTENSIONS = [
  'mp3',
  'wav',
  'm4a',
  'aac',
  'ogg',
  'opus',
  'webm',
  'flac',
  'mp4',
  'wma',
  'amr',
] as const;
export const AUDIO_ACCEPT = `audio/*,${AUDIO_EXTENSIONS.map((ext) => `.${ext}`).join(',')}`;

export function looksLikeAudio(file: Pick<File, 'name' | 'type'>): boolean {
  if (file.type.startsWith('audio/')) return true;
  const ext = /\.([^./]+)$/.exec(file.name)?.[1]?.toLowerCase();
  return ext !== undefined && (AUDIO_EXTENSIONS as readonly string[]).includes(ext);
}

/** The audio files of a list, and how many others were left out. */
export function audioOnly(files: readonly File[]): { files: File[]; skipped: number } {
  const audio = files.filter(looksLikeAudio);
  return { files: audio, skipped: files.length - audio.length };
}

// The File System API's entries (webkitGetAsEntry), typed here: TypeScript's DOM types lack the
// directory reader's callbacks in the shape used below.
interface Entry {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
}
interface FileEntry extends Entry {
  file: (resolve: (file: File) => void, reject: (error: unknown) => void) => void;
}
interface DirectoryEntry extends Entry {
  createReader: () => { readEntries: (resolve: (entries: Entry[]) => void, reject: (error: unknown) => void) => void };
}

async function walk(entry: Entry): Promise<File[]> {
  if (entry.isFile) return [await new Promise<File>((resolve, reject) => (entry as FileEntry).file(resolve, reject))];
  if (!entry.isDirectory) return [];
  const reader = (entry as DirectoryEntry).createReader();
  const children: Entry[] = [];
  // readEntries answers in batches (100 in Chromium) until it answers none.
  for (;;) {
    const batch = await new Promise<Entry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) break;
    children.push(...batch);
  }
  const nested = await Promise.all(children.map(walk));
  return nested.flat().sort((a, b) => a.name.localeCompare(b.name));
}

/** Every file dropped, folders walked; falls back to the plain file list where entries are not offered. */
export async function droppedFiles(data: DataTransfer): Promise<File[]> {
  const items = Array.from(data.items ?? []).filter((item) => item.kind === 'file');
  const entries = items.map(
    (item) => (item as DataTransferItem & { webkitGetAsEntry?: () => Entry | null }).webkitGetAsEntry?.() ?? null,
  );
  if (entries.length === 0 || entries.some((entry) => entry === null)) return Array.from(data.files);
  return (await Promise.all((entries as Entry[]).map(walk))).flat();
}
