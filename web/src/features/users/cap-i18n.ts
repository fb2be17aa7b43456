// The monthly cap's strings on the users page (see i18n/feature.ts).
import { defineFeatureCatalogue } from '../../i18n/feature';

export const catalogue = defineFeatureCatalogue(
  'userCap',
  {
    cap: {
      column: 'Monthly cap',
      none: 'No cap',
      action: 'Set monthly cap',
      title: 'Monthly cap: {{name}}',
      intro: 'Credits this person may use per calendar month. Without a cap only the company’s balance limits them.',
      label: 'Credits per month',
      hint: 'Leave blank for no cap',
      invalid: 'Enter a positive number with at most four decimals, or leave blank',
      save: 'Save cap',
      cancel: 'Cancel',
      saved: 'Monthly cap saved',
    },
  },
  {
    fr: {
      cap: {
        column: 'Plafond mensuel',
        none: 'Aucun plafond',
        action: 'Fixer le plafond mensuel',
        title: 'Plafond mensuel : {{name}}',
        intro:
          'Crédits que cette personne peut utiliser par mois civil. Sans plafond, seul le solde de l’entreprise la limite.',
        label: 'Crédits par mois',
        hint: 'Laisser vide pour aucun plafond',
        invalid: 'Saisissez un nombre positif avec au plus quatre décimales, ou laissez vide',
        save: 'Enregistrer le plafond',
        cancel: 'Annuler',
        saved: 'Plafond mensuel enregistré',
      },
    },
    et: {
      cap: {
        column: 'Kuulimiit',
        none: 'Limiidita',
        action: 'Määra kuulimiit',
        title: 'Kuulimiit: {{name}}',
        intro: 'Krediidid, mida see inimene võib kalendrikuus kasutada. Limiidita piirab teda vaid ettevõtte saldo.',
        label: 'Krediite kuus',
        hint: 'Jäta tühjaks, kui limiiti pole',
        invalid: 'Sisesta positiivne arv kuni nelja kümnendkohaga või jäta tühjaks',
        save: 'Salvesta limiit',
        cancel: 'Tühista',
        saved: 'Kuulimiit salvestatud',
      },
    },
    lv: {
      cap: {
        column: 'Mēneša limits',
        none: 'Bez limita',
        action: 'Noteikt mēneša limitu',
        title: 'Mēneša limits: {{name}}',
        intro:
          'Kredīti, ko šī persona drīkst izmantot kalendārajā mēnesī. Bez limita to ierobežo tikai uzņēmuma atlikums.',
        label: 'Kredīti mēnesī',
        hint: 'Atstājiet tukšu, ja limita nav',
        invalid: 'Ievadiet pozitīvu skaitli ne vairāk kā ar četrām zīmēm aiz komata vai atstājiet tukšu',
        save: 'Saglabāt limitu',
        cancel: 'Atcelt',
        saved: 'Mēneša limits saglabāts',
      },
    },
  },
);
