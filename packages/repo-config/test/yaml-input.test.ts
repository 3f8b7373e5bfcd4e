import { describe, expect, it } from 'vitest';
import { MAX_CONFIG_FILE_BYTES, matchesDependencyName, parseConfigFile } from '../src/index.ts';

const parseError = (path: string, reason: string) => [
  { pointer: '#/', message: `Dependabot couldn't parse the config file at ${path}. The error raised was: ${reason}` },
];

/** Runs `run` and returns its result with the milliseconds it took. */
const timed = <T>(run: () => T): [T, number] => {
  const start = performance.now();
  const result = run();
  return [result, performance.now() - start];
};

describe('YAML input', () => {
  it('reports a syntax error as one problem with its line and column', () => {
    const text = 'version: 2\nupdates:\n  - package-ecosystem: npm\n   directory: /\n';
    expect(parseConfigFile('.github/dependabot.yml', text)).toEqual({
      path: '.github/dependabot.yml',
      version: null,
      valid: false,
      configs: [],
      problems: parseError('.github/dependabot.yml', 'Sequence item without - indicator at line 4 column 1'),
      skipped: [],
    });
    expect(parseConfigFile('.dependabot/config.yml', 'version: 1\nupdate_configs: [\n').problems).toEqual(
      parseError(
        '.dependabot/config.yml',
        'Flow sequence in block collection must be sufficiently indented and end with a ] at line 3 column 1',
      ),
    );
    expect(parseConfigFile('.github/dependabot.yaml', 'version: 2\nupdates: "open\n').problems).toEqual(
      parseError('.github/dependabot.yaml', 'Missing closing "quote at line 3 column 1'),
    );
  });

  it('reads YAML 1.1 as Psych does', () => {
    const text = [
      'version: 2',
      'updates:',
      '  - package-ecosystem: npm',
      '    directory: /',
      '    schedule: &schedule { interval: weekly, day: friday }',
      '    labels: [y, n, "on", 2001-12-14]',
      '  - package-ecosystem: pip',
      '    directory: /',
      '    schedule: *schedule',
      '    <<: { target-branch: develop }',
      '    milestone: 012',
      '  - package-ecosystem: pip',
      '    directory: /',
      '    directory: /docs',
      '    schedule: { interval: daily }',
      '---',
      'not: read',
      '',
    ].join('\n');
    const parsed = parseConfigFile('.github/dependabot.yml', text);
    expect(parsed.problems).toEqual([]);
    const [npm, pip, docs] = parsed.configs;
    expect(npm?.labels).toEqual(['y', 'n', 'on', '2001-12-14']);
    expect(pip).toMatchObject({ updateSchedule: 'weekly', schedule: { day: 'friday' }, targetBranch: 'develop', milestone: 10 });
    // A repeated key: the last one wins.
    expect(docs?.directory).toBe('/docs');
  });

  it('takes yes/no/on/off in any case as booleans, as Psych does', () => {
    const problems = parseConfigFile(
      '.github/dependabot.yml',
      'version: 2\nupdates:\n  - package-ecosystem: npm\n    directory: /\n    schedule: { interval: ON }\n',
    ).problems;
    expect(problems.map((problem) => problem.message)).toContain(
      "The property '#/updates/0/schedule/interval' of type boolean did not match the following type: string",
    );
  });

  describe('hostile input stays fast and bounded', () => {
    it('refuses a file over 256 KiB before reading it', () => {
      const text = `version: 2\nupdates: []\n# ${'x'.repeat(MAX_CONFIG_FILE_BYTES)}`;
      const [parsed, ms] = timed(() => parseConfigFile('.github/dependabot.yml', text));
      expect(parsed.problems).toEqual(
        parseError('.github/dependabot.yml', `the file is ${Buffer.byteLength(text)} bytes long; at most 262144 bytes are read`),
      );
      expect(ms).toBeLessThan(100);
      const multiByte = `version: 2\nupdates: []\n# ${'é'.repeat(MAX_CONFIG_FILE_BYTES / 2)}`;
      expect(parseConfigFile('.github/dependabot.yml', multiByte).valid).toBe(false);
    });

    it('refuses an alias bomb', () => {
      const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
      for (let level = 1; level < 9; level++) {
        const [name, previous] = [String.fromCharCode(97 + level), String.fromCharCode(96 + level)];
        lines.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]`);
      }
      const [parsed, ms] = timed(() => parseConfigFile('.github/dependabot.yml', `${lines.join('\n')}\n`));
      expect(parsed.problems).toEqual(parseError('.github/dependabot.yml', 'Excessive alias count indicates a resource exhaustion attack'));
      expect(ms).toBeLessThan(500);
    });

    it.each([
      ['flow sequences', '['.repeat(120_000) + ']'.repeat(120_000)],
      ['flow mappings', `a: ${'{a: '.repeat(60_000)}`],
      ['block sequences on one line', `a:\n${'- '.repeat(120_000)}x\n`],
      ['indentation', Array.from({ length: 700 }, (_, depth) => `${' '.repeat(depth)}a:`).join('\n')],
    ])('refuses %s nested past 64 levels', (_kind, text) => {
      const [parsed, ms] = timed(() => parseConfigFile('.github/dependabot.yml', text));
      expect(parsed.problems).toEqual(parseError('.github/dependabot.yml', 'the file nests collections more than 64 levels deep'));
      expect(ms).toBeLessThan(1000);
    });

    it('keeps messages short when a value is huge', () => {
      const huge = Array.from({ length: 5000 }, (_, index) => `k${index}`).join(', ');
      const parsed = parseConfigFile(
        '.github/dependabot.yml',
        `version: 2\nupdates:\n  - package-ecosystem: {${huge}}\n    directory: /\n    schedule: { interval: daily }\n`,
      );
      const messages = parsed.problems.map((problem) => problem.message);
      expect(messages).toContain("The property '#/updates/0/package-ecosystem' of type object did not match the following type: string");
      const enumMessage = messages.find((text) => text.includes('did not match one of the following values')) ?? '';
      expect(enumMessage).toMatch(
        /^The property '#\/updates\/0\/package-ecosystem' value \{"k0"=>nil, "k1"=>nil, .{100,200}\.\.\. did not match/,
      );
      expect(enumMessage.length).toBeLessThan(700);
    });

    it('reads the largest mapping that fits in 256 KiB in linear time', () => {
      const keys = Array.from({ length: 20_000 }, (_, index) => `  k${index}: 1`).join('\n');
      const [parsed, ms] = timed(() => parseConfigFile('.github/dependabot.yml', `version: 2\nupdates: []\nextra:\n${keys}\n`));
      expect(parsed.problems).toEqual([
        {
          pointer: '#/',
          message: 'The property \'#/\' contains additional properties ["extra"] outside of the schema when none are allowed',
        },
      ]);
      expect(ms).toBeLessThan(5000);
    });

    it('words the problems of thousands of failing entries in linear time', () => {
      const entries = Array.from({ length: 4_000 }, () => '  - package-ecosystem: npm\n    schedule: { interval: daily }').join('\n');
      const [parsed, ms] = timed(() => parseConfigFile('.github/dependabot.yml', `version: 2\nupdates:\n${entries}\n`));
      expect(parsed.problems).toHaveLength(100);
      expect(parsed.problems[0]).toEqual({
        pointer: '#/updates/0',
        message: "The property '#/updates/0' of type object did not match any of the required schemas",
      });
      expect(ms).toBeLessThan(5000);
    });

    it('words thousands of unknown keys of one object in one short message', () => {
      const keys = Array.from({ length: 15_000 }, (_, index) => `    k${index}: 1`).join('\n');
      const text = `version: 2\nupdates:\n  - package-ecosystem: npm\n    directory: /\n    schedule: { interval: daily }\n${keys}\n`;
      const [parsed, ms] = timed(() => parseConfigFile('.github/dependabot.yml', text));
      expect(parsed.problems).toHaveLength(1);
      expect(parsed.problems[0]?.message).toMatch(
        /^The property '#\/updates\/0\/' contains additional properties \["k0", "k1", .{150,200}\.\.\. outside of the schema when none are allowed$/,
      );
      expect(ms).toBeLessThan(5000);
    });

    it('matches long names against patterns full of * in linear time', () => {
      const name = 'a'.repeat(1_000_000);
      const [many, manyMs] = timed(() => matchesDependencyName(`${'*a'.repeat(200_000)}b`, name));
      expect(many).toBe(false);
      const [long, longMs] = timed(() => matchesDependencyName(`*${'a'.repeat(5_000)}b*`, name));
      expect(long).toBe(false);
      const [found, foundMs] = timed(() => matchesDependencyName(`*${'ab'.repeat(2_000)}*`, 'ab'.repeat(500_000)));
      expect(found).toBe(true);
      expect(manyMs + longMs + foundMs).toBeLessThan(1000);
    });

    it('reads a config whose ignore names hold many *', () => {
      const pattern = '*a'.repeat(20_000);
      const parsed = parseConfigFile(
        '.github/dependabot.yml',
        `version: 2\nupdates:\n  - package-ecosystem: npm\n    directory: /\n    schedule: { interval: daily }\n    ignore:\n      - dependency-name: "${pattern}"\n`,
      );
      expect(parsed.configs[0]?.ignore[0]?.dependencyName).toBe(pattern);
      const [matched, ms] = timed(() => matchesDependencyName(pattern, 'a'.repeat(100_000)));
      expect(matched).toBe(true);
      expect(ms).toBeLessThan(500);
    });
  });
});
