// Strings of the platform administrator's first-run checklist (see i18n/feature.ts).
import { defineFeatureCatalogue } from '../../i18n/feature';

export const catalogue = defineFeatureCatalogue(
  'first-run',
  {
    firstRun: {
      title: 'Get the platform ready',
      intro: 'A few steps make transcripts, analysis and mail work well. Each is ticked once it is done.',
      done: 'Done',
      toDo: 'To do',
      model: 'Connect a language model',
      modelHint: 'Chat answers and analysis need one.',
      whisper: 'Download a Whisper model',
      whisperHint: 'Accurate transcripts on this machine, instead of PocketSphinx.',
      speakers: 'Download the speaker models',
      speakersHint: 'Without them every recording has one speaker.',
      mail: 'Set up mail',
      mailHint: 'Set SMTP_URL so invitations and password resets reach people.',
      open: 'Open',
    },
  },
  {
    fr: {
      firstRun: {
        title: 'Préparer la plateforme',
        intro:
          'Quelques étapes pour que les transcriptions, l’analyse et les e-mails fonctionnent bien. Chacune est cochée une fois faite.',
        done: 'Fait',
        toDo: 'À faire',
        model: 'Connecter un modèle de langage',
        modelHint: 'Les réponses du chat et l’analyse en ont besoin.',
        whisper: 'Télécharger un modèle Whisper',
        whisperHint: 'Des transcriptions précises sur cette machine, au lieu de PocketSphinx.',
        speakers: 'Télécharger les modèles d’intervenants',
        speakersHint: 'Sans eux, chaque enregistrement n’a qu’un intervenant.',
        mail: 'Configurer l’envoi des e-mails',
        mailHint: 'Définissez SMTP_URL pour que les invitations et les réinitialisations de mot de passe arrivent.',
        open: 'Ouvrir',
      },
    },
    et: {
      firstRun: {
        title: 'Platvormi ettevalmistamine',
        intro: 'Mõni samm, et transkriptsioonid, analüüs ja e-kirjad hästi toimiksid. Iga tehtud samm märgitakse.',
        done: 'Tehtud',
        toDo: 'Tegemata',
        model: 'Ühenda keelemudel',
        modelHint: 'Vestluse vastused ja analüüs vajavad seda.',
        whisper: 'Laadi alla Whisperi mudel',
        whisperHint: 'Täpsed transkriptsioonid selles masinas PocketSphinxi asemel.',
        speakers: 'Laadi alla kõnelejate mudelid',
        speakersHint: 'Ilma nendeta on igal salvestisel üks kõneleja.',
        mail: 'Seadista e-post',
        mailHint: 'Määra SMTP_URL, et kutsed ja parooli lähtestamised inimesteni jõuaksid.',
        open: 'Ava',
      },
    },
    lv: {
      firstRun: {
        title: 'Platformas sagatavošana',
        intro: 'Daži soļi, lai transkripcijas, analīze un e-pasts darbotos labi. Katrs paveiktais solis tiek atzīmēts.',
        done: 'Paveikts',
        toDo: 'Jāizdara',
        model: 'Pievienot valodas modeli',
        modelHint: 'Tas vajadzīgs tērzēšanas atbildēm un analīzei.',
        whisper: 'Lejupielādēt Whisper modeli',
        whisperHint: 'Precīzas transkripcijas šajā datorā PocketSphinx vietā.',
        speakers: 'Lejupielādēt runātāju modeļus',
        speakersHint: 'Bez tiem katram ierakstam ir viens runātājs.',
        mail: 'Iestatīt e-pastu',
        mailHint: 'Iestatiet SMTP_URL, lai ielūgumi un paroles atiestatīšana sasniegtu cilvēkus.',
        open: 'Atvērt',
      },
    },
  },
);
