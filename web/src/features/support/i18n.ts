// The support page's strings (see i18n/feature.ts).
import { defineFeatureCatalogue } from '../../i18n/feature';

export const catalogue = defineFeatureCatalogue(
  'support',
  {
    support: {
      intro: 'For help with your account or the console, contact your company’s administrators:',
      introPlatform: 'For help, contact the other platform administrators:',
      none: 'Your company has no administrator to contact yet.',
      loadFailed: 'The contacts could not be loaded',
      write: 'Write to {{name}}',
    },
  },
  {
    fr: {
      support: {
        intro: 'Pour de l’aide sur votre compte ou la console, contactez les administrateurs de votre entreprise :',
        introPlatform: 'Pour de l’aide, contactez les autres administrateurs de la plateforme :',
        none: 'Votre entreprise n’a pas encore d’administrateur à contacter.',
        loadFailed: 'Impossible de charger les contacts',
        write: 'Écrire à {{name}}',
      },
    },
    et: {
      support: {
        intro: 'Abi saamiseks konto või konsooliga võta ühendust oma ettevõtte administraatoritega:',
        introPlatform: 'Abi saamiseks võta ühendust teiste platvormi administraatoritega:',
        none: 'Sinu ettevõttel pole veel administraatorit, kellega ühendust võtta.',
        loadFailed: 'Kontakte ei õnnestunud laadida',
        write: 'Kirjuta: {{name}}',
      },
    },
    lv: {
      support: {
        intro: 'Lai saņemtu palīdzību par kontu vai konsoli, sazinieties ar sava uzņēmuma administratoriem:',
        introPlatform: 'Lai saņemtu palīdzību, sazinieties ar citiem platformas administratoriem:',
        none: 'Jūsu uzņēmumam vēl nav administratora, ar kuru sazināties.',
        loadFailed: 'Kontaktus neizdevās ielādēt',
        write: 'Rakstīt: {{name}}',
      },
    },
  },
);
