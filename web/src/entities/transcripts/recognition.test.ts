import { engineName, languageName, recognitionLine } from './recognition';

describe('how a transcript was recognised', () => {
  test("the language is named in the reader's language; an unknown code stays as it is", () => {
    expect(languageName('fr', 'en')).toBe('French');
    expect(languageName('fr', 'fr')).toBe('français');
    expect(languageName('zz-not-a-code-!', 'en')).toBe('zz-not-a-code-!');
  });

  test('engine and model', () => {
    expect(engineName({ engine: 'whisper', model: 'small' })).toBe('Whisper (small)');
    expect(engineName({ engine: 'pocketsphinx', model: null })).toBe('PocketSphinx');
    expect(engineName({ engine: 'custom', model: null })).toBe('custom');
    expect(engineName({ engine: null, model: null })).toBeNull();
  });

  test('the line: with a language, without one, and nothing before a run', () => {
    expect(recognitionLine({ language: 'et', engine: 'whisper', model: 'base' }, 'en')).toEqual({
      key: 'viewer.recognisedIn',
      values: { language: 'Estonian', engine: 'Whisper (base)' },
    });
    expect(recognitionLine({ language: null, engine: 'openai', model: 'whisper-1' }, 'en')).toEqual({
      key: 'viewer.recognisedBy',
      values: { engine: 'OpenAI-compatible (whisper-1)' },
    });
    expect(recognitionLine({ language: 'en', engine: null, model: null }, 'en')).toBeNull();
  });
});
