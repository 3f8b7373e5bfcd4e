import { type ComponentChildren, Fragment } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { ApiError, problemText } from '../api/client.ts';
import { describeLoadError } from '../errors.ts';
import { meaningOf, VOCABULARIES, type Vocabulary } from '../labels.ts';

/** Whether a view has been shown since the page loaded (the first one leaves the focus where the browser put it). */
let shownBefore = false;

/**
 * A view's heading, which sets the document's title. When the dashboard moves from one view to another it takes the
 * keyboard focus, so a screen reader announces the new view and Tab continues from the top of it, as after a page
 * load; the first view after a real page load leaves the focus alone (Tab starts at the skip link).
 */
export function PageTitle({ children, title }: { children: ComponentChildren; title: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · switchyard`;
    if (shownBefore) heading.current?.focus();
    shownBefore = true;
  }, [title]);
  return (
    <h1 ref={heading} tabIndex={-1}>
      {children}
    </h1>
  );
}

/** The API's message(s) for a failed request, announced to screen readers; nothing when `error` is undefined. */
export function ErrorMessage({ error }: { error: unknown }) {
  if (error === undefined || error === null) return null;
  const lines = error instanceof ApiError ? error.problems.map(problemText) : [error instanceof Error ? error.message : String(error)];
  return (
    <div class="error" role="alert">
      {lines.length === 1 ? (
        <p>{lines[0]}</p>
      ) : (
        <ul>
          {lines.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * A view's (or a part's) failed load: what could not be loaded and why, in words, announced at once (`role="alert"`),
 * with a Retry button that loads again. While the retry is under way the button says so; when it succeeds the message
 * goes and the focus moves to the view's heading (it was on the button, which is gone); when it fails again the
 * message says how many tries failed, which is announced too.
 */
export function LoadError({ what, error, busy = false, onRetry }: { what: string; error: unknown; busy?: boolean; onRetry: () => void }) {
  const id = useId();
  const [failures, setFailures] = useState(0);
  const retried = useRef(false);
  const failing = error !== undefined && error !== null;
  // Each new error is one more failed try; none: the load succeeded.
  useEffect(() => {
    if (failing) {
      setFailures((n) => n + 1);
      return;
    }
    setFailures(0);
    if (retried.current) {
      retried.current = false;
      if (!document.activeElement || document.activeElement === document.body) document.querySelector<HTMLElement>('main h1')?.focus();
    }
  }, [error]);
  if (!failing) return null;
  const retry = () => {
    retried.current = true;
    onRetry();
  };
  return (
    <div class="error load-error" role="alert">
      <p id={id}>
        <strong>
          Could not load {what}
          {failures > 1 ? ` (${failures} tries failed)` : ''}.
        </strong>{' '}
        {describeLoadError(error)}
      </p>
      <button type="button" aria-describedby={id} onClick={retry}>
        {busy ? 'Retrying…' : 'Retry'}
      </button>
    </div>
  );
}

/** "Loading…", announced politely. */
export function Loading({ what }: { what: string }) {
  return (
    <p class="muted" role="status">
      Loading {what}…
    </p>
  );
}

/**
 * A word of one of the API's vocabularies (`of`) as a label: the API's word, coloured and bordered by its tone (colour
 * never carries the meaning alone: the word is there), its meaning in its tooltip and in the {@link Glossary}.
 */
export function Status({ value, of }: { value: string; of: Vocabulary }) {
  const { tone, meaning } = meaningOf(of, value);
  return (
    <span class={`status status-${value} tone-${tone}`} title={meaning}>
      {value}
    </span>
  );
}

/** What each word of a vocabulary means, behind a disclosure beside the table that shows them. */
export function Glossary({ summary, of }: { summary: string; of: Vocabulary }) {
  return (
    <details class="glossary">
      <summary>{summary}</summary>
      <dl>
        {Object.entries(VOCABULARIES[of]).map(([value, { meaning }]) => (
          <Fragment key={value}>
            <dt>
              <Status value={value} of={of} />
            </dt>
            <dd>{meaning}</dd>
          </Fragment>
        ))}
      </dl>
    </details>
  );
}

/** Previous / next page buttons for the API's numbered pages. */
export function Pager({ page, next, onPage, label }: { page: number; next: number | null; onPage: (page: number) => void; label: string }) {
  if (page === 1 && next === null) return null;
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous page
      </button>
      <span>Page {page}</span>
      <button type="button" disabled={next === null} onClick={() => next !== null && onPage(next)}>
        Next page
      </button>
    </nav>
  );
}

/** The API's messages about one body member (`/directory`), shown under its input. */
export function fieldErrors(error: unknown, pointer: string): string[] {
  return error instanceof ApiError ? error.forField(pointer).map((problem) => problem.detail ?? problem.title) : [];
}

/** A labelled form control with the API's messages about it, tied together for assistive technology. */
export function Field({
  id,
  label,
  hint,
  errors = [],
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  errors?: string[];
  children: (describedBy: string | undefined, invalid: boolean) => ComponentChildren;
}) {
  const described = [hint ? `${id}-hint` : '', errors.length > 0 ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class={`field${errors.length > 0 ? ' field-invalid' : ''}`}>
      <label for={id}>{label}</label>
      {hint && (
        <p id={`${id}-hint`} class="hint">
          {hint}
        </p>
      )}
      {children(described, errors.length > 0)}
      {errors.length > 0 && (
        <p id={`${id}-error`} class="field-error">
          {errors.join('; ')}
        </p>
      )}
    </div>
  );
}
