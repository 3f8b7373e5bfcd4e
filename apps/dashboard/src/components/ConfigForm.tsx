import { AUTOMERGE_RULES, LIVE_PACKAGE_MANAGERS, PACKAGE_MANAGERS, UPDATE_SCHEDULES } from '@switchyard/contracts/vocabulary';
import type { NewUpdateConfig, UpdateConfigResource } from '../api/endpoints.ts';
import { useForm } from '../hooks.ts';
import { ErrorMessage, fieldErrors } from './common.tsx';
import { SelectField, TextField } from './fields.tsx';

/** What the form edits: the seed's attributes of an update config (`POST /update_configs`). */
interface Values {
  'package-manager': string;
  'update-schedule': string;
  directory: string;
  'target-branch': string;
  'automerge-rule-runtime-deps': string;
  'automerge-rule-development-deps': string;
  'lockfile-only': boolean;
  'security-updates-only': boolean;
}

const valuesOf = (config: UpdateConfigResource | undefined): Values => ({
  'package-manager': config?.attributes['package-manager'] ?? 'npm_and_yarn',
  'update-schedule': config?.attributes['update-schedule'] ?? 'daily',
  directory: config?.attributes.directory ?? '/',
  'target-branch': config?.attributes['target-branch'] ?? '',
  'automerge-rule-runtime-deps': config?.attributes['automerge-rule-runtime-deps'] ?? 'never',
  'automerge-rule-development-deps': config?.attributes['automerge-rule-development-deps'] ?? 'never',
  'lockfile-only': config?.attributes['lockfile-only'] ?? false,
  'security-updates-only': config?.attributes['security-updates-only'] ?? false,
});

/**
 * Creates a config (no `config`) or changes one. The package manager and directory are a config's identity and cannot
 * change (the API's `PATCH` ignores them). The API validates: its messages are shown under the fields they are about.
 */
export function ConfigForm({
  idPrefix,
  config,
  onSubmit,
  onCancel,
}: {
  idPrefix: string;
  config?: UpdateConfigResource;
  onSubmit: (attributes: NewUpdateConfig) => Promise<void>;
  onCancel?: () => void;
}) {
  const { values, setValues, set, error, busy, submitWith } = useForm<Values>(() => valuesOf(config));
  const id = (name: string) => `${idPrefix}-${name}`;
  const liveOffered = (LIVE_PACKAGE_MANAGERS as readonly string[]).includes(values['package-manager']);

  const submit = submitWith(async () => {
    await onSubmit({
      'update-schedule': values['update-schedule'],
      'target-branch': values['target-branch'].trim() === '' ? null : values['target-branch'].trim(),
      'automerge-rule-runtime-deps': values['automerge-rule-runtime-deps'],
      'automerge-rule-development-deps': values['automerge-rule-development-deps'],
      'lockfile-only': values['lockfile-only'],
      'security-updates-only': values['security-updates-only'],
      ...(config ? {} : { 'package-manager': values['package-manager'], directory: values.directory }),
    });
    if (!config) setValues(() => valuesOf(undefined));
  });

  const select = (
    name: Exclude<keyof Values, 'lockfile-only' | 'security-updates-only'>,
    label: string,
    options: readonly string[],
    disabled = false,
  ) => (
    <SelectField
      id={id(name)}
      label={label}
      disabled={disabled}
      errors={fieldErrors(error, `/${name}`)}
      options={options}
      value={values[name]}
      onValue={(value) => set(name, value)}
    />
  );

  return (
    <form onSubmit={submit} aria-label={config ? `Edit update config ${config.id}` : 'New update config'}>
      <div class="row">
        {select('package-manager', 'Package manager', PACKAGE_MANAGERS, config !== undefined)}
        <TextField
          id={id('directory')}
          label="Directory"
          hint="Where the manifest is, from the repo's root"
          required
          disabled={config !== undefined}
          errors={fieldErrors(error, '/directory')}
          value={values.directory}
          onValue={(value) => set('directory', value)}
        />
        {select('update-schedule', 'Update schedule', UPDATE_SCHEDULES)}
        <TextField
          id={id('target-branch')}
          label="Target branch"
          hint="Empty: the repo's default branch"
          errors={fieldErrors(error, '/target-branch')}
          value={values['target-branch']}
          onValue={(value) => set('target-branch', value)}
        />
      </div>
      {!liveOffered && values['update-schedule'] === 'live' && (
        <p class="hint">live is not offered for {values['package-manager']}: the API will say why.</p>
      )}
      <div class="row">
        {select('automerge-rule-runtime-deps', 'Automerge, runtime dependencies', AUTOMERGE_RULES)}
        {select('automerge-rule-development-deps', 'Automerge, development dependencies', AUTOMERGE_RULES)}
      </div>
      <div class="check">
        <input
          id={id('lockfile-only')}
          type="checkbox"
          checked={values['lockfile-only']}
          onChange={(event) => set('lockfile-only', event.currentTarget.checked)}
        />
        <label for={id('lockfile-only')}>Lockfile only</label>
      </div>
      <div class="check">
        <input
          id={id('security-updates-only')}
          type="checkbox"
          checked={values['security-updates-only']}
          onChange={(event) => set('security-updates-only', event.currentTarget.checked)}
        />
        <label for={id('security-updates-only')}>Security updates only</label>
      </div>
      <ErrorMessage error={error} />
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : config ? 'Save config' : 'Create config'}
        </button>
        {onCancel && (
          <button type="button" class="secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
