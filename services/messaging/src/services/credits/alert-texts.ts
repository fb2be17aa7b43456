import type { EmailLanguage } from '@earshot/contracts';

/**
 * The in-app notification of a threshold, in the company's language (the bell shows it as
 * written). {t} is the threshold in %, {spent} and {limit} credits, {month} YYYY-MM, {name} the person.
 */
interface Texts {
  budgetTitle: string;
  budgetBody: string;
  ownCapTitle: string;
  ownCapBody: string;
  capTitle: string;
  capBody: string;
  /** Added at 100 %: what happens now. */
  budgetStop: string;
  capStop: string;
}

const TEXTS: Record<EmailLanguage, Texts> = {
  en: {
    budgetTitle: '{t} % of the monthly budget used',
    budgetBody: '{company} has used {spent} of its {limit}-credit budget for {month}.',
    ownCapTitle: '{t} % of your monthly credits used',
    ownCapBody: 'You have used {spent} of your {limit} credits for {month}.',
    capTitle: '{name} has used {t} % of their monthly credits',
    capBody: '{name} has used {spent} of their {limit} credits for {month}.',
    budgetStop: 'New AI work is refused until next month or until the budget is raised.',
    capStop: 'New AI work is refused until next month or until the cap is raised.',
  },
  fr: {
    budgetTitle: '{t} % du budget mensuel utilisé',
    budgetBody: '{company} a utilisé {spent} de son budget de {limit} crédits pour {month}.',
    ownCapTitle: '{t} % de vos crédits mensuels utilisés',
    ownCapBody: 'Vous avez utilisé {spent} de vos {limit} crédits pour {month}.',
    capTitle: '{name} a utilisé {t} % de ses crédits mensuels',
    capBody: '{name} a utilisé {spent} de ses {limit} crédits pour {month}.',
    budgetStop:
      'Les nouveaux traitements d’IA sont refusés jusqu’au mois prochain ou jusqu’à ce que le budget soit relevé.',
    capStop:
      'Les nouveaux traitements d’IA sont refusés jusqu’au mois prochain ou jusqu’à ce que le plafond soit relevé.',
  },
  et: {
    budgetTitle: 'Kuueelarvest on kasutatud {t} %',
    budgetBody: '{company} on kasutanud {spent} oma {month} eelarvest {limit} krediiti.',
    ownCapTitle: 'Sinu kuukrediidist on kasutatud {t} %',
    ownCapBody: 'Oled kasutanud {spent} oma {month} krediidist {limit}.',
    capTitle: '{name} on kasutanud {t} % oma kuukrediidist',
    capBody: '{name} on kasutanud {spent} oma {month} krediidist {limit}.',
    budgetStop: 'Uut tehisintellekti tööd ei alustata enne järgmist kuud või eelarve suurendamist.',
    capStop: 'Uut tehisintellekti tööd ei alustata enne järgmist kuud või piirmäära suurendamist.',
  },
  lv: {
    budgetTitle: 'Izmantoti {t} % no mēneša budžeta',
    budgetBody: '{company} ir izmantojis {spent} no sava {month} budžeta {limit} kredītu apmērā.',
    ownCapTitle: 'Izmantoti {t} % no jūsu mēneša kredītiem',
    ownCapBody: 'Jūs esat izmantojis {spent} no saviem {limit} kredītiem par {month}.',
    capTitle: '{name} ir izmantojis {t} % no saviem mēneša kredītiem',
    capBody: '{name} ir izmantojis {spent} no saviem {limit} kredītiem par {month}.',
    budgetStop: 'Jauns MI darbs tiek atteikts līdz nākamajam mēnesim vai budžeta palielināšanai.',
    capStop: 'Jauns MI darbs tiek atteikts līdz nākamajam mēnesim vai limita palielināšanai.',
  },
};

export type AlertAudience = 'budget' | 'ownCap' | 'cap';

const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{(\w+)\}/g, (_, key: string) => String(values[key] ?? ''));

/** Title and body of a threshold notification for one audience, in a language. */
export function alertText(
  language: string,
  audience: AlertAudience,
  values: { t: number; spent: number; limit: number; month: string; company: string; name: string },
): { title: string; body: string } {
  const texts = TEXTS[(language in TEXTS ? language : 'en') as EmailLanguage];
  const stop = values.t >= 100 ? ` ${audience === 'budget' ? texts.budgetStop : texts.capStop}` : '';
  return { title: fill(texts[`${audience}Title`], values), body: fill(texts[`${audience}Body`], values) + stop };
}
