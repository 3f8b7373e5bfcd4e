import { Fragment } from 'preact';
import { breakPoints, splitText } from '../text.ts';

/**
 * A commit SHA shown as its first 7 characters. The whole SHA stays in the page, clipped (see `.sha` in the styles):
 * its tooltip shows it, a double click selects it and copying takes all of it, and the browser's find finds it.
 */
export function Sha({ sha }: { sha: string }) {
  return (
    <code class="sha" title={sha}>
      <span>{sha}</span>
    </code>
  );
}

/**
 * A text from the API (a version, a reason) with any full SHA in it shown short, and its long words breakable; `—` when
 * there is none.
 */
export function Text({ value }: { value: string | null | undefined }) {
  if (value === null || value === undefined || value === '') return <>—</>;
  const pieces = splitText(value);
  if (pieces.length === 1 && 'text' in (pieces[0] as object)) return <>{value}</>;
  return (
    <>
      {pieces.map((piece, index) => (
        <Fragment key={index}>
          {'sha' in piece ? <Sha sha={piece.sha} /> : 'name' in piece ? <Name value={piece.name} /> : piece.text}
        </Fragment>
      ))}
    </>
  );
}

/** A long name (a dependency, a repo, a URL) that may wrap after its separators rather than widen its column. */
export function Name({ value }: { value: string }) {
  const parts = breakPoints(value);
  if (parts.length === 1) return <>{value}</>;
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
