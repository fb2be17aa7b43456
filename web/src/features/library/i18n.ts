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
      },
    },
    et: {
      transcriptList: {
        columns: { client: 'Klient', company: 'Ettevõte' },
        uploadCompany: 'Üleslaaditava ettevõte',
        chooseCompany: 'Vali ettevõte',
        uploadCompanyHint: 'Vali enne faili valimist, millisele ettevõttele salvestis kuulub.',
      },
    },
    lv: {
      transcriptList: {
        columns: { client: 'Klients', company: 'Uzņēmums' },
        uploadCompany: 'Augšupielādes uzņēmums',
        chooseCompany: 'Izvēlieties uzņēmumu',
        uploadCompanyHint: 'Pirms faila izvēles izvēlieties, kuram uzņēmumam ieraksts pieder.',
      },
    },
  },
);
