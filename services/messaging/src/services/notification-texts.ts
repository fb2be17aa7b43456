import type { EmailLanguage } from '@earshot/contracts';
import { formatDay } from './dates';

/**
 * The in-app notifications of tasks, transcriptions and analyses, in the company's language (the
 * bell and the inbox show them as written). {title} is the task's, {due} its due date (a day, written as the language writes it), {by} who
 * assigned it, {recording} the recording's name, {reason} why a transcription failed.
 */
export type NoticeKind = 'task_assigned' | 'task_due' | 'transcription_failed' | 'analysis_finished' | 'mention';

type Texts = Record<NoticeKind, { title: string; body: string }>;

const TEXTS: Record<EmailLanguage, Texts> = {
  en: {
    task_assigned: { title: 'New task: {title}', body: '{by} assigned you “{title}”{due}.' },
    task_due: { title: 'Due today: {title}', body: 'Your task “{title}” is due today ({due}).' },
    transcription_failed: {
      title: 'Transcription failed: {recording}',
      body: 'We could not transcribe {recording}: {reason}',
    },
    analysis_finished: { title: 'Analysis ready: {recording}', body: 'The analysis of {recording} has finished.' },
    mention: { title: '{by} mentioned you: {title}', body: '{by} mentioned you in the task “{title}”.' },
  },
  fr: {
    task_assigned: { title: 'Nouvelle tâche : {title}', body: '{by} vous a confié « {title} »{due}.' },
    task_due: {
      title: 'À faire aujourd’hui : {title}',
      body: 'Votre tâche « {title} » arrive à échéance aujourd’hui ({due}).',
    },
    transcription_failed: {
      title: 'Échec de la transcription : {recording}',
      body: 'Nous n’avons pas pu transcrire {recording} : {reason}',
    },
    analysis_finished: { title: 'Analyse prête : {recording}', body: 'L’analyse de {recording} est terminée.' },
    mention: { title: '{by} vous a mentionné : {title}', body: '{by} vous a mentionné dans la tâche « {title} ».' },
  },
  et: {
    task_assigned: { title: 'Uus ülesanne: {title}', body: '{by} määras teile ülesande „{title}“{due}.' },
    task_due: { title: 'Täna tähtaeg: {title}', body: 'Teie ülesande „{title}“ tähtaeg on täna ({due}).' },
    transcription_failed: {
      title: 'Transkribeerimine ebaõnnestus: {recording}',
      body: 'Salvestust {recording} ei õnnestunud transkribeerida: {reason}',
    },
    analysis_finished: { title: 'Analüüs valmis: {recording}', body: 'Salvestuse {recording} analüüs on valmis.' },
    mention: { title: '{by} mainis teid: {title}', body: '{by} mainis teid ülesandes „{title}“.' },
  },
  lv: {
    task_assigned: { title: 'Jauns uzdevums: {title}', body: '{by} jums piešķīra uzdevumu “{title}”{due}.' },
    task_due: { title: 'Šodien termiņš: {title}', body: 'Jūsu uzdevuma “{title}” termiņš ir šodien ({due}).' },
    transcription_failed: {
      title: 'Atšifrēšana neizdevās: {recording}',
      body: 'Ierakstu {recording} neizdevās atšifrēt: {reason}',
    },
    analysis_finished: { title: 'Analīze gatava: {recording}', body: 'Ieraksta {recording} analīze ir pabeigta.' },
    mention: { title: '{by} jūs pieminēja: {title}', body: '{by} jūs pieminēja uzdevumā “{title}”.' },
  },
};

/** ", due {date}" in each language, added to an assignment that has a due date. */
const DUE: Record<EmailLanguage, string> = {
  en: ', due {due}',
  fr: ', pour le {due}',
  et: ', tähtaeg {due}',
  lv: ', termiņš {due}',
};

const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');

/** Title and body of a notification of this kind, in a language (English when it has none). */
export function noticeText(
  language: string,
  kind: NoticeKind,
  values: Record<string, string>,
): { title: string; body: string } {
  const lang = (language in TEXTS ? language : 'en') as EmailLanguage;
  if (values.due) values = { ...values, due: formatDay(values.due, lang) };
  const due = kind === 'task_assigned' && values.due ? fill(DUE[lang], values) : '';
  const { title, body } = TEXTS[lang][kind];
  return {
    title: fill(title, values),
    body: fill(body, { ...values, due: kind === 'task_assigned' ? due : (values.due ?? '') }),
  };
}
