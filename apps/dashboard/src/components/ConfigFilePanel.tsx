import type { RepoResource } from '../api/endpoints.ts';

/**
 * What the repo's config file says, from the repo resource's `config-file`: which file governs the repo's update
 * configs, whether it is valid (with each problem and its JSON pointer; an invalid file leaves the previous configs in
 * use), the entries that were read and not used, and the other config files that were ignored, each with why.
 */
export function ConfigFilePanel({ file }: { file: NonNullable<RepoResource['attributes']['config-file']> }) {
  return (
    <section class="card" aria-labelledby="config-file">
      <h2 id="config-file">Config file</h2>
      <p>
        The update configs of this repo come from <code>{file.path}</code>
        {file.version === null ? '' : ` (version ${file.version})`} on its default branch: change them there.
      </p>
      {file.valid ? (
        <p class="muted">The file is valid.</p>
      ) : (
        <>
          <p role="alert">
            <strong>Your {file.path} contained invalid details.</strong> The previous setup stays in use until it is fixed.
          </p>
          <ul>
            {file.problems.map((problem) => (
              <li key={`${problem.pointer} ${problem.message}`}>
                <code>{problem.pointer}</code> {problem.message}
              </li>
            ))}
          </ul>
        </>
      )}
      {file.skipped.length > 0 && (
        <>
          <h3>Read and not used</h3>
          <ul>
            {file.skipped.map((entry) => (
              <li key={`${entry.pointer} ${entry.reason}`}>
                <code>{entry.pointer}</code> {entry.reason}
              </li>
            ))}
          </ul>
        </>
      )}
      {file['ignored-files'].length > 0 && (
        <>
          <h3>Ignored files</h3>
          <ul>
            {file['ignored-files'].map((entry) => (
              <li key={entry.path}>
                <code>{entry.path}</code> {entry.reason}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
