// The header's bell and cap strings, shipped in their lazy chunk (see i18n/feature.ts).
import { defineFeatureCatalogue } from '../../i18n/feature';

export const catalogue = defineFeatureCatalogue(
  'headerCredits',
  {
    bell: {
      label: 'Notifications',
      labelUnread: 'Notifications, {{count}} unread',
      none: 'No notifications',
      markAll: 'Mark all as read',
      unread: 'Unread',
      seeAll: 'See all',
      email: 'E-mail',
    },
    cap: {
      left: '{{remaining}} credits left',
      title: 'Your monthly cap: {{remaining}} of {{cap}} credits left this month',
    },
  },
  {
    fr: {
      bell: {
        label: 'Notifications',
        labelUnread: 'Notifications, {{count}} non lues',
        none: 'Aucune notification',
        markAll: 'Tout marquer comme lu',
        unread: 'Non lue',
        seeAll: 'Tout voir',
        email: 'E-mail',
      },
      cap: {
        left: '{{remaining}} crédits restants',
        title: 'Votre plafond mensuel : il reste {{remaining}} crédits sur {{cap}} ce mois-ci',
      },
    },
    et: {
      bell: {
        label: 'Teavitused',
        labelUnread: 'Teavitused, {{count}} lugemata',
        none: 'Teavitusi pole',
        markAll: 'Märgi kõik loetuks',
        unread: 'Lugemata',
        seeAll: 'Vaata kõiki',
        email: 'E-kiri',
      },
      cap: {
        left: '{{remaining}} krediiti alles',
        title: 'Sinu kuulimiit: sel kuul on {{cap}} krediidist alles {{remaining}}',
      },
    },
    lv: {
      bell: {
        label: 'Paziņojumi',
        labelUnread: 'Paziņojumi, {{count}} nelasīti',
        none: 'Paziņojumu nav',
        markAll: 'Atzīmēt visu kā lasītu',
        unread: 'Nelasīts',
        seeAll: 'Skatīt visus',
        email: 'E-pasts',
      },
      cap: {
        left: 'Atlikuši {{remaining}} kredīti',
        title: 'Jūsu mēneša limits: šomēnes atlikuši {{remaining}} no {{cap}} kredītiem',
      },
    },
  },
);
