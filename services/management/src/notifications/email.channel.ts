import nodemailer, { type Transporter } from 'nodemailer';
import type { ManagementConfig } from '../config/management-config';
import { PermanentDeliveryError, type DeliveryChannel, type OutboundNotification } from './delivery-channel';

export interface EmailChannelSettings {
  /** smtp:// or smtps:// with credentials, as nodemailer reads it (SMTP_URL). */
  smtpUrl: string;
  /** SMTP_FROM, e.g. `Trackline <noreply@example.com>`. */
  from: string;
  /** Each SMTP phase (connect, greeting, socket idle) gives up after this long. */
  timeoutMs: number;
}

/** E-mail over SMTP with nodemailer (docs/notifications.md, Settings). */
/**
 * The e-mail channel the configuration asks for, or null when SMTP_URL is unset: the worker and
 * `reports:send` build it the same way. A send may take half the lease, so a row is never taken over
 * while its e-mail is still being handed to the server (docs/notifications.md).
 */
export function configuredEmailChannel(
  config: Pick<ManagementConfig, 'smtpUrl' | 'smtpFrom' | 'notifications'>,
): EmailChannel | null {
  if (config.smtpUrl === undefined) return null;
  return new EmailChannel({
    smtpUrl: config.smtpUrl,
    from: config.smtpFrom,
    timeoutMs: Math.floor(config.notifications.leaseMs / 2),
  });
}

export class EmailChannel implements DeliveryChannel {
  private readonly transport: Transporter;
  private readonly messageIdDomain: string;

  constructor(private readonly settings: EmailChannelSettings) {
    this.transport = nodemailer.createTransport(settings.smtpUrl, {
      connectionTimeout: settings.timeoutMs,
      greetingTimeout: settings.timeoutMs,
      socketTimeout: settings.timeoutMs,
    });
    this.messageIdDomain = messageIdDomain(settings.from);
  }

  async deliver(notification: OutboundNotification, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    try {
      await this.transport.sendMail({
        from: this.settings.from,
        to: notification.recipient,
        subject: notification.subject ?? '',
        text: notification.text,
        messageId: emailMessageId(notification.deliveryKey, this.messageIdDomain),
        headers: { 'X-Trackline-Notification': notification.deliveryKey },
        ...(notification.html === undefined ? {} : { html: notification.html }),
        attachments: [
          ...(notification.attachment === undefined
            ? []
            : [
                {
                  filename: notification.attachment.filename,
                  contentType: notification.attachment.contentType,
                  content: notification.attachment.content,
                },
              ]),
          ...(notification.attachments ?? []),
        ],
      });
    } catch (error) {
      // 5xx is the server's final word on this message (bad mailbox, refused); 4xx and network
      // errors are worth another try.
      const code = (error as { responseCode?: number }).responseCode;
      if (code !== undefined && code >= 500) throw new PermanentDeliveryError((error as Error).message);
      throw error;
    }
  }

  close(): void {
    this.transport.close();
  }
}

/** The same Message-ID for every attempt of one outbox row, so a redelivery is a recognisable duplicate. */
export function emailMessageId(deliveryKey: string, domain: string): string {
  return `<notification-${deliveryKey}@${domain}>`;
}

function messageIdDomain(from: string): string {
  return /@([^>\s]+)/.exec(from)?.[1] ?? 'trackline.invalid';
}
