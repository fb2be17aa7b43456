// What the viewer says about how a transcript was made: its language (named in the reader's own
// language by the browser's Intl.DisplayNames) and the engine and model that recognised it.
const ENGINE_NAMES: Record<string, string> = {
  pocketsphinx: 'PocketSphinx',
  whisper: 'Whisper',
  openai: 'OpenAI-compatible',
};

export interface Recognition {
  language: string | null;
  engine: string | null;
  model: string | null;
}

export function languageName(code: string, uiLanguage: string): string {
  try {
    return new Intl.DisplayNames([uiLanguage], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

export function engineName({ engine, model }: Pick<Recognition, 'engine' | 'model'>): string | null {
  if (!engine) return null;
  const name = ENGINE_NAMES[engine] ?? engine;
  return model ? `${name} (${model})` : name;
}

/** The key and values of the viewer's line, or null before anything recognised it. */
export function recognitionLine(
  t: Recognition,
  uiLanguage: string,
): { key: 'viewer.recognisedIn' | 'viewer.recognisedBy'; values: Record<string, string> } | null {
  const engine = engineName(t);
  if (!engine) return null;
  return t.language
    ? { key: 'viewer.recognisedIn', values: { language: languageName(t.language, uiLanguage), engine } }
    : { key: 'viewer.recognisedBy', values: { engine } };
}
