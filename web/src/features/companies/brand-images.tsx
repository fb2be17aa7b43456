// Logo, favicon and main-page logo: each uploaded on its own (`POST /companies/upload`), with a
// preview, and the server's refusal (too large, not an accepted image) said plainly.
import { useState, type ReactElement } from 'react';
import { buttonClass } from '../../components/form-parts';
import { useFeatureTranslation } from '../../i18n/feature';
import { errorMessage } from '../../lib/api';
import { ownImage } from '../../lib/own-image';
import { useUploadBrandImageMutation } from './companies-api';
import { catalogue } from './i18n';
import { IMAGE_KINDS, type Company, type ImageKind } from './model';

const ACCEPT = 'image/png,image/jpeg,image/webp,image/x-icon,image/vnd.microsoft.icon,.ico';

export function uploadErrorKey(error: unknown): string | null {
  const status = error && typeof error === 'object' && 'status' in error ? (error as { status: unknown }).status : null;
  if (status === 413) return 'companies.branding.tooLarge';
  if (status === 415) return 'companies.branding.unsupported';
  return null;
}

export function BrandImages({
  company,
  onUploaded,
}: {
  company: Company;
  onUploaded: (ok: boolean, detail?: string) => void;
}): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  const [upload, state] = useUploadBrandImageMutation();
  const [urls, setUrls] = useState<Record<ImageKind, string | null>>({
    logo: company.logo,
    favIcon: company.favIcon,
    mainPageLogo: company.mainPageLogo,
  });
  const [errors, setErrors] = useState<Partial<Record<ImageKind, string>>>({});

  const send = async (kind: ImageKind, file: File | undefined) => {
    if (!file) return;
    const answer = await upload({ companyId: company._id, kind, file });
    if ('error' in answer) {
      const key = uploadErrorKey(answer.error);
      const text = key ? t(key) : (errorMessage(answer.error) ?? t('companies.branding.uploadFailed'));
      setErrors((all) => ({ ...all, [kind]: text }));
      onUploaded(false, text);
      return;
    }
    setErrors((all) => ({ ...all, [kind]: undefined }));
    setUrls((all) => ({ ...all, [kind]: answer.data.url }));
    onUploaded(true);
  };

  return (
    <div className="grid gap-4 sm:grid-cols-3">
      {IMAGE_KINDS.map((kind) => {
        const name = t(`companies.branding.images.${kind}`);
        const url = ownImage(urls[kind]);
        return (
          <div
            key={kind}
            className="rounded-xl border border-gray-200 p-3 dark:border-gray-800"
            data-testid={`brand-image-${kind}`}
          >
            <p className="mb-2 text-sm font-medium text-gray-700 dark:text-gray-300">{name}</p>
            <div className="mb-2 flex h-20 items-center justify-center rounded-lg bg-gray-50 dark:bg-gray-800">
              {url ? (
                <img src={url} alt={name} className="max-h-16 max-w-full object-contain" />
              ) : urls[kind] ? (
                // Another host's address is not loaded (the CSP allows Earshot's images only): it is shown as text.
                <span className="max-w-full truncate px-2 text-xs text-gray-500 dark:text-gray-400" title={urls[kind]!}>
                  {urls[kind]}
                </span>
              ) : (
                <span className="text-xs text-gray-500 dark:text-gray-400">{t('companies.branding.none')}</span>
              )}
            </div>
            <label
              className={`${buttonClass.secondary} block cursor-pointer text-center ${state.isLoading ? 'opacity-60' : ''}`}
            >
              {t('companies.branding.choose', { kind: name })}
              <input
                type="file"
                accept={ACCEPT}
                className="sr-only"
                disabled={state.isLoading}
                onChange={(event) => {
                  void send(kind, event.target.files?.[0]);
                  event.target.value = '';
                }}
              />
            </label>
            <p
              className={`mt-1.5 text-xs ${errors[kind] ? 'text-red-700 dark:text-red-300' : 'text-gray-600 dark:text-gray-400'}`}
              role={errors[kind] ? 'alert' : undefined}
            >
              {errors[kind] ?? t('companies.branding.hint')}
            </p>
          </div>
        );
      })}
    </div>
  );
}
