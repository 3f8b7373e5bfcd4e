/** Offsets of the starts of the lines of `text` (lines end at `\n`; a `\r` before it stays in its line). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

/**
 * The 1-based line of an offset of `text`, by binary search over the line starts (found once): asking it for each of
 * many offsets costs a logarithm each, not a pass over the text before the offset.
 */
export function lineIndex(text: string): (offset: number) => number {
  const starts = lineStarts(text);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((starts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };
}
