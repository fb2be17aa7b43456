import { defineFeatureCatalogue } from '../../i18n/catalogue';

/** Sign-in strings for the first sign-in with a one-time password, a suspended company, and accepting an invitation. */
export const catalogue = defineFeatureCatalogue(
  'auth',
  {
    passwordChange: {
      title: 'Choose your password',
      text: 'You signed in with a one-time password. Choose a password of your own to continue.',
      submit: 'Save and continue',
      failed: 'The password could not be changed.',
    },
    invitation: {
      title: 'Welcome to {{company}}',
      text: 'You were invited to join. Set your password to finish setting up your account: you are signed in right after.',
      submit: 'Set your password',
      failed: 'Your password could not be set.',
    },
    invitationPending:
      'Your account is waiting for you to accept your invitation: choose your password with the link in the invitation e-mail, or ask your administrator to send it again',
    companySuspended: "Your company's access is suspended: contact your administrator",
  },
  {
    fr: {
      passwordChange: {
        title: 'Choisissez votre mot de passe',
        text: 'Vous vous êtes connecté avec un mot de passe à usage unique. Choisissez votre propre mot de passe pour continuer.',
        submit: 'Enregistrer et continuer',
        failed: "Le mot de passe n'a pas pu être modifié.",
      },
      invitation: {
        title: 'Bienvenue chez {{company}}',
        text: 'Vous avez été invité(e) à nous rejoindre. Définissez votre mot de passe pour terminer la création de votre compte : vous serez connecté(e) aussitôt.',
        submit: 'Définir votre mot de passe',
        failed: "Votre mot de passe n'a pas pu être défini.",
      },
      invitationPending:
        "Votre compte attend que vous acceptiez votre invitation : choisissez votre mot de passe avec le lien de l'e-mail d'invitation, ou demandez à votre administrateur de la renvoyer",
      companySuspended: "L'accès de votre entreprise est suspendu : contactez votre administrateur",
    },
    et: {
      passwordChange: {
        title: 'Valige oma parool',
        text: 'Logisite sisse ühekordse parooliga. Jätkamiseks valige endale oma parool.',
        submit: 'Salvesta ja jätka',
        failed: 'Parooli ei õnnestunud muuta.',
      },
      invitation: {
        title: 'Tere tulemast: {{company}}',
        text: 'Teid kutsuti liituma. Konto loomise lõpetamiseks määrake parool: kohe pärast seda olete sisse logitud.',
        submit: 'Määrake oma parool',
        failed: 'Parooli ei õnnestunud määrata.',
      },
      invitationPending:
        'Teie konto ootab, et võtaksite kutse vastu: valige parool kutse e-kirja lingi kaudu või paluge administraatoril kutse uuesti saata',
      companySuspended: 'Teie ettevõtte juurdepääs on peatatud: võtke ühendust oma administraatoriga',
    },
    lv: {
      passwordChange: {
        title: 'Izvēlieties savu paroli',
        text: 'Jūs pierakstījāties ar vienreizējo paroli. Lai turpinātu, izvēlieties savu paroli.',
        submit: 'Saglabāt un turpināt',
        failed: 'Paroli neizdevās nomainīt.',
      },
      invitation: {
        title: 'Laipni lūgti {{company}}',
        text: 'Jūs esat uzaicināts pievienoties. Iestatiet paroli, lai pabeigtu konta izveidi: uzreiz pēc tam jūs būsiet pierakstījies.',
        submit: 'Iestatiet savu paroli',
        failed: 'Paroli neizdevās iestatīt.',
      },
      invitationPending:
        'Jūsu konts gaida, kad pieņemsiet uzaicinājumu: izvēlieties paroli, izmantojot saiti uzaicinājuma e-pastā, vai lūdziet administratoram to nosūtīt vēlreiz',
      companySuspended: 'Jūsu uzņēmuma piekļuve ir apturēta: sazinieties ar savu administratoru',
    },
  },
);
