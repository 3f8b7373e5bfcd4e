import type { PackageManager } from '@switchyard/contracts';

/**
 * The files whose presence makes a directory one of each package manager's, as Dependabot looked for them: a list of
 * alternatives per entry (at least one file of each inner list must exist in the directory), paths relative to it, `*`
 * matching within one path segment (`shared/files.ts`' `matchesFilePattern`). Each ecosystem's `files.required` is its
 * entry here; this module imports nothing heavier than the contracts' types, so a caller that only checks a directory
 * (config-svc, through `@switchyard/ecosystems/files`) does not load the parsers and resolvers.
 */
export const REQUIRED_FILES: Readonly<Record<PackageManager, readonly (readonly string[])[]>> = Object.freeze({
  npm_and_yarn: [['package.json']],
  pip: [
    [
      'requirements.txt',
      'pyproject.toml',
      'Pipfile',
      'setup.py',
      'setup.cfg',
      'requirements.in',
      '*.txt',
      '*.in',
      'requirements/*.txt',
      'requirements/*.in',
    ],
  ],
  maven: [['pom.xml']],
  gradle: [['build.gradle', 'build.gradle.kts']],
  bundler: [['Gemfile', 'gems.rb', '*.gemspec']],
  cargo: [['Cargo.toml']],
  composer: [['composer.json']],
  docker: [['Dockerfile*', '*.Dockerfile', 'Containerfile*', '*.Containerfile']],
  elm: [['elm.json']],
  hex: [['mix.exs']],
  nuget: [['*.csproj', '*.fsproj', '*.vbproj', 'packages.config', 'Directory.Packages.props', '*.sln', '*.slnx', '*.proj']],
  go_modules: [['go.mod', 'go.work']],
  dep: [['Gopkg.toml']],
  terraform: [['*.tf', '*.tf.json']],
  submodules: [['.gitmodules']],
  github_actions: [['.github/workflows/*.yml', '.github/workflows/*.yaml', 'action.yml', 'action.yaml']],
});

/** A mutable copy of a package manager's required files, as `EcosystemFiles.required` holds them. */
export function requiredFilesOf(packageManager: PackageManager): string[][] {
  return REQUIRED_FILES[packageManager].map((alternatives) => [...alternatives]);
}
