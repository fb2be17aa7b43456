// The company policies section's strings (see i18n/feature.ts).
import { defineFeatureCatalogue } from '../../i18n/feature';

export const catalogue = defineFeatureCatalogue(
  'companyPolicies',
  {
    policies: {
      title: 'Data policies',
      redaction: 'Redaction of card numbers and personal data',
      modes: { off: 'Off', text: 'Redact the transcript', text_audio: 'Redact the transcript and silence the audio' },
      redactionHint: 'Applies to transcripts finished from now on (a re-run redacts an older one)',
      recordingsDays: 'Keep recordings and transcripts (days)',
      chatsDays: 'Keep chats (days)',
      auditDays: 'Keep audit entries (days, at least 365)',
      forever: 'Blank: forever. A daily job deletes what is older, except what a legal hold covers.',
      encryption: 'Encryption at rest (recordings)',
      encryptionHint: 'Once on, it cannot be turned off: encrypted recordings need their key.',
      keepOriginal: 'Keep the unredacted original',
      keepOriginalHint:
        'Needs encryption at rest (tick it first): originals are stored encrypted. Only the company’s ADMIN can read one, and every read is recorded in the audit log.',
      save: 'Save policies',
      saved: 'Policies saved',
      failed: 'The policies could not be saved',
      loadFailed: 'The policies could not be loaded',
      noMasterKey:
        'Unavailable: this server has no master key. The operator sets ENCRYPTION_MASTER_KEY on every service and restarts them first.',
      confirmEncryption:
        'Turn on encryption at rest for this company? It cannot be turned off again: recordings, transcripts and chats are then stored encrypted under the company’s key, which goes only with the company. The server’s master key (ENCRYPTION_MASTER_KEY) must stay configured from now on, or the company cannot upload or search.',
      confirmEncryptionYes: 'Turn on for good',
      cancel: 'Cancel',
      daysRange: 'Enter whole days from {{min}} to {{max}}, or leave it blank to keep forever',
    },
  },
  {
    fr: {
      policies: {
        title: 'Politiques de données',
        redaction: 'Masquage des numéros de carte et des données personnelles',
        modes: {
          off: 'Désactivé',
          text: 'Masquer dans la transcription',
          text_audio: 'Masquer dans la transcription et rendre l’audio muet',
        },
        redactionHint:
          'S’applique aux transcriptions terminées à partir de maintenant (une relance masque une plus ancienne)',
        recordingsDays: 'Conserver les enregistrements et transcriptions (jours)',
        chatsDays: 'Conserver les discussions (jours)',
        auditDays: 'Conserver le journal d’audit (jours, au moins 365)',
        forever:
          'Vide : pour toujours. Une tâche quotidienne supprime ce qui est plus ancien, sauf ce que couvre une conservation légale.',
        encryption: 'Chiffrement au repos (enregistrements)',
        encryptionHint:
          'Une fois activé, il ne peut plus être désactivé : les enregistrements chiffrés ont besoin de leur clé.',
        keepOriginal: 'Conserver l’original non masqué',
        keepOriginalHint:
          'Exige le chiffrement au repos (cochez-le d’abord) : les originaux sont stockés chiffrés. Seul l’ADMIN de l’entreprise peut en lire un, et chaque lecture est inscrite au journal d’audit.',
        save: 'Enregistrer les politiques',
        saved: 'Politiques enregistrées',
        failed: 'Les politiques n’ont pas pu être enregistrées',
        loadFailed: 'Les politiques n’ont pas pu être chargées',
        noMasterKey:
          'Indisponible : ce serveur n’a pas de clé maîtresse. L’opérateur définit ENCRYPTION_MASTER_KEY sur chaque service et les redémarre d’abord.',
        confirmEncryption:
          'Activer le chiffrement au repos pour cette entreprise ? Il ne pourra plus être désactivé : enregistrements, transcriptions et discussions sont alors stockés chiffrés sous la clé de l’entreprise, qui ne disparaît qu’avec elle. La clé maîtresse du serveur (ENCRYPTION_MASTER_KEY) doit rester configurée désormais, sinon l’entreprise ne peut plus téléverser ni rechercher.',
        confirmEncryptionYes: 'Activer définitivement',
        cancel: 'Annuler',
        daysRange: 'Saisissez un nombre entier de jours entre {{min}} et {{max}}, ou laissez vide pour tout conserver',
      },
    },
    et: {
      policies: {
        title: 'Andmepoliitika',
        redaction: 'Kaardinumbrite ja isikuandmete varjamine',
        modes: {
          off: 'Väljas',
          text: 'Varja transkriptsioonis',
          text_audio: 'Varja transkriptsioonis ja vaigista heli',
        },
        redactionHint: 'Kehtib nüüdsest valmivatele transkriptsioonidele (uuesti käivitamine varjab ka vanema)',
        recordingsDays: 'Hoia salvestisi ja transkriptsioone (päeva)',
        chatsDays: 'Hoia vestlusi (päeva)',
        auditDays: 'Hoia auditikirjeid (päeva, vähemalt 365)',
        forever: 'Tühi: igavesti. Igapäevane töö kustutab vanema, välja arvatud see, mida hõlmab õiguslik säilitamine.',
        encryption: 'Krüpteerimine salvestamisel (salvestised)',
        encryptionHint: 'Kord sisse lülitatuna ei saa seda välja lülitada: krüpteeritud salvestised vajavad oma võtit.',
        keepOriginal: 'Hoia varjamata originaali',
        keepOriginalHint:
          'Vajab krüpteerimist salvestamisel (märgi see enne): originaalid salvestatakse krüpteeritult. Originaali saab lugeda ainult ettevõtte ADMIN ja iga lugemine kantakse auditilogisse.',
        save: 'Salvesta poliitika',
        saved: 'Poliitika salvestatud',
        failed: 'Poliitikat ei õnnestunud salvestada',
        loadFailed: 'Poliitikat ei õnnestunud laadida',
        noMasterKey:
          'Pole saadaval: sellel serveril pole ülemvõtit. Operaator määrab igale teenusele ENCRYPTION_MASTER_KEY ja taaskäivitab need kõigepealt.',
        confirmEncryption:
          'Kas lülitada selle ettevõtte andmete krüpteerimine sisse? Seda ei saa enam välja lülitada: salvestised, transkriptsioonid ja vestlused hoitakse siis krüpteerituna ettevõtte võtmega, mis kaob ainult koos ettevõttega. Serveri ülemvõti (ENCRYPTION_MASTER_KEY) peab edaspidi seadistatuks jääma, muidu ei saa ettevõte üles laadida ega otsida.',
        confirmEncryptionYes: 'Lülita jäädavalt sisse',
        cancel: 'Tühista',
        daysRange: 'Sisestage täisarv päevi vahemikus {{min}}–{{max}} või jätke tühjaks, et hoida igavesti',
      },
    },
    lv: {
      policies: {
        title: 'Datu politikas',
        redaction: 'Karšu numuru un personas datu slēpšana',
        modes: { off: 'Izslēgta', text: 'Slēpt transkripcijā', text_audio: 'Slēpt transkripcijā un apklusināt audio' },
        redactionHint: 'Attiecas uz transkripcijām, kas pabeigtas no šī brīža (atkārtota palaišana slēpj arī vecāku)',
        recordingsDays: 'Glabāt ierakstus un transkripcijas (dienas)',
        chatsDays: 'Glabāt tērzēšanas (dienas)',
        auditDays: 'Glabāt audita ierakstus (dienas, vismaz 365)',
        forever: 'Tukšs: mūžīgi. Ikdienas uzdevums dzēš vecāko, izņemot to, ko aptver juridiskā aizturēšana.',
        encryption: 'Šifrēšana glabāšanā (ieraksti)',
        encryptionHint: 'Kad ieslēgta, to vairs nevar izslēgt: šifrētajiem ierakstiem vajag savu atslēgu.',
        keepOriginal: 'Glabāt neslēpto oriģinālu',
        keepOriginalHint:
          'Vajag šifrēšanu glabāšanā (vispirms atzīmējiet to): oriģināli tiek glabāti šifrēti. Oriģinālu var lasīt tikai uzņēmuma ADMIN, un katra lasīšana tiek ierakstīta audita žurnālā.',
        save: 'Saglabāt politikas',
        saved: 'Politikas saglabātas',
        failed: 'Politikas neizdevās saglabāt',
        loadFailed: 'Politikas neizdevās ielādēt',
        noMasterKey:
          'Nav pieejams: šim serverim nav galvenās atslēgas. Operators vispirms iestata ENCRYPTION_MASTER_KEY katram servisam un tos restartē.',
        confirmEncryption:
          'Ieslēgt šī uzņēmuma datu šifrēšanu? To vairs nevarēs izslēgt: ieraksti, transkripcijas un tērzēšanas tiks glabātas šifrētas ar uzņēmuma atslēgu, kas zūd tikai kopā ar uzņēmumu. Servera galvenajai atslēgai (ENCRYPTION_MASTER_KEY) turpmāk jāpaliek iestatītai, citādi uzņēmums nevarēs augšupielādēt vai meklēt.',
        confirmEncryptionYes: 'Ieslēgt neatgriezeniski',
        cancel: 'Atcelt',
        daysRange: 'Ievadiet veselu dienu skaitu no {{min}} līdz {{max}} vai atstājiet tukšu, lai glabātu mūžīgi',
      },
    },
  },
);
