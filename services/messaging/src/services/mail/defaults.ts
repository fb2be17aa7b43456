// The platform's own e-mails, shipped in every console language. They are seeded as the platform
// templates at start; an administrator may edit them (the edit then wins over a later release) or
// override one per company and language.
import type { EmailLanguage, EmailTemplateType } from '@earshot/contracts';

interface Copy {
  subject: string;
  /** Paragraphs; `{{…}}` variables allowed. */
  lines: string[];
  /** The call to action's label, linking to {{link}}. */
  action?: string;
}

type Catalogue = Record<EmailTemplateType, Record<EmailLanguage, Copy>>;

const COPY: Catalogue = {
  password_reset: {
    en: {
      subject: 'Reset your {{company.name}} password',
      lines: [
        'Hello {{user.firstName}},',
        'Someone asked to reset the password of your account ({{user.email}}). The link works once and for {{expiresInMinutes}} minutes.',
        'If it was not you, ignore this message: your password stays as it is.',
      ],
      action: 'Choose a new password',
    },
    fr: {
      subject: 'Réinitialisez votre mot de passe {{company.name}}',
      lines: [
        'Bonjour {{user.firstName}},',
        'Une réinitialisation du mot de passe de votre compte ({{user.email}}) a été demandée. Le lien ne sert qu’une fois et reste valable {{expiresInMinutes}} minutes.',
        'Si vous n’êtes pas à l’origine de cette demande, ignorez ce message : votre mot de passe ne change pas.',
      ],
      action: 'Choisir un nouveau mot de passe',
    },
    et: {
      subject: 'Lähtesta oma {{company.name}} parool',
      lines: [
        'Tere, {{user.firstName}}!',
        'Teie konto ({{user.email}}) parooli lähtestamist taotleti. Link töötab ühe korra ja {{expiresInMinutes}} minutit.',
        'Kui see polnud teie, jätke kiri tähelepanuta: parool jääb samaks.',
      ],
      action: 'Vali uus parool',
    },
    lv: {
      subject: 'Atiestatiet savu {{company.name}} paroli',
      lines: [
        'Sveiki, {{user.firstName}}!',
        'Tika pieprasīta jūsu konta ({{user.email}}) paroles atiestatīšana. Saite darbojas vienu reizi un {{expiresInMinutes}} minūtes.',
        'Ja to nedarījāt jūs, neņemiet vērā šo vēstuli: parole paliek nemainīga.',
      ],
      action: 'Izvēlēties jaunu paroli',
    },
  },
  invitation: {
    en: {
      subject: 'You are invited to {{company.name}} on Earshot',
      lines: [
        'Hello {{user.firstName}},',
        'An account has been created for you ({{user.email}}). Choose your password to sign in; the link is valid for {{expiresInDays}} days.',
      ],
      action: 'Set my password',
    },
    fr: {
      subject: 'Vous êtes invité(e) à rejoindre {{company.name}} sur Earshot',
      lines: [
        'Bonjour {{user.firstName}},',
        'Un compte a été créé pour vous ({{user.email}}). Choisissez votre mot de passe pour vous connecter ; le lien est valable {{expiresInDays}} jours.',
      ],
      action: 'Définir mon mot de passe',
    },
    et: {
      subject: 'Teid kutsuti Earshotis ettevõttesse {{company.name}}',
      lines: [
        'Tere, {{user.firstName}}!',
        'Teile loodi konto ({{user.email}}). Sisselogimiseks valige parool; link kehtib {{expiresInDays}} päeva.',
      ],
      action: 'Määra parool',
    },
    lv: {
      subject: 'Jūs esat uzaicināts uz {{company.name}} platformā Earshot',
      lines: [
        'Sveiki, {{user.firstName}}!',
        'Jums ir izveidots konts ({{user.email}}). Izvēlieties paroli, lai pieteiktos; saite ir derīga {{expiresInDays}} dienas.',
      ],
      action: 'Iestatīt paroli',
    },
  },
  two_step_enabled: {
    en: {
      subject: 'Two-step sign-in is on',
      lines: [
        'Hello {{user.firstName}},',
        'Two-step sign-in was turned on for your account on {{date}}. From now on you will enter a code from your authenticator app when you sign in.',
        'If it was not you, contact your administrator at once.',
      ],
    },
    fr: {
      subject: 'La connexion en deux étapes est activée',
      lines: [
        'Bonjour {{user.firstName}},',
        'La connexion en deux étapes a été activée pour votre compte le {{date}}. Vous saisirez désormais un code de votre application d’authentification à chaque connexion.',
        'Si ce n’est pas vous, contactez immédiatement votre administrateur.',
      ],
    },
    et: {
      subject: 'Kaheastmeline sisselogimine on sees',
      lines: [
        'Tere, {{user.firstName}}!',
        'Teie kontol lülitati {{date}} sisse kaheastmeline sisselogimine. Edaspidi sisestate sisselogimisel autentimisrakenduse koodi.',
        'Kui see polnud teie, võtke kohe ühendust administraatoriga.',
      ],
    },
    lv: {
      subject: 'Divpakāpju pieteikšanās ir ieslēgta',
      lines: [
        'Sveiki, {{user.firstName}}!',
        'Jūsu kontam {{date}} tika ieslēgta divpakāpju pieteikšanās. Turpmāk, piesakoties, ievadīsiet kodu no autentifikācijas lietotnes.',
        'Ja to nedarījāt jūs, nekavējoties sazinieties ar administratoru.',
      ],
    },
  },
  two_step_disabled: {
    en: {
      subject: 'Two-step sign-in is off',
      lines: [
        'Hello {{user.firstName}},',
        'Two-step sign-in was turned off for your account on {{date}}. Your password alone now signs you in.',
        'If it was not you, contact your administrator at once.',
      ],
    },
    fr: {
      subject: 'La connexion en deux étapes est désactivée',
      lines: [
        'Bonjour {{user.firstName}},',
        'La connexion en deux étapes a été désactivée pour votre compte le {{date}}. Votre mot de passe suffit désormais pour vous connecter.',
        'Si ce n’est pas vous, contactez immédiatement votre administrateur.',
      ],
    },
    et: {
      subject: 'Kaheastmeline sisselogimine on väljas',
      lines: [
        'Tere, {{user.firstName}}!',
        'Teie kontol lülitati {{date}} kaheastmeline sisselogimine välja. Nüüd piisab sisselogimiseks paroolist.',
        'Kui see polnud teie, võtke kohe ühendust administraatoriga.',
      ],
    },
    lv: {
      subject: 'Divpakāpju pieteikšanās ir izslēgta',
      lines: [
        'Sveiki, {{user.firstName}}!',
        'Jūsu kontam {{date}} tika izslēgta divpakāpju pieteikšanās. Tagad pieteikšanās notiek tikai ar paroli.',
        'Ja to nedarījāt jūs, nekavējoties sazinieties ar administratoru.',
      ],
    },
  },
  transcript_ready: {
    en: {
      subject: 'Your transcript of {{recording.name}} is ready',
      lines: [
        'Hello {{user.firstName}},',
        'The transcript of {{recording.name}} is ready to read, play back and analyse.',
      ],
      action: 'Open the transcript',
    },
    fr: {
      subject: 'La transcription de {{recording.name}} est prête',
      lines: [
        'Bonjour {{user.firstName}},',
        'La transcription de {{recording.name}} est prête : vous pouvez la lire, l’écouter et l’analyser.',
      ],
      action: 'Ouvrir la transcription',
    },
    et: {
      subject: 'Salvestuse {{recording.name}} transkriptsioon on valmis',
      lines: [
        'Tere, {{user.firstName}}!',
        'Salvestuse {{recording.name}} transkriptsiooni saab nüüd lugeda, kuulata ja analüüsida.',
      ],
      action: 'Ava transkriptsioon',
    },
    lv: {
      subject: 'Ieraksta {{recording.name}} atšifrējums ir gatavs',
      lines: [
        'Sveiki, {{user.firstName}}!',
        'Ieraksta {{recording.name}} atšifrējumu tagad var lasīt, noklausīties un analizēt.',
      ],
      action: 'Atvērt atšifrējumu',
    },
  },
  transcription_failed: {
    en: {
      subject: 'The transcription of {{recording.name}} failed',
      lines: [
        'Hello {{user.firstName}},',
        'We could not transcribe {{recording.name}}: {{reason}}',
        'You can try again from the transcripts page.',
      ],
      action: 'See the recording',
    },
    fr: {
      subject: 'La transcription de {{recording.name}} a échoué',
      lines: [
        'Bonjour {{user.firstName}},',
        'Nous n’avons pas pu transcrire {{recording.name}} : {{reason}}',
        'Vous pouvez réessayer depuis la page des transcriptions.',
      ],
      action: 'Voir l’enregistrement',
    },
    et: {
      subject: 'Salvestuse {{recording.name}} transkribeerimine ebaõnnestus',
      lines: [
        'Tere, {{user.firstName}}!',
        'Salvestust {{recording.name}} ei õnnestunud transkribeerida: {{reason}}',
        'Võite transkriptsioonide lehel uuesti proovida.',
      ],
      action: 'Vaata salvestust',
    },
    lv: {
      subject: 'Ieraksta {{recording.name}} atšifrēšana neizdevās',
      lines: [
        'Sveiki, {{user.firstName}}!',
        'Ierakstu {{recording.name}} neizdevās atšifrēt: {{reason}}',
        'Varat mēģināt vēlreiz atšifrējumu lapā.',
      ],
      action: 'Skatīt ierakstu',
    },
  },
  credits_low: {
    en: {
      subject: '{{company.name}} is running low on credits',
      lines: [
        'Hello {{user.firstName}},',
        '{{company.name}} has {{credits.balance}} credits left, below the alert level of {{credits.threshold}}. When they run out, new AI work stops until credits are added.',
      ],
      action: 'See usage and credits',
    },
    fr: {
      subject: 'Les crédits de {{company.name}} s’épuisent',
      lines: [
        'Bonjour {{user.firstName}},',
        'Il reste {{credits.balance}} crédits à {{company.name}}, sous le seuil d’alerte de {{credits.threshold}}. Une fois épuisés, les nouveaux traitements d’IA s’arrêtent jusqu’à l’ajout de crédits.',
      ],
      action: 'Voir la consommation et les crédits',
    },
    et: {
      subject: 'Ettevõtte {{company.name}} krediit hakkab lõppema',
      lines: [
        'Tere, {{user.firstName}}!',
        'Ettevõttel {{company.name}} on alles {{credits.balance}} krediiti, alla hoiatuspiiri {{credits.threshold}}. Kui krediit lõpeb, peatub uus tehisintellekti töö kuni krediidi lisamiseni.',
      ],
      action: 'Vaata kasutust ja krediiti',
    },
    lv: {
      subject: '{{company.name}} kredīti tuvojas beigām',
      lines: [
        'Sveiki, {{user.firstName}}!',
        '{{company.name}} ir atlikuši {{credits.balance}} kredīti, mazāk par brīdinājuma slieksni {{credits.threshold}}. Kad tie beigsies, jauns MI darbs apstāsies, līdz tiks pievienoti kredīti.',
      ],
      action: 'Skatīt patēriņu un kredītus',
    },
  },
  budget_reached: {
    en: {
      subject: '{{company.name}} has reached its monthly budget',
      lines: [
        'Hello {{user.firstName}},',
        'The monthly budget of {{credits.budget}} credits is used up. New AI work is refused until next month or until the budget is raised.',
      ],
      action: 'See usage and credits',
    },
    fr: {
      subject: '{{company.name}} a atteint son budget mensuel',
      lines: [
        'Bonjour {{user.firstName}},',
        'Le budget mensuel de {{credits.budget}} crédits est épuisé. Les nouveaux traitements d’IA sont refusés jusqu’au mois prochain ou jusqu’à ce que le budget soit relevé.',
      ],
      action: 'Voir la consommation et les crédits',
    },
    et: {
      subject: '{{company.name}} on jõudnud kuueelarve piirini',
      lines: [
        'Tere, {{user.firstName}}!',
        'Kuueelarve {{credits.budget}} krediiti on ära kasutatud. Uut tehisintellekti tööd ei alustata enne järgmist kuud või eelarve suurendamist.',
      ],
      action: 'Vaata kasutust ja krediiti',
    },
    lv: {
      subject: '{{company.name}} ir sasniedzis mēneša budžetu',
      lines: [
        'Sveiki, {{user.firstName}}!',
        'Mēneša budžets {{credits.budget}} kredītu apmērā ir izlietots. Jauns MI darbs tiek atteikts līdz nākamajam mēnesim vai budžeta palielināšanai.',
      ],
      action: 'Skatīt patēriņu un kredītus',
    },
  },
  task_assigned: {
    en: {
      subject: 'New task: {{task.title}}',
      lines: [
        'Hello {{user.firstName}},',
        '{{assignedBy}} assigned you a task in {{company.name}}: “{{task.title}}”.',
        'Due: {{task.dueDate}}',
      ],
      action: 'Open the task',
    },
    fr: {
      subject: 'Nouvelle tâche : {{task.title}}',
      lines: [
        'Bonjour {{user.firstName}},',
        '{{assignedBy}} vous a confié une tâche dans {{company.name}} : « {{task.title}} ».',
        'Échéance : {{task.dueDate}}',
      ],
      action: 'Ouvrir la tâche',
    },
    et: {
      subject: 'Uus ülesanne: {{task.title}}',
      lines: [
        'Tere, {{user.firstName}}!',
        '{{assignedBy}} määras teile ettevõttes {{company.name}} ülesande „{{task.title}}“.',
        'Tähtaeg: {{task.dueDate}}',
      ],
      action: 'Ava ülesanne',
    },
    lv: {
      subject: 'Jauns uzdevums: {{task.title}}',
      lines: [
        'Sveiki, {{user.firstName}}!',
        '{{assignedBy}} jums piešķīra uzdevumu uzņēmumā {{company.name}}: “{{task.title}}”.',
        'Termiņš: {{task.dueDate}}',
      ],
      action: 'Atvērt uzdevumu',
    },
  },
  task_due: {
    en: {
      subject: 'Due today: {{task.title}}',
      lines: ['Hello {{user.firstName}},', 'Your task “{{task.title}}” is due today, {{task.dueDate}}.'],
      action: 'Open the task',
    },
    fr: {
      subject: 'À faire aujourd’hui : {{task.title}}',
      lines: [
        'Bonjour {{user.firstName}},',
        'Votre tâche « {{task.title}} » arrive à échéance aujourd’hui, le {{task.dueDate}}.',
      ],
      action: 'Ouvrir la tâche',
    },
    et: {
      subject: 'Täna tähtaeg: {{task.title}}',
      lines: ['Tere, {{user.firstName}}!', 'Teie ülesande „{{task.title}}“ tähtaeg on täna, {{task.dueDate}}.'],
      action: 'Ava ülesanne',
    },
    lv: {
      subject: 'Šodien termiņš: {{task.title}}',
      lines: ['Sveiki, {{user.firstName}}!', 'Jūsu uzdevuma “{{task.title}}” termiņš ir šodien, {{task.dueDate}}.'],
      action: 'Atvērt uzdevumu',
    },
  },
  webhook_disabled: {
    en: {
      subject: 'A webhook of {{company.name}} was turned off',
      lines: [
        'Hello {{user.firstName}},',
        'Every delivery to {{webhook.url}} failed for 5 days, so Earshot stopped sending to it. Last error: {{reason}}.',
        'Fix the receiver, then turn the endpoint on again: the events that waited are sent then.',
      ],
      action: 'Open the webhooks',
    },
    fr: {
      subject: 'Un webhook de {{company.name}} a été désactivé',
      lines: [
        'Bonjour {{user.firstName}},',
        'Tous les envois vers {{webhook.url}} ont échoué pendant 5 jours : Earshot a cessé d’y envoyer. Dernière erreur : {{reason}}.',
        'Réparez le destinataire puis réactivez le point de terminaison : les événements en attente seront alors envoyés.',
      ],
      action: 'Ouvrir les webhooks',
    },
    et: {
      subject: 'Ettevõtte {{company.name}} veebihaak lülitati välja',
      lines: [
        'Tere, {{user.firstName}}!',
        'Kõik saadetised aadressile {{webhook.url}} ebaõnnestusid 5 päeva jooksul, seega Earshot lõpetas sinna saatmise. Viimane viga: {{reason}}.',
        'Paranda vastuvõtja ja lülita lõpp-punkt uuesti sisse: siis saadetakse ootel sündmused.',
      ],
      action: 'Ava veebihaagid',
    },
    lv: {
      subject: '{{company.name}} tīmekļa āķis tika izslēgts',
      lines: [
        'Sveiki, {{user.firstName}}!',
        'Visi sūtījumi uz {{webhook.url}} 5 dienas neizdevās, tāpēc Earshot pārtrauca tos sūtīt. Pēdējā kļūda: {{reason}}.',
        'Salabojiet saņēmēju un ieslēdziet galapunktu vēlreiz: tad tiks nosūtīti gaidošie notikumi.',
      ],
      action: 'Atvērt tīmekļa āķus',
    },
  },
};

export interface ShippedTemplate {
  type: EmailTemplateType;
  language: EmailLanguage;
  subject: string;
  html: string;
  text: string;
}

function toTemplate(type: EmailTemplateType, language: EmailLanguage, copy: Copy): ShippedTemplate {
  const paragraphs = copy.lines.map((line) => `<p style="margin:0 0 12px">${line}</p>`);
  const button = copy.action
    ? [`<p style="margin:20px 0"><a href="{{link}}" class="button">${copy.action}</a></p>`]
    : [];
  const text = [...copy.lines, ...(copy.action ? [`${copy.action}: {{link}}`] : [])].join('\n\n');
  return { type, language, subject: copy.subject, html: [...paragraphs, ...button].join('\n'), text };
}

export const SHIPPED_TEMPLATES: readonly ShippedTemplate[] = Object.entries(COPY).flatMap(([type, languages]) =>
  Object.entries(languages).map(([language, copy]) =>
    toTemplate(type as EmailTemplateType, language as EmailLanguage, copy),
  ),
);
