// The "Show original" control's strings (see i18n/feature.ts).
import { defineFeatureCatalogue } from '../../i18n/feature';

export const catalogue = defineFeatureCatalogue(
  'originalWords',
  {
    original: {
      show: 'Show original',
      hide: 'Hide original',
      title: 'Unredacted original',
      banner:
        'You are reading the unredacted original. It is read-only, and this read is recorded in the audit log with your name.',
      loading: 'Loading the original…',
      failed: 'The original could not be loaded',
      speaker: 'Speaker {{n}}',
    },
  },
  {
    fr: {
      original: {
        show: 'Afficher l’original',
        hide: 'Masquer l’original',
        title: 'Original non masqué',
        banner:
          'Vous lisez l’original non masqué. Il est en lecture seule, et cette lecture est inscrite à votre nom dans le journal d’audit.',
        loading: 'Chargement de l’original…',
        failed: 'L’original n’a pas pu être chargé',
        speaker: 'Intervenant {{n}}',
      },
    },
    et: {
      original: {
        show: 'Näita originaali',
        hide: 'Peida originaal',
        title: 'Varjamata originaal',
        banner:
          'Loete varjamata originaali. See on ainult lugemiseks ja see lugemine kantakse teie nimega auditilogisse.',
        loading: 'Originaali laadimine…',
        failed: 'Originaali ei õnnestunud laadida',
        speaker: 'Kõneleja {{n}}',
      },
    },
    lv: {
      original: {
        show: 'Rādīt oriģinālu',
        hide: 'Paslēpt oriģinālu',
        title: 'Neslēptais oriģināls',
        banner:
          'Jūs lasāt neslēpto oriģinālu. Tas ir tikai lasāms, un šī lasīšana tiek ierakstīta audita žurnālā ar jūsu vārdu.',
        loading: 'Oriģināla ielāde…',
        failed: 'Oriģinālu neizdevās ielādēt',
        speaker: 'Runātājs {{n}}',
      },
    },
  },
);
