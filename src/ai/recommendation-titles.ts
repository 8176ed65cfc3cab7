/**
 * The titles of the offline model's recommendations, in one place with the rule that keeps them from nesting:
 * implementing a recommendation creates a flow named by its title, so a later title quoting that flow's name
 * whole would read 'Thêm brief mở đầu cho "Thêm brief mở đầu cho "Blog""', one level deeper each time.
 */
const TITLES = {
  sharpen: 'Làm rõ step "{step}" của "{flow}"',
  alternatives: 'Nhiều phương án trong một lần chạy cho step "{step}" của "{flow}"',
  template: 'Tạo template từ {steps}',
  brief: 'Thêm brief mở đầu cho "{flow}"',
  split: 'Tách "{flow}" thành hai flow ngắn hơn',
  review: 'Thêm step review cho "{flow}"',
  builtin: 'Bắt đầu từ template "{flow}"',
} as const;

type TitleKind = keyof typeof TITLES;

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Each title that quotes a flow, as a pattern whose one group is the quoted name. */
const FLOW_TITLES = Object.values(TITLES)
  .filter((title) => title.includes('{flow}'))
  .map(
    (title) =>
      new RegExp(
        `^${escaped(title)
          .replace(escaped('{step}'), '.+')
          .replace(escaped('{steps}'), '.+')
          .replace(escaped('{flow}'), '(.+)')}$`,
        's',
      ),
  );

/**
 * The name a title quotes for a flow: the flow's own name, unless that name is itself one of these titles (the
 * flow was made from a recommendation), in which case the name that title quoted, however deep.
 */
export function flowNameInTitle(name: string): string {
  for (const title of FLOW_TITLES) {
    const quoted = title.exec(name)?.[1];
    if (quoted !== undefined) return flowNameInTitle(quoted);
  }
  return name;
}

/** A recommendation's title; a flow it names is named as `flowNameInTitle` says. */
export function recommendationTitle(
  kind: TitleKind,
  names: { flow?: string; step?: string; steps?: string[] },
): string {
  return TITLES[kind]
    .replace('{flow}', () => flowNameInTitle(names.flow ?? ''))
    .replace('{steps}', () => (names.steps ?? []).map((step) => `"${step}"`).join(', '))
    .replace('{step}', () => names.step ?? '');
}
