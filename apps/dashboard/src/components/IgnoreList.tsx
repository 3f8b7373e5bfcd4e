import type { UpdateConfigResource } from '../api/endpoints.ts';

/** One ignore of a config, as the `update-configs` resource lists it. */
type Ignore = UpdateConfigResource['attributes']['ignores'][number];

/** Where an ignore comes from, in words. */
function sourceText(ignore: Ignore): string {
  if (ignore.source === 'command') return `a comment${ignore['created-by'] ? ` by ${ignore['created-by']}` : ''}`;
  if (ignore.source === 'closed-pull-request') return `a pull request closed${ignore['created-by'] ? ` by ${ignore['created-by']}` : ''}`;
  return ignore.source;
}

/**
 * What a config does not propose: each ignore with its versions (every version when none) and where it comes from; those
 * made on the code host (a comment, a closed pull request) can be removed here, a config file's only in the file.
 */
export function IgnoreList({ ignores, onRemove }: { ignores: Ignore[]; onRemove: (ignore: Ignore) => void }) {
  if (ignores.length === 0) return null;
  return (
    <>
      <h4>Ignored</h4>
      <ul class="ignores">
        {ignores.map((ignore) => (
          <li key={`${ignore.source} ${ignore.id ?? ignore['dependency-name']} ${ignore.versions.join(' ')}`}>
            <code>{ignore['dependency-name']}</code>{' '}
            {ignore.versions.length === 0 && ignore['update-types'].length === 0
              ? 'every version'
              : [...ignore.versions, ...ignore['update-types']].join(', ')}{' '}
            <span class="muted">from {sourceText(ignore)}</span>{' '}
            {ignore.id !== null && (
              <button type="button" class="secondary" onClick={() => onRemove(ignore)}>
                Remove
              </button>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
