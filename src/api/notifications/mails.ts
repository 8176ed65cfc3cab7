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
  /** A step's results wait for the reader's review: the link opens the run at the step. */
  reviewRequested: ReviewMailValues & { note: string | null };
  /** The review is still waiting at its due time. */
  reviewReminder: ReviewMailValues;
  /** The step's review rule changed while the review waited: the review still asks them, as it was asked. */
  reviewRuleChanged: ReviewMailValues;
  /**
   * The review went to the workspace's owners: it was due (`due`), a person it named left (`member-left`), or
   * fewer people may decide it than it needs (`too-few-deciders`).
   */
  reviewEscalated: ReviewMailValues & { reason: 'due' | 'member-left' | 'too-few-deciders' };
  /** Back to the runner: the review was approved, rejected (with the reason) or expired. */
  reviewDecided: ReviewMailValues & {
    outcome: 'approved' | 'rejected' | 'expired';
    decidedBy: string | null;
    reason: string | null;
  };
}

/** What every review mail shows: the flow, the step, who asked, when it is due, and the link to the step. */
export interface ReviewMailValues {
  flowName: string;
  stepName: string;
  requestedBy: string;
  dueAt: string | null;
  link: string;
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
        `Bạn được mời vào workspace "${workspaceName}" với vai trò ${role}. Lời mời có hạn đến ${mailTime(expiresAt)}.`,
        `You are invited to the workspace "${workspaceName}" as ${role}. The invitation is valid until ${mailTime(expiresAt)}.`,
      ],
      { label: 'Nhận lời mời / Accept the invitation', url: acceptUrl },
    ),
  reviewRequested: ({ flowName, stepName, requestedBy, dueAt, note, link }) =>
    mailOf(
      `Cần bạn duyệt: ${stepName} · ${flowName} / Review requested`,
      [
        `${requestedBy} cần bạn duyệt (review) kết quả của step "${stepName}" trong flow "${flowName}".`,
        `${requestedBy} asks you to review the results of the step "${stepName}" of "${flowName}".`,
        ...(note ? [`"${note}"`] : []),
        ...dueLine(dueAt),
      ],
      { label: 'Mở step để duyệt / Open the step', url: link },
    ),
  reviewReminder: ({ flowName, stepName, requestedBy, dueAt, link }) =>
    mailOf(
      `Nhắc: ${stepName} · ${flowName} vẫn chờ duyệt / Reminder: review waiting`,
      [
        `Step "${stepName}" trong flow "${flowName}" (yêu cầu bởi ${requestedBy}) vẫn đang chờ bạn duyệt.`,
        `The step "${stepName}" of "${flowName}" (asked by ${requestedBy}) is still waiting for your review.`,
        ...dueLine(dueAt),
      ],
      { label: 'Mở step để duyệt / Open the step', url: link },
    ),
  reviewRuleChanged: ({ flowName, stepName, requestedBy, link }) =>
    mailOf(
      `Quy tắc review đã đổi: ${stepName} · ${flowName} / Review rule changed`,
      [
        `Owner của workspace đã đổi quy tắc review của step "${stepName}" trong flow "${flowName}". Review đang chờ bạn (yêu cầu bởi ${requestedBy}) vẫn giữ như lúc được yêu cầu; các lần chạy sau sẽ theo quy tắc mới.`,
        `An owner changed the review rule of the step "${stepName}" of "${flowName}". The review waiting for you (asked by ${requestedBy}) stays as it was asked; later runs follow the new rule.`,
      ],
      { label: 'Mở step để duyệt / Open the step', url: link },
    ),
  reviewEscalated: ({ flowName, stepName, requestedBy, reason, link }) =>
    mailOf(
      `Chuyển lên owner: ${stepName} · ${flowName} / Review escalated to you`,
      [
        {
          due: `Review của step "${stepName}" trong flow "${flowName}" (yêu cầu bởi ${requestedBy}) đã quá hạn và được chuyển lên owner của workspace.`,
          'member-left': `Một người duyệt step "${stepName}" trong flow "${flowName}" đã rời workspace; review được chuyển cho owner.`,
          'too-few-deciders': `Review của step "${stepName}" trong flow "${flowName}" (yêu cầu bởi ${requestedBy}) không còn đủ người có thể duyệt; review được chuyển cho owner.`,
        }[reason],
        {
          due: `The review of "${stepName}" of "${flowName}" (asked by ${requestedBy}) is past its due time: as an owner of the workspace you may decide it.`,
          'member-left': `A reviewer of "${stepName}" of "${flowName}" left the workspace: as an owner you may decide it in their place.`,
          'too-few-deciders': `Fewer people may decide the review of "${stepName}" of "${flowName}" (asked by ${requestedBy}) than it needs: as an owner you may decide it.`,
        }[reason],
      ],
      { label: 'Mở step để duyệt / Open the step', url: link },
    ),
  reviewDecided: ({ flowName, stepName, outcome, decidedBy, reason, link }) => {
    const who = decidedBy ?? 'hạn duyệt / the due time';
    const vi = {
      approved: `Step "${stepName}" trong flow "${flowName}" đã được approve bởi ${who}.`,
      rejected: `Step "${stepName}" trong flow "${flowName}" bị từ chối bởi ${who}: hãy sửa hoặc chạy lại.`,
      expired: `Review của step "${stepName}" trong flow "${flowName}" đã hết hạn: step trở lại với bạn.`,
    }[outcome];
    const en = {
      approved: `The step "${stepName}" of "${flowName}" was approved by ${who}; the run can go on.`,
      rejected: `The step "${stepName}" of "${flowName}" was rejected by ${who}: edit it or run it again.`,
      expired: `The review of "${stepName}" of "${flowName}" expired at its due time: the step is back with you.`,
    }[outcome];
    return mailOf(
      `${{ approved: 'Đã approve', rejected: 'Bị từ chối', expired: 'Hết hạn duyệt' }[outcome]}: ${stepName} · ${flowName}`,
      [vi, en, ...(reason ? [`Lý do / Reason: ${reason}`] : [])],
      { label: 'Mở step / Open the step', url: link },
    );
  },
};

/** The due time, when there is one. */
const dueLine = (dueAt: string | null) => (dueAt ? [`Hạn / Due: ${mailTime(dueAt)}`] : []);

const twoDigits = (n: number) => String(n).padStart(2, '0');

/**
 * A moment as a mail says it to a reader whose time zone the server does not know: day/month/year and the
 * hour, in UTC, saying so ('28/11/2026 14:30 (UTC)'). Text that is not a moment is left as it is.
 */
export function mailTime(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const day = `${twoDigits(at.getUTCDate())}/${twoDigits(at.getUTCMonth() + 1)}/${at.getUTCFullYear()}`;
  return `${day} ${twoDigits(at.getUTCHours())}:${twoDigits(at.getUTCMinutes())} (UTC)`;
}

/** The mail a job asks for. */
export function renderMail(job: MailJob): Mail {
  const render = templates[job.template] as (values: MailJob['values']) => Mail;
  return render(job.values);
}
