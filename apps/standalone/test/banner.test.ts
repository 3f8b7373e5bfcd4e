import { describe, expect, it } from 'vitest';
import { type BannerFacts, banner } from '../src/banner.ts';

const facts: BannerFacts = {
  gatewayUrl: 'http://127.0.0.1:8080',
  gatewayHost: '127.0.0.1',
  database: 'pglite',
  dataDir: '.data/pglite',
  pid: 4242,
  residentMemory: { residentBytes: 270 * 2 ** 20, processes: [{ pid: 4242, residentBytes: 270 * 2 ** 20 }] },
  bus: 'in-process',
  codeHost: 'GitHub emulator with demo data at http://127.0.0.1:8090',
  demoData: true,
  codeHostUrl: 'http://127.0.0.1:8090',
  registryUrl: 'http://127.0.0.1:8091',
  peerUrl: 'http://127.0.0.1:8084',
  workQueue: 'database',
  dashboard: true,
};

describe("the launcher's banner", () => {
  it('names the dashboard right below the API docs, with the demo token to log in with', () => {
    const lines = banner(facts).split('\n');
    const docs = lines.indexOf('  API docs   http://127.0.0.1:8080/docs');
    expect(docs).toBeGreaterThan(0);
    expect(lines[docs + 1]).toBe('  dashboard  http://127.0.0.1:8080/ui/   (log in with the demo token demo-token-alice)');
  });

  it('without demo data, says to log in with your own token', () => {
    expect(banner({ ...facts, demoData: false })).toContain('  dashboard  http://127.0.0.1:8080/ui/   (log in with your GitHub token)\n');
  });

  it('without the dashboard, says it was not built and /ui answers 404', () => {
    const text = banner({ ...facts, dashboard: false });
    expect(text).toContain('  dashboard  not built (see the warning above): /ui answers 404\n');
    expect(text).not.toContain('/ui/');
  });
});

describe("the banner's memory line", () => {
  it("gives the process tree's resident size, and how many processes it holds when the launcher started others", () => {
    expect(banner(facts)).toContain('\n  memory     270 MiB resident at start (one process, pid 4242)\n');
    const tree = {
      residentBytes: 400.4 * 2 ** 20,
      processes: [
        { pid: 4242, residentBytes: 270 * 2 ** 20 },
        { pid: 4250, residentBytes: 130.4 * 2 ** 20 },
      ],
    };
    expect(banner({ ...facts, residentMemory: tree })).toContain(
      '\n  memory     400 MiB resident at start (2 processes: pid 4242 and those it started)\n',
    );
  });

  it('says the size is unknown where there is no /proc to read it from', () => {
    expect(banner({ ...facts, residentMemory: undefined })).toContain(
      '\n  memory     unknown (read from /proc, on Linux only; pid 4242)\n',
    );
  });
});

describe("the banner's clock line", () => {
  it('names the simulated time and its rate when CLOCK_START or CLOCK_RATE set one, and nothing otherwise', () => {
    const text = banner({ ...facts, clock: { now: new Date('2026-12-07T05:00:00Z'), rate: 8640 } });
    expect(text).toContain(
      "\n  clock      2026-12-07T05:00:00.000Z at 8640× real time (CLOCK_START, CLOCK_RATE: the release worker's schedules)\n",
    );
    expect(banner(facts)).not.toContain('clock');
  });
});
