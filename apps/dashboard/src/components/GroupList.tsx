import type { UpdateConfigResource } from '../api/endpoints.ts';

/** One dependency group of a config, as the `update-configs` resource lists it (`groups`, this service's extension). */
type Group = UpdateConfigResource['attributes']['groups'][number];

/**
 * How a config groups its updates, read-only, in matching order (a dependency joins the first group it matches): each
 * group's name, patterns, excluded patterns, dependency type and update types, and `security updates` when it applies to
 * those. Nothing when the config has no groups. A config file's groups change in the file; an API config's through
 * `PATCH /update_configs/{id}` with `groups`.
 */
export function GroupList({ groups }: { groups: Group[] }) {
  if (groups.length === 0) return null;
  return (
    <>
      <h4>Groups</h4>
      <ul class="groups">
        {groups.map((group) => (
          <li key={group.name}>
            <code>{group.name}</code>: {group.patterns.join(', ')}
            {group['exclude-patterns'].length > 0 && <> excluding {group['exclude-patterns'].join(', ')}</>}{' '}
            <span class="muted">
              {group['dependency-type'] ?? 'all'} dependencies, {group['update-types'].join(', ')}
              {group['applies-to'] === 'security-updates' && ', security updates'}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}
