/** A text on one line, cut to at most `length` characters with an ellipsis when it is longer. */
export const excerptOf = (text: string, length: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= length ? flat : `${flat.slice(0, length - 1).trimEnd()}…`;
};
