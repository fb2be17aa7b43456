// The strings of the chat's custom GPT picker and intro: in their lazy chunk, not the shell's
// eager catalogue (the signed-in shell has a size budget).
import { defineFeatureCatalogue } from '../../i18n/feature';

export const catalogue = defineFeatureCatalogue(
  'chatGpts',
  {
    pickerTitle: 'New chat with…',
    pickerHint: 'Custom GPTs answer with their own instructions and knowledge, and cite their sources.',
    none: 'No custom GPT is available to you yet.',
    loading: 'Loading…',
    loadFailed: 'The custom GPTs could not be loaded.',
    close: 'Close',
    starters: 'Try asking',
    unavailable: 'This custom GPT is no longer available to you.',
    chattingWith: 'Chatting with {{name}}',
  },
  {
    fr: {
      pickerTitle: 'Nouvelle discussion avec…',
      pickerHint:
        'Les GPT personnalisés répondent avec leurs propres consignes et connaissances, et citent leurs sources.',
      none: 'Aucun GPT personnalisé ne vous est encore proposé.',
      loading: 'Chargement…',
      loadFailed: 'Impossible de charger les GPT personnalisés.',
      close: 'Fermer',
      starters: 'Essayez de demander',
      unavailable: 'Ce GPT personnalisé ne vous est plus accessible.',
      chattingWith: 'Discussion avec {{name}}',
    },
    et: {
      pickerTitle: 'Uus vestlus GPT-ga…',
      pickerHint: 'Kohandatud GPT-d vastavad oma juhiste ja teadmuse põhjal ning viitavad allikatele.',
      none: 'Sulle pole veel ühtki kohandatud GPT-d saadaval.',
      loading: 'Laadimine…',
      loadFailed: 'Kohandatud GPT-sid ei õnnestunud laadida.',
      close: 'Sulge',
      starters: 'Proovi küsida',
      unavailable: 'See kohandatud GPT pole sulle enam saadaval.',
      chattingWith: 'Vestlus: {{name}}',
    },
    lv: {
      pickerTitle: 'Jauna saruna ar…',
      pickerHint: 'Pielāgotie GPT atbild pēc saviem norādījumiem un zināšanām un atsaucas uz avotiem.',
      none: 'Jums vēl nav pieejams neviens pielāgotais GPT.',
      loading: 'Ielādē…',
      loadFailed: 'Pielāgotos GPT neizdevās ielādēt.',
      close: 'Aizvērt',
      starters: 'Pamēģiniet pajautāt',
      unavailable: 'Šis pielāgotais GPT jums vairs nav pieejams.',
      chattingWith: 'Saruna ar {{name}}',
    },
  },
);
