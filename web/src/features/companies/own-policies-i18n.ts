// The ADMIN's read-only view of their company's data policies (/data-policies); the settings'
// names are the policies section's (policies-i18n.ts).
import { defineFeatureCatalogue } from '../../i18n/feature';

export const catalogue = defineFeatureCatalogue(
  'ownPolicies',
  {
    ownPolicies: {
      intro:
        'How your company’s recordings and personal data are protected and how long they are kept. The platform administrator sets these; ask them for a change.',
      days: '{{count}} days',
      forever: 'Forever',
      on: 'On',
      off: 'Off',
      keepOriginal: 'Keep the unredacted original',
      encryption: 'Encryption at rest',
      noCompany: 'Your account belongs to no company.',
    },
  },
  {
    fr: {
      ownPolicies: {
        intro:
          'Comment les enregistrements et les données personnelles de votre entreprise sont protégés et combien de temps ils sont conservés. L’administrateur de la plateforme les définit ; demandez-lui un changement.',
        days: '{{count}} jours',
        forever: 'Pour toujours',
        on: 'Activé',
        off: 'Désactivé',
        keepOriginal: 'Conserver l’original non masqué',
        encryption: 'Chiffrement au repos',
        noCompany: 'Votre compte n’appartient à aucune entreprise.',
      },
    },
    et: {
      ownPolicies: {
        intro:
          'Kuidas teie ettevõtte salvestisi ja isikuandmeid kaitstakse ja kui kaua neid hoitakse. Need määrab platvormi administraator; muudatuse saamiseks pöörduge tema poole.',
        days: '{{count}} päeva',
        forever: 'Igavesti',
        on: 'Sees',
        off: 'Väljas',
        keepOriginal: 'Säilita maskimata originaal',
        encryption: 'Krüpteerimine salvestamisel',
        noCompany: 'Teie konto ei kuulu ühelegi ettevõttele.',
      },
    },
    lv: {
      ownPolicies: {
        intro:
          'Kā tiek aizsargāti jūsu uzņēmuma ieraksti un personas dati un cik ilgi tos glabā. Tos nosaka platformas administrators; lūdziet viņam izmaiņas.',
        days: '{{count}} dienas',
        forever: 'Bezgalīgi',
        on: 'Ieslēgts',
        off: 'Izslēgts',
        keepOriginal: 'Glabāt neaizklāto oriģinālu',
        encryption: 'Šifrēšana glabāšanā',
        noCompany: 'Jūsu konts nepieder nevienam uzņēmumam.',
      },
    },
  },
);
