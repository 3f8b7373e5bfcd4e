import { Agent, get } from 'node:http';
import { describe, expect, it } from 'vitest';
import { listen, startService } from '../src/index.ts';

/** A resource that records when it is closed, in `log`. */
function resource(name: string, log: string[], fail = false): AsyncDisposable {
  return {
    [Symbol.asyncDispose]: async () => {
      log.push(name);
      if (fail) throw new Error(`${name} would not close`);
    },
  };
}

describe('startService', () => {
  it('closes what start registered in reverse order, once however often close() and asyncDispose are called', async () => {
    const log: string[] = [];
    const injected = resource('injected bus', log);
    const running = await startService(async (scope) => {
      scope.use(resource('database', log));
      scope.defer(() => {
        log.push('relay');
      });
      scope.adopt({ name: 'http' }, (http) => {
        log.push(http.name);
      });
      return { injected, url: 'http://127.0.0.1:1' };
    });
    expect(running.url).toBe('http://127.0.0.1:1');
    expect(log).toEqual([]);
    const first = running.close();
    expect(running.close()).toBe(first);
    await Promise.all([first, running[Symbol.asyncDispose](), running.close()]);
    expect(log).toEqual(['http', 'relay', 'database']);
  });

  it('when start fails, closes what it had opened (last first) and rethrows the same error', async () => {
    const log: string[] = [];
    const failure = new Error('listen EADDRINUSE');
    const started = startService(async (scope) => {
      scope.use(resource('database', log));
      scope.use(resource('events', log));
      throw failure;
    });
    await expect(started).rejects.toBe(failure);
    expect(log).toEqual(['events', 'database']);
  });

  it('runs every close step even when one fails, and rejects with that failure', async () => {
    const log: string[] = [];
    const running = await startService(async (scope) => {
      scope.use(resource('database', log));
      scope.use(resource('events', log, true));
      scope.use(resource('http', log));
      return {};
    });
    await expect(running.close()).rejects.toThrow('events would not close');
    expect(log).toEqual(['http', 'events', 'database']);
  });

  it('reports both errors when start fails and closing what it opened fails too', async () => {
    const failure = new Error('migration failed');
    const started = startService(async (scope) => {
      scope.use(resource('database', [], true));
      throw failure;
    });
    const error = await started.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SuppressedError);
    expect((error as SuppressedError).suppressed).toBe(failure);
    expect((error as SuppressedError).error).toMatchObject({ message: 'database would not close' });
  });
});

describe('listen(...).close()', () => {
  it('closes busy keep-alive connections once their responses are sent, long before the grace period', async () => {
    const http = await listen(
      (_req, res) => {
        setTimeout(() => res.end('ok'), 5);
      },
      0,
      '127.0.0.1',
    );
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    let answered = 0;
    let running = true;
    const once = () =>
      new Promise<void>((resolve) => {
        get(`${http.url}/`, { agent }, (res) => {
          answered += 1;
          res.resume();
          res.on('end', resolve);
        }).on('error', () => {
          running = false;
          resolve();
        });
      });
    const clients = Array.from({ length: 8 }, async () => {
      while (running) await once();
    });
    while (answered < 40) await new Promise((resolve) => setTimeout(resolve, 5));
    const started = performance.now();
    await http.close(10_000);
    const tookMs = performance.now() - started;
    running = false;
    await Promise.all(clients);
    agent.destroy();
    expect(tookMs).toBeLessThan(1_000);
    expect(http.close()).toBe(http.close());
  });
});
