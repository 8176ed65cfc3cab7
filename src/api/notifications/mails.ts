/**
 * The mails the workbench sends, one template each: a subject, a plain-text body and a simple HTML body,
 * in the product's words (Vietnamese first, English after). A template gets only what it shows; the job that
 * sends it carries the template's name and these values.
 */

export interface Mail {
  subject: string;
  text: string;
  html: string;
}

export interface MailTemplates {
  /** An invitation to a workspace: the link accepts it. */
  invitation: { workspaceName: string; role: string; acceptUrl: string; expiresAt: string };
}

export type MailTemplate = keyof MailTemplates;

/** What a mail job carries: to whom, which template, with which values. */
export type MailJob = {
  [T in MailTemplate]: { to: string; template: T; values: MailTemplates[T] };
}[MailTemplate];

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** A mail of paragraphs and one link: the same words in the text and the HTML body. */
function mailOf(subject: string, paragraphs: string[], link: { label: string; url: string }): Mail {
  const text = [...paragraphs, `${link.label}: ${link.url}`, '', '— Prompt-flow workbench'].join('\n\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">',
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>`,
    `<p style="color:#666;font-size:12px">${escapeHtml(link.url)}</p>`,
    '<p style="color:#666">— Prompt-flow workbench</p>',
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}

const templates: { [T in MailTemplate]: (values: MailTemplates[T]) => Mail } = {
  invitation: ({ workspaceName, role, acceptUrl, expiresAt }) =>
    mailOf(
      `Lời mời vào workspace "${workspaceName}" / Invitation to "${workspaceName}"`,
      [
        `Bạn được mời vào workspace "${workspaceName}" với vai trò ${role}. Lời mời có hạn đến ${expiresAt}.`,
        `You are invited to the workspace "${workspaceName}" as ${role}. The invitation is valid until ${expiresAt}.`,
      ],
      { label: 'Nhận lời mời / Accept the invitation', url: acceptUrl },
    ),
};

/** The mail a job asks for. */
export function renderMail(job: MailJob): Mail {
  const render = templates[job.template] as (values: MailJob['values']) => Mail;
  return render(job.values);
}
