import { describe, expect, it } from 'vitest';
import { emulatorStateDirs } from '../src/emulator-state.ts';

describe('emulatorStateDirs', () => {
  it('puts each emulator in a folder of its own under DATA_DIR', () => {
    expect(emulatorStateDirs('.data')).toEqual({ codeHost: '.data/code-host', registry: '.data/registry' });
    expect(emulatorStateDirs('/var/lib/switchyard/')).toEqual({
      codeHost: '/var/lib/switchyard/code-host',
      registry: '/var/lib/switchyard/registry',
    });
  });

  it('keeps both in memory with memory://', () => {
    expect(emulatorStateDirs('memory://')).toEqual({});
  });
});
