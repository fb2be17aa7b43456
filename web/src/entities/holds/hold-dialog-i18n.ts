// The legal hold control's strings: recordings, clients and companies use the same
// dialog and badge. They ship with the pages that show them.
import { defineFeatureCatalogue } from '../../i18n/feature';

export const catalogue = defineFeatureCatalogue(
  'hold-dialog',
  {
    hold: {
      badge: 'Held',
      badgeTitle: 'Legal hold: {{reason}}',
      badgeSince: 'Legal hold since {{date}}: {{reason}}',
      badgeSinceOnly: 'Legal hold since {{date}}',
      place: 'Place legal hold',
      lift: 'Lift legal hold',
      placeTitle: 'Place a legal hold on {{name}}',
      liftTitle: 'Lift the legal hold on {{name}}',
      placeIntro:
        'While held, nothing it covers can be deleted — by a person, by retention or by erasure. The audit log keeps who placed it and why.',
      liftIntro: 'Once lifted, deletions and retention apply again. The audit log keeps who lifted it and why.',
      reason: 'Reason',
      reasonHint: 'Required, up to 500 characters (a case number, a request…)',
      cancel: 'Cancel',
      placed: 'Legal hold placed',
      lifted: 'Legal hold lifted',
      failed: 'The hold could not be changed',
    },
  },
  {
    fr: {
      hold: {
        badge: 'Conservé',
        badgeTitle: 'Conservation légale : {{reason}}',
        badgeSince: 'Conservation légale depuis le {{date}} : {{reason}}',
        badgeSinceOnly: 'Conservation légale depuis le {{date}}',
        place: 'Placer une conservation légale',
        lift: 'Lever la conservation légale',
        placeTitle: 'Placer une conservation légale sur {{name}}',
        liftTitle: 'Lever la conservation légale sur {{name}}',
        placeIntro:
          'Tant qu’elle dure, rien de ce qu’elle couvre ne peut être supprimé — ni par une personne, ni par la durée de conservation, ni par un effacement. Le journal d’audit garde qui l’a placée et pourquoi.',
        liftIntro:
          'Une fois levée, les suppressions et la durée de conservation s’appliquent de nouveau. Le journal d’audit garde qui l’a levée et pourquoi.',
        reason: 'Motif',
        reasonHint: 'Obligatoire, 500 caractères au plus (un numéro de dossier, une demande…)',
        cancel: 'Annuler',
        placed: 'Conservation légale placée',
        lifted: 'Conservation légale levée',
        failed: 'La conservation n’a pas pu être modifiée',
      },
    },
    et: {
      hold: {
        badge: 'Hoiul',
        badgeTitle: 'Õiguslik hoid: {{reason}}',
        badgeSince: 'Õiguslik hoid alates {{date}}: {{reason}}',
        badgeSinceOnly: 'Õiguslik hoid alates {{date}}',
        place: 'Pane õiguslik hoid',
        lift: 'Lõpeta õiguslik hoid',
        placeTitle: 'Pane õiguslik hoid: {{name}}',
        liftTitle: 'Lõpeta õiguslik hoid: {{name}}',
        placeIntro:
          'Hoiu ajal ei saa midagi sellest kustutada — ei inimene, säilitustähtaeg ega andmete kustutamise taotlus. Auditilogi säilitab, kes selle pani ja miks.',
        liftIntro:
          'Pärast lõpetamist kehtivad kustutamine ja säilitustähtaeg taas. Auditilogi säilitab, kes selle lõpetas ja miks.',
        reason: 'Põhjus',
        reasonHint: 'Kohustuslik, kuni 500 märki (toimiku number, taotlus…)',
        cancel: 'Loobu',
        placed: 'Õiguslik hoid pandud',
        lifted: 'Õiguslik hoid lõpetatud',
        failed: 'Hoidu ei õnnestunud muuta',
      },
    },
    lv: {
      hold: {
        badge: 'Aizturēts',
        badgeTitle: 'Juridiskā aizturēšana: {{reason}}',
        badgeSince: 'Juridiskā aizturēšana kopš {{date}}: {{reason}}',
        badgeSinceOnly: 'Juridiskā aizturēšana kopš {{date}}',
        place: 'Noteikt juridisko aizturēšanu',
        lift: 'Atcelt juridisko aizturēšanu',
        placeTitle: 'Noteikt juridisko aizturēšanu: {{name}}',
        liftTitle: 'Atcelt juridisko aizturēšanu: {{name}}',
        placeIntro:
          'Kamēr tā ir spēkā, neko no tā nevar dzēst — ne cilvēks, ne glabāšanas termiņš, ne dzēšanas pieprasījums. Audita žurnāls saglabā, kas to noteica un kāpēc.',
        liftIntro:
          'Pēc atcelšanas dzēšana un glabāšanas termiņš atkal darbojas. Audita žurnāls saglabā, kas to atcēla un kāpēc.',
        reason: 'Iemesls',
        reasonHint: 'Obligāts, līdz 500 rakstzīmēm (lietas numurs, pieprasījums…)',
        cancel: 'Atcelt',
        placed: 'Juridiskā aizturēšana noteikta',
        lifted: 'Juridiskā aizturēšana atcelta',
        failed: 'Aizturēšanu neizdevās mainīt',
      },
    },
  },
);
