// The encryption progress's strings (policies-encryption.tsx).
import { defineFeatureCatalogue } from '../../i18n/feature';

export const catalogue = defineFeatureCatalogue(
  'encryptionProgress',
  {
    encryptionProgress: {
      title: 'Encrypting existing data',
      services: {
        file: 'Recordings',
        transcription: 'Transcripts',
        chat: 'Knowledge files & assistant copies',
        prompt: 'Analysis copies',
      },
      running: '{{name}} {{done}} of {{total}}',
      done: '{{name}}: Encrypted',
      idle: '{{name}}: waiting to start',
    },
  },
  {
    fr: {
      encryptionProgress: {
        title: 'Chiffrement des données existantes',
        services: {
          file: 'Enregistrements',
          transcription: 'Transcriptions',
          chat: 'Fichiers de connaissances et copies de l’assistant',
          prompt: 'Copies d’analyse',
        },
        running: '{{name}} {{done}} sur {{total}}',
        done: '{{name}} : chiffré',
        idle: '{{name}} : en attente',
      },
    },
    et: {
      encryptionProgress: {
        title: 'Olemasolevate andmete krüpteerimine',
        services: {
          file: 'Salvestised',
          transcription: 'Transkriptsioonid',
          chat: 'Teadmusfailid ja assistendi koopiad',
          prompt: 'Analüüsi koopiad',
        },
        running: '{{name}} {{done}} / {{total}}',
        done: '{{name}}: krüpteeritud',
        idle: '{{name}}: ootab algust',
      },
    },
    lv: {
      encryptionProgress: {
        title: 'Esošo datu šifrēšana',
        services: {
          file: 'Ieraksti',
          transcription: 'Transkripcijas',
          chat: 'Zināšanu faili un asistenta kopijas',
          prompt: 'Analīzes kopijas',
        },
        running: '{{name}} {{done}} no {{total}}',
        done: '{{name}}: šifrēts',
        idle: '{{name}}: gaida sākumu',
      },
    },
  },
);
