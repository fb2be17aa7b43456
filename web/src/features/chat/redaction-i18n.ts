// The notice under a question whose numbers redaction hid: in the chat's lazy chunk.
import { defineFeatureCatalogue } from '../../i18n/feature';

export const catalogue = defineFeatureCatalogue(
  'chatRedaction',
  {
    removed:
      'Removed from your question before it was stored or sent to the AI: card numbers, account numbers, IDs, e-mail addresses or phone numbers ({{count}}).',
  },
  {
    fr: {
      removed:
        "Retirés de votre question avant son enregistrement ou son envoi à l'IA : numéros de carte, de compte, d'identité, adresses e-mail ou numéros de téléphone ({{count}}).",
    },
    et: {
      removed:
        'Sinu küsimusest eemaldati enne salvestamist ja tehisintellektile saatmist kaardi-, konto- ja isikukoodid, e-posti aadressid või telefoninumbrid ({{count}}).',
    },
    lv: {
      removed:
        'No jūsu jautājuma pirms saglabāšanas un nosūtīšanas mākslīgajam intelektam izņemti kartes, konta un personas kodi, e-pasta adreses vai tālruņa numuri ({{count}}).',
    },
  },
);
