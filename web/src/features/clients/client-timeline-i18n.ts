// The client timeline's strings for calls and tasks (see i18n/feature.ts); the profile's own
// strings are in i18n.ts.
import { defineFeatureCatalogue } from '../../i18n/feature';

export const catalogue = defineFeatureCatalogue(
  'clientTimeline',
  {
    clientTimeline: {
      label: 'Calls and tasks of this client, newest first',
      call: 'Call',
      task: 'Task',
      due: 'due {{date}}',
      atMoment: 'at {{time}}',
      tasksFailed: 'The client’s tasks could not be loaded',
      status: { todo: 'To do', in_progress: 'In progress', done: 'Done' },
      recording: { pending: 'Waiting', processing: 'Transcribing', completed: 'Transcribed', failed: 'Failed' },
    },
  },
  {
    fr: {
      clientTimeline: {
        label: 'Appels et tâches de ce client, du plus récent au plus ancien',
        call: 'Appel',
        task: 'Tâche',
        due: 'échéance {{date}}',
        atMoment: 'à {{time}}',
        tasksFailed: 'Impossible de charger les tâches du client',
        status: { todo: 'À faire', in_progress: 'En cours', done: 'Terminée' },
        recording: {
          pending: 'En attente',
          processing: 'Transcription en cours',
          completed: 'Transcrit',
          failed: 'Échec',
        },
      },
    },
    et: {
      clientTimeline: {
        label: 'Selle kliendi kõned ja ülesanded, uusimad eespool',
        call: 'Kõne',
        task: 'Ülesanne',
        due: 'tähtaeg {{date}}',
        atMoment: 'kohal {{time}}',
        tasksFailed: 'Kliendi ülesandeid ei õnnestunud laadida',
        status: { todo: 'Teha', in_progress: 'Töös', done: 'Tehtud' },
        recording: {
          pending: 'Ootel',
          processing: 'Transkribeerimisel',
          completed: 'Transkribeeritud',
          failed: 'Ebaõnnestus',
        },
      },
    },
    lv: {
      clientTimeline: {
        label: 'Šī klienta zvani un uzdevumi, jaunākie vispirms',
        call: 'Zvans',
        task: 'Uzdevums',
        due: 'termiņš {{date}}',
        atMoment: 'pie {{time}}',
        tasksFailed: 'Klienta uzdevumus neizdevās ielādēt',
        status: { todo: 'Jādara', in_progress: 'Procesā', done: 'Izdarīts' },
        recording: { pending: 'Gaida', processing: 'Transkribē', completed: 'Transkribēts', failed: 'Neizdevās' },
      },
    },
  },
);
