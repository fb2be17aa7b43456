// The contracts' zod schemas speak English ("Too small: expected string to have >=1 characters");
// forms pass this to zodResolver so the common problems read well in the page's language. A
// schema's own message (e.g. the password policy's) still wins.
import type { TFunction } from 'i18next';

interface Issue {
  code?: string;
  origin?: string;
  format?: string;
  minimum?: unknown;
  maximum?: unknown;
}

export function formMessages(t: TFunction) {
  return {
    error: (issue: Issue): string | undefined => {
      if (issue.code === 'too_small' && issue.origin === 'string')
        return Number(issue.minimum) <= 1
          ? t('formErrors.required')
          : t('formErrors.tooShort', { min: Number(issue.minimum) });
      if (issue.code === 'too_big' && issue.origin === 'string')
        return t('formErrors.tooLong', { max: Number(issue.maximum) });
      if (issue.code === 'invalid_format' && issue.format === 'email') return t('formErrors.email');
      return undefined;
    },
  };
}
