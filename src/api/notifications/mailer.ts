import nodemailer, { type Transporter } from 'nodemailer';
import { mailTried } from '../telemetry/metrics';
import { traceDelivery } from '../telemetry/spans';
import { type MailJob, renderMail } from './mails';

/** Sends a rendered mail through SMTP_URL; each send opens its own connection (a queue worker sends few). */
export class Mailer {
  private readonly transport: Transporter;
  /** The SMTP server's host, as the mail spans name it. */
  private readonly host: string;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    // Timeouts in the URL's terms (nodemailer reads them from its query): a server that does not answer
    // fails the try, and the job is retried.
    const url = new URL(smtpUrl);
    this.host = url.hostname;
    for (const [name, ms] of [
      ['connectionTimeout', '10000'],
      ['greetingTimeout', '10000'],
      ['socketTimeout', '30000'],
    ] as const) {
      if (!url.searchParams.has(name)) url.searchParams.set(name, ms);
    }
    this.transport = nodemailer.createTransport(url.toString());
  }

  /** Throws when the SMTP server does not take the mail: the job fails and is retried. */
  async send(job: MailJob) {
    const mail = renderMail(job);
    // Who it goes to is not in the span.
    await traceDelivery('mail send', { 'server.address': this.host }, () =>
      this.transport.sendMail({ from: this.from, to: job.to, ...mail }),
    ).then(
      () => mailTried(true),
      (error) => {
        mailTried(false);
        throw error;
      },
    );
  }

  close() {
    this.transport.close();
  }
}
