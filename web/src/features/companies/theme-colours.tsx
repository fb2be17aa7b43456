// The five theme colours (typed or picked) and a live preview of the brand shades 25–950 the app
// derives from the primary colour (lib/shades.ts), on a light and on a dark background.
import type { ReactElement } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { Field, inputClass } from '../../components/form-parts';
import { useFeatureTranslation } from '../../i18n/feature';
import { brandShades, luminance, parseHex, SHADES } from '../../lib/shades';
import { catalogue } from './i18n';
import { THEME_KEYS, type ThemeKey } from './model';

interface ThemeColoursProps {
  theme: Partial<Record<ThemeKey, string>>;
  register: (key: ThemeKey) => UseFormRegisterReturn;
  onPick: (key: ThemeKey, value: string) => void;
  error: (key: ThemeKey) => string | undefined;
}

/** `<input type=color>` wants #rrggbb. */
function sixDigits(value: string | undefined): string {
  const rgb = value ? parseHex(value) : null;
  return rgb ? `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}` : '#ffffff';
}

export function ShadePreview({ primary }: { primary: string | undefined }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const shades = brandShades(primary && parseHex(primary) ? primary : null);
  const sample = (background: string) => (
    <span
      className="rounded-md px-3 py-1 text-xs font-medium"
      style={{ background, color: luminance(background) > 0.4 ? '#111827' : '#ffffff' }}
    >
      {t('companies.branding.sample')}
    </span>
  );
  return (
    <div className="grid gap-3 sm:grid-cols-2" data-testid="shade-preview">
      {(['light', 'dark'] as const).map((mode) => (
        <figure
          key={mode}
          className={`rounded-xl border p-3 ${mode === 'dark' ? 'border-gray-700 bg-gray-950 text-gray-100' : 'border-gray-200 bg-white text-gray-900'}`}
        >
          <figcaption className="mb-2 flex items-center justify-between text-xs font-medium">
            {t(`companies.branding.${mode}`)}
            {sample(mode === 'dark' ? shades[400] : shades[600])}
          </figcaption>
          <ol className="grid grid-cols-6 gap-1">
            {SHADES.map((shade) => (
              <li key={shade} className="flex flex-col items-center gap-0.5">
                <span
                  className="h-6 w-full rounded"
                  style={{ background: shades[shade] }}
                  title={`${shade} ${shades[shade]}`}
                  data-testid={`shade-${mode}-${shade}`}
                />
                <span className="text-[10px] tabular-nums opacity-80">{shade}</span>
              </li>
            ))}
          </ol>
        </figure>
      ))}
    </div>
  );
}

export function ThemeColours({ theme, register, onPick, error }: ThemeColoursProps): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  return (
    <fieldset className="space-y-4">
      <legend className="mb-2 text-sm font-semibold text-gray-900 dark:text-white">
        {t('companies.branding.colours')}
      </legend>
      <div className="grid gap-4 sm:grid-cols-3 lg:grid-cols-5">
        {THEME_KEYS.map((key) => {
          const name = t(`companies.branding.colourNames.${key}`);
          return (
            <div key={key} className="flex items-end gap-2">
              <div className="min-w-0 flex-1">
                <Field label={name} error={error(key)}>
                  <input {...register(key)} placeholder="#3b82f6" className={inputClass} autoComplete="off" />
                </Field>
              </div>
              <input
                type="color"
                aria-label={t('companies.branding.pick', { name })}
                value={sixDigits(theme[key])}
                onChange={(event) => onPick(key, event.target.value)}
                className="mb-0.5 h-10 w-10 shrink-0 cursor-pointer rounded-lg border border-gray-300 bg-white p-1 dark:border-gray-700 dark:bg-gray-900"
              />
            </div>
          );
        })}
      </div>
      <p className="text-sm font-medium text-gray-700 dark:text-gray-300">{t('companies.branding.preview')}</p>
      <ShadePreview primary={theme.primary} />
    </fieldset>
  );
}
