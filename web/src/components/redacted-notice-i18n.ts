// What a save's answer tells when the company's redaction hid numbers in what was typed.
import { defineFeatureCatalogue } from '../i18n/feature';

export const catalogue = defineFeatureCatalogue(
  'redactedNotice',
  {
    removed:
      'Removed before it was saved: card numbers, account numbers, IDs, e-mail addresses or phone numbers ({{count}}).',
  },
  {
    fr: {
      removed:
        "Retirés avant l'enregistrement : numéros de carte, de compte, d'identité, adresses e-mail ou numéros de téléphone ({{count}}).",
    },
    et: {
      removed:
        'Enne salvestamist eemaldati kaardi-, konto- ja isikukoodid, e-posti aadressid või telefoninumbrid ({{count}}).',
    },
    lv: {
      removed:
        'Pirms saglabāšanas izņemti kartes, konta un personas kodi, e-pasta adreses vai tālruņa numuri ({{count}}).',
    },
  },
);
