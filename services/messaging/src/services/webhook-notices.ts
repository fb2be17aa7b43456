import type { EmailLanguage, EventOf } from '@earshot/contracts';
import type { Db } from '@earshot/kit';
import * as directory from '../repositories/directory';
import { insertNotifications } from '../repositories/notifications';
import type { MailService } from './mail/mail';
import { personVariables } from './mail/notifications';

/** Where an ADMIN turns the endpoint on again. */
const WEBHOOKS_PATH = '/webhooks';

const TEXTS: Record<EmailLanguage, { title: string; body: string }> = {
  en: {
    title: 'A webhook was turned off',
    body: 'Every delivery to {url} failed for 5 days. Fix the receiver, then turn the endpoint on again.',
  },
  fr: {
    title: 'Un webhook a été désactivé',
    body: 'Tous les envois vers {url} ont échoué pendant 5 jours. Réparez le destinataire puis réactivez le point de terminaison.',
  },
  et: {
    title: 'Veebihaak lülitati välja',
    body: 'Kõik saadetised aadressile {url} ebaõnnestusid 5 päeva jooksul. Paranda vastuvõtja ja lülita lõpp-punkt uuesti sisse.',
  },
  lv: {
    title: 'Tīmekļa āķis tika izslēgts',
    body: 'Visi sūtījumi uz {url} 5 dienas neizdevās. Salabojiet saņēmēju un ieslēdziet galapunktu vēlreiz.',
  },
};

/**
 * webhook_endpoint.disabled (the webhooks service turned an endpoint off after 5 days of failed
 * deliveries): the company's ADMINs are told, in the app and by mail, in the company's language.
 */
export class WebhookDisabledNotices {
  constructor(private readonly mail: MailService) {}

  async apply(tx: Db, event: EventOf<'webhook_endpoint.disabled'>): Promise<void> {
    const companyId = event.companyId;
    if (!companyId) return;
    const company = await directory.findCompany(tx, companyId);
    const admins = await directory.peopleWithRole(tx, companyId, ['ADMIN']);
    const language = (company?.language && company.language in TEXTS ? company.language : 'en') as EmailLanguage;
    const text = TEXTS[language];
    await insertNotifications(
      tx,
      admins.map((admin) => ({
        userId: admin.userId,
        companyId,
        kind: 'webhook_disabled' as const,
        title: text.title,
        body: text.body.replace('{url}', event.data.url),
        link: WEBHOOKS_PATH,
      })),
    );
    for (const admin of admins) {
      await this.mail.queue(tx, {
        companyId,
        type: 'webhook_disabled',
        to: admin.email,
        userId: admin.userId,
        path: WEBHOOKS_PATH,
        variables: {
          ...personVariables(admin),
          'webhook.url': event.data.url,
          reason: event.data.lastError ?? '—',
        },
      });
    }
  }
}
