// A recording's tag and speaker-name limits without zod (api/file.ts and api/transcript-edits.ts
// build their schemas on them): the web console's tag editor and speaker rename field stop at the
// server's maxima, and may not load zod in the signed-in bundle.
export const TAGS_PER_FILE_MAX = 20;
export const TAG_LENGTH_MAX = 40;
export const SPEAKER_NAME_MAX = 80;
