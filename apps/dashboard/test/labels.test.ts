import {
  DEPENDENCY_CHECK_OUTCOMES,
  NOTIFICATION_STATUSES,
  PULL_REQUEST_JOB_STATUSES,
  SCAN_OUTCOMES,
  UPDATE_RUN_STATUSES,
} from '@switchyard/contracts';
import { describe, expect, it } from 'vitest';
import { DEPENDENCY_OUTCOMES, JOB_STATUSES, meaningOf, VOCABULARIES } from '../src/labels.ts';

describe("the labels of the API's vocabularies", () => {
  it('give every word of every vocabulary a meaning, and no word the API does not have', () => {
    const api = {
      job: PULL_REQUEST_JOB_STATUSES,
      outcome: DEPENDENCY_CHECK_OUTCOMES,
      run: UPDATE_RUN_STATUSES,
      notification: NOTIFICATION_STATUSES,
      scan: SCAN_OUTCOMES,
    };
    for (const [name, words] of Object.entries(api)) {
      expect(Object.keys(VOCABULARIES[name as keyof typeof VOCABULARIES]).sort(), name).toEqual([...words].sort());
      for (const word of words) expect(meaningOf(name as keyof typeof VOCABULARIES, word).meaning.length, word).toBeGreaterThan(10);
    }
  });

  it('draw pr-open as an update under way, unlike up-to-date (done) and job-recorded (new)', () => {
    expect(DEPENDENCY_OUTCOMES['pr-open'].tone).toBe('info');
    expect(DEPENDENCY_OUTCOMES['up-to-date'].tone).not.toBe('info');
    expect(DEPENDENCY_OUTCOMES['job-recorded'].tone).not.toBe('info');
    expect(DEPENDENCY_OUTCOMES['pr-open'].meaning).toContain('under way');
  });

  it("draw vanished as gone, say the next run proposes it again, and say a person's close is ignored until reopened", () => {
    expect(JOB_STATUSES.vanished.tone).toBe('gone');
    expect(JOB_STATUSES.vanished.meaning).toContain('the next run proposes the update again');
    expect(JOB_STATUSES.closed.meaning).toContain('not proposed again until the pull request is reopened');
  });

  it('show a word the dashboard does not know yet as itself, in a neutral tone', () => {
    expect(meaningOf('job', 'archived')).toEqual({ tone: 'gone', meaning: 'archived' });
    expect(meaningOf('job', 'toString')).toEqual({ tone: 'gone', meaning: 'toString' });
  });
});
