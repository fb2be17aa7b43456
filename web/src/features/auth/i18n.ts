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
    sso: {
      continueWith: 'Continue with {{company}}',
      usesCompany: '{{company}} signs you in with its own sign-in.',
      required: 'Your company signs in with its own identity provider: continue with {{company}}.',
      errors: {
        sso_cancelled: 'Sign-in at your company was cancelled.',
        sso_state: 'This sign-in link has expired or was already used: start again.',
        sso_token:
          "Your company's sign-in could not be confirmed. Start again, and tell your IT department if it keeps happening.",
        sso_no_email:
          "Your company's sign-in did not tell us your e-mail address: ask your IT department to share it with Earshot.",
        sso_email_unverified:
          "An account with your e-mail already exists, but your company's sign-in did not confirm the address is yours: ask your IT department to mark it verified.",
        sso_user_limit: 'Your company has reached its maximum number of users: ask your administrator to make room.',
        sso_disabled: "Your account or your company's access is switched off: contact your administrator.",
        sso_unavailable: "Your company's sign-in is not answering right now: try again in a moment.",
        sso_not_configured:
          'This company does not sign in through its own identity provider (any more): sign in with your password.',
      },
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
      sso: {
        continueWith: 'Continuer avec {{company}}',
        usesCompany: '{{company}} vous connecte avec sa propre connexion.',
        required: 'Votre entreprise utilise son propre fournisseur d’identité : continuez avec {{company}}.',
        errors: {
          sso_cancelled: 'La connexion auprès de votre entreprise a été annulée.',
          sso_state: 'Ce lien de connexion a expiré ou a déjà servi : recommencez.',
          sso_token:
            'La connexion de votre entreprise n’a pas pu être confirmée. Recommencez, et prévenez votre service informatique si cela se répète.',
          sso_no_email:
            'La connexion de votre entreprise ne nous a pas transmis votre adresse e-mail : demandez à votre service informatique de la partager avec Earshot.',
          sso_email_unverified:
            'Un compte existe déjà avec votre e-mail, mais la connexion de votre entreprise n’a pas confirmé que l’adresse est la vôtre : demandez à votre service informatique de la marquer comme vérifiée.',
          sso_user_limit:
            'Votre entreprise a atteint son nombre maximal d’utilisateurs : demandez à votre administrateur de faire de la place.',
          sso_disabled: 'Votre compte ou l’accès de votre entreprise est désactivé : contactez votre administrateur.',
          sso_unavailable: 'La connexion de votre entreprise ne répond pas pour le moment : réessayez dans un instant.',
          sso_not_configured:
            'Cette entreprise ne se connecte pas (ou plus) par son propre fournisseur d’identité : connectez-vous avec votre mot de passe.',
        },
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
      sso: {
        continueWith: 'Jätka: {{company}}',
        usesCompany: '{{company}} logib teid sisse oma sisselogimisega.',
        required: 'Teie ettevõte kasutab oma identiteedipakkujat: jätkake ettevõttega {{company}}.',
        errors: {
          sso_cancelled: 'Sisselogimine teie ettevõtte juures katkestati.',
          sso_state: 'See sisselogimislink on aegunud või juba kasutatud: alustage uuesti.',
          sso_token:
            'Teie ettevõtte sisselogimist ei õnnestunud kinnitada. Alustage uuesti ja teavitage IT-osakonda, kui see kordub.',
          sso_no_email:
            'Teie ettevõtte sisselogimine ei edastanud teie e-posti aadressi: paluge IT-osakonnal see Earshotiga jagada.',
          sso_email_unverified:
            'Teie e-postiga konto on juba olemas, kuid teie ettevõtte sisselogimine ei kinnitanud, et aadress on teie oma: paluge IT-osakonnal märkida see kinnitatuks.',
          sso_user_limit: 'Teie ettevõte on jõudnud kasutajate arvu piirini: paluge administraatoril ruumi teha.',
          sso_disabled: 'Teie konto või ettevõtte juurdepääs on välja lülitatud: võtke ühendust administraatoriga.',
          sso_unavailable: 'Teie ettevõtte sisselogimine ei vasta praegu: proovige hetke pärast uuesti.',
          sso_not_configured: 'See ettevõte ei logi (enam) sisse oma identiteedipakkuja kaudu: logige sisse parooliga.',
        },
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
      sso: {
        continueWith: 'Turpināt ar {{company}}',
        usesCompany: '{{company}} jūs pieraksta ar savu pieteikšanos.',
        required: 'Jūsu uzņēmums izmanto savu identitātes nodrošinātāju: turpiniet ar {{company}}.',
        errors: {
          sso_cancelled: 'Pieteikšanās jūsu uzņēmumā tika atcelta.',
          sso_state: 'Šī pieteikšanās saite ir novecojusi vai jau izmantota: sāciet no jauna.',
          sso_token:
            'Jūsu uzņēmuma pieteikšanos neizdevās apstiprināt. Sāciet no jauna un informējiet IT nodaļu, ja tas atkārtojas.',
          sso_no_email:
            'Jūsu uzņēmuma pieteikšanās mums nenodeva jūsu e-pasta adresi: lūdziet IT nodaļai to kopīgot ar Earshot.',
          sso_email_unverified:
            'Konts ar jūsu e-pastu jau pastāv, bet jūsu uzņēmuma pieteikšanās neapstiprināja, ka adrese ir jūsu: lūdziet IT nodaļai atzīmēt to kā pārbaudītu.',
          sso_user_limit:
            'Jūsu uzņēmums ir sasniedzis maksimālo lietotāju skaitu: lūdziet administratoram atbrīvot vietu.',
          sso_disabled: 'Jūsu konts vai uzņēmuma piekļuve ir izslēgta: sazinieties ar administratoru.',
          sso_unavailable: 'Jūsu uzņēmuma pieteikšanās pašlaik neatbild: mēģiniet vēlreiz pēc brīža.',
          sso_not_configured:
            'Šis uzņēmums (vairs) nepiesakās ar savu identitātes nodrošinātāju: piesakieties ar paroli.',
        },
      },
      invitationPending:
        'Jūsu konts gaida, kad pieņemsiet uzaicinājumu: izvēlieties paroli, izmantojot saiti uzaicinājuma e-pastā, vai lūdziet administratoram to nosūtīt vēlreiz',
      companySuspended: 'Jūsu uzņēmuma piekļuve ir apturēta: sazinieties ar savu administratoru',
    },
  },
);
