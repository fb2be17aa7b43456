// The companies screen's legal hold strings; the dialog's own are entities/holds/hold-dialog-i18n.ts.
import { defineFeatureCatalogue } from '../../i18n/feature';

export const catalogue = defineFeatureCatalogue(
  'companyHold',
  {
    companyHold: {
      title: 'Legal hold',
      held: 'Nothing of this company can be deleted — recordings, clients, chats or the company itself — until the hold is lifted.',
      notHeld: 'Not held: deletions and retention apply.',
    },
  },
  {
    fr: {
      companyHold: {
        title: 'Conservation légale',
        held: 'Rien de cette entreprise ne peut être supprimé — enregistrements, clients, discussions ni l’entreprise elle-même — tant que la conservation n’est pas levée.',
        notHeld: 'Pas de conservation : les suppressions et la durée de conservation s’appliquent.',
      },
    },
    et: {
      companyHold: {
        title: 'Õiguslik hoid',
        held: 'Selle ettevõtte andmeid — salvestisi, kliente, vestlusi ega ettevõtet ennast — ei saa kustutada enne, kui hoid on lõpetatud.',
        notHeld: 'Hoidu pole: kustutamine ja säilitustähtaeg kehtivad.',
      },
    },
    lv: {
      companyHold: {
        title: 'Juridiskā aizturēšana',
        held: 'Neko no šī uzņēmuma — ierakstus, klientus, sarunas vai pašu uzņēmumu — nevar dzēst, kamēr aizturēšana nav atcelta.',
        notHeld: 'Nav aizturēts: dzēšana un glabāšanas termiņš darbojas.',
      },
    },
  },
);
