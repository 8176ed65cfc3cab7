/** Joins the class names that apply; falsy entries are conditions that did not hold. */
export function classNames(...parts: Array<string | false | null | undefined>): string {
  return parts.filter(Boolean).join(' ');
}
