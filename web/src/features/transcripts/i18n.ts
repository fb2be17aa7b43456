// The transcripts list's own strings (see i18n/feature.ts); the older ones are still in the
// shared catalogue (transcripts.*), which this namespace falls back to.
import { defineFeatureCatalogue } from '../../i18n/feature';

export const catalogue = defineFeatureCatalogue(
  'transcripts',
  {
    transcriptList: {
      columns: { client: 'Client', company: 'Company' },
      filters: 'Transcript filters',
      client: 'Client',
      allClients: 'All clients',
      company: 'Company',
      allCompanies: 'All companies',
      uploadCompany: 'Company of the upload',
      chooseCompany: 'Choose a company',
      uploadCompanyHint: 'Choose which company the recording belongs to before choosing the file.',
    },
  },
  {
    fr: {
      transcriptList: {
        columns: { client: 'Client', company: 'Entreprise' },
        filters: 'Filtres des transcriptions',
        client: 'Client',
        allClients: 'Tous les clients',
        company: 'Entreprise',
        allCompanies: 'Toutes les entreprises',
        uploadCompany: 'Entreprise de l’envoi',
        chooseCompany: 'Choisissez une entreprise',
        uploadCompanyHint: 'Choisissez l’entreprise à laquelle appartient l’enregistrement avant de choisir le fichier.',
      },
    },
    et: {
      transcriptList: {
        columns: { client: 'Klient', company: 'Ettevõte' },
        filters: 'Transkriptsioonide filtrid',
        client: 'Klient',
        allClients: 'Kõik kliendid',
        company: 'Ettevõte',
        allCompanies: 'Kõik ettevõtted',
        uploadCompany: 'Üleslaaditava ettevõte',
        chooseCompany: 'Vali ettevõte',
        uploadCompanyHint: 'Vali enne faili valimist, millisele ettevõttele salvestis kuulub.',
      },
    },
    lv: {
      transcriptList: {
        columns: { client: 'Klients', company: 'Uzņēmums' },
        filters: 'Transkripciju filtri',
        client: 'Klients',
        allClients: 'Visi klienti',
        company: 'Uzņēmums',
        allCompanies: 'Visi uzņēmumi',
        uploadCompany: 'Augšupielādes uzņēmums',
        chooseCompany: 'Izvēlieties uzņēmumu',
        uploadCompanyHint: 'Pirms faila izvēles izvēlieties, kuram uzņēmumam ieraksts pieder.',
      },
    },
  },
);
