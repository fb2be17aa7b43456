// The transcripts list's own strings (see i18n/feature.ts); the older ones are still in the
// shared catalogue (transcripts.*), which this namespace falls back to.
import { defineFeatureCatalogue } from '../../i18n/feature';

export const catalogue = defineFeatureCatalogue(
  'transcripts',
  {
    transcriptList: {
      columns: { client: 'Client', company: 'Company' },
      uploadCompany: 'Company of the upload',
      chooseCompany: 'Choose a company',
      uploadCompanyHint: 'Choose which company the recording belongs to before choosing the file.',
      queue: {
        summary:
          "Your company's transcriptions: {{running}} running (at most {{cap}} at once), {{pending}} waiting. Other companies' recordings take turns with yours.",
        position: "Queued: {{position}} of {{pending}} in your company's line",
      },
    },
  },
  {
    fr: {
      transcriptList: {
        columns: { client: 'Client', company: 'Entreprise' },
        uploadCompany: 'Entreprise de l’envoi',
        chooseCompany: 'Choisissez une entreprise',
        uploadCompanyHint:
          'Choisissez l’entreprise à laquelle appartient l’enregistrement avant de choisir le fichier.',
        queue: {
          summary:
            'Transcriptions de votre entreprise : {{running}} en cours (au plus {{cap}} à la fois), {{pending}} en attente. Les enregistrements des autres entreprises passent à tour de rôle avec les vôtres.',
          position: 'En file : {{position}} sur {{pending}} dans la file de votre entreprise',
        },
      },
    },
    et: {
      transcriptList: {
        columns: { client: 'Klient', company: 'Ettevõte' },
        uploadCompany: 'Üleslaaditava ettevõte',
        chooseCompany: 'Vali ettevõte',
        uploadCompanyHint: 'Vali enne faili valimist, millisele ettevõttele salvestis kuulub.',
        queue: {
          summary:
            'Teie ettevõtte transkriptsioonid: {{running}} töös (korraga kuni {{cap}}), {{pending}} ootel. Teiste ettevõtete salvestised tulevad teie omadega vaheldumisi.',
          position: 'Järjekorras: {{position}}. / {{pending}} teie ettevõtte järjekorras',
        },
      },
    },
    lv: {
      transcriptList: {
        columns: { client: 'Klients', company: 'Uzņēmums' },
        uploadCompany: 'Augšupielādes uzņēmums',
        chooseCompany: 'Izvēlieties uzņēmumu',
        uploadCompanyHint: 'Pirms faila izvēles izvēlieties, kuram uzņēmumam ieraksts pieder.',
        queue: {
          summary:
            'Jūsu uzņēmuma transkripcijas: {{running}} notiek (vienlaikus ne vairāk kā {{cap}}), {{pending}} gaida. Citu uzņēmumu ieraksti mijas ar jūsējiem.',
          position: 'Rindā: {{position}}. no {{pending}} jūsu uzņēmuma rindā',
        },
      },
    },
  },
);
