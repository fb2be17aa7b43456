// Readable names for the audit log's compliance entries: who placed or lifted a legal
// hold, what retention removed, who read an unredacted original, and who asked for a person's data
// to be exported or erased (and what each service did about it) should read at a glance; the raw
// type stays under the name for filtering. Other types show as they are.
import type { ReactElement } from 'react';
import { defineFeatureCatalogue, useFeatureTranslation } from '../../i18n/feature';

export const LABELLED_TYPES = [
  'file.hold_changed',
  'client.hold_changed',
  'company.hold_changed',
  'retention.applied',
  'transcript.original_read',
  'privacy.export_requested',
  'privacy.part_ready',
  'privacy.erase_requested',
  'privacy.part_erased',
  'privacy.erased',
] as const;
type Labelled = (typeof LABELLED_TYPES)[number];
const KEYS: Record<Labelled, string> = {
  'file.hold_changed': 'fileHold',
  'client.hold_changed': 'clientHold',
  'company.hold_changed': 'companyHold',
  'retention.applied': 'retention',
  'transcript.original_read': 'originalRead',
  'privacy.export_requested': 'exportRequested',
  'privacy.part_ready': 'exportPartReady',
  'privacy.erase_requested': 'eraseRequested',
  'privacy.part_erased': 'erasePartDone',
  'privacy.erased': 'erased',
};

export const catalogue = defineFeatureCatalogue(
  'auditTypes',
  {
    auditTypes: {
      fileHold: 'Recording legal hold changed',
      clientHold: 'Client legal hold changed',
      companyHold: 'Company legal hold changed',
      retention: 'Retention applied',
      originalRead: 'Unredacted original read',
      exportRequested: 'Personal data export requested',
      exportPartReady: 'Export part ready (one service)',
      eraseRequested: 'Personal data erasure requested',
      erasePartDone: 'Erasure part done (one service)',
      erased: 'Personal data erased',
    },
  },
  {
    fr: {
      auditTypes: {
        fileHold: 'Conservation légale d’un enregistrement modifiée',
        clientHold: 'Conservation légale d’un client modifiée',
        companyHold: 'Conservation légale d’une entreprise modifiée',
        retention: 'Durée de conservation appliquée',
        originalRead: 'Original non masqué consulté',
        exportRequested: 'Export de données personnelles demandé',
        exportPartReady: 'Partie de l’export prête (un service)',
        eraseRequested: 'Effacement de données personnelles demandé',
        erasePartDone: 'Partie de l’effacement terminée (un service)',
        erased: 'Données personnelles effacées',
      },
    },
    et: {
      auditTypes: {
        fileHold: 'Salvestise õiguslikku hoidu muudeti',
        clientHold: 'Kliendi õiguslikku hoidu muudeti',
        companyHold: 'Ettevõtte õiguslikku hoidu muudeti',
        retention: 'Säilitustähtaeg rakendati',
        originalRead: 'Varjamata originaali loeti',
        exportRequested: 'Isikuandmete eksporti taotleti',
        exportPartReady: 'Ekspordi osa valmis (üks teenus)',
        eraseRequested: 'Isikuandmete kustutamist taotleti',
        erasePartDone: 'Kustutamise osa tehtud (üks teenus)',
        erased: 'Isikuandmed kustutati',
      },
    },
    lv: {
      auditTypes: {
        fileHold: 'Ieraksta juridiskā aizturēšana mainīta',
        clientHold: 'Klienta juridiskā aizturēšana mainīta',
        companyHold: 'Uzņēmuma juridiskā aizturēšana mainīta',
        retention: 'Glabāšanas termiņš piemērots',
        originalRead: 'Neslēptais oriģināls izlasīts',
        exportRequested: 'Pieprasīts personas datu eksports',
        exportPartReady: 'Eksporta daļa gatava (viens serviss)',
        eraseRequested: 'Pieprasīta personas datu dzēšana',
        erasePartDone: 'Dzēšanas daļa pabeigta (viens serviss)',
        erased: 'Personas dati dzēsti',
      },
    },
  },
);

const isLabelled = (type: string): type is Labelled => (LABELLED_TYPES as readonly string[]).includes(type);

export function TypeLabel({ type }: { type: string }): ReactElement {
  const { t } = useFeatureTranslation(catalogue);
  if (!isLabelled(type)) return <code className="text-xs">{type}</code>;
  return (
    <span className="flex flex-col">
      <span className="text-sm" data-testid="audit-type-label">
        {t(`auditTypes.${KEYS[type]}`)}
      </span>
      <code className="text-xs text-gray-600 dark:text-gray-400">{type}</code>
    </span>
  );
}
