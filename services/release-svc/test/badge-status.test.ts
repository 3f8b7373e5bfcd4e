import { describe, expect, it } from 'vitest';
import { badgeJson, badgeSvg } from '../src/badges/badge.mapper.ts';
import { badgeStatus, ENABLED, FAILING, INACTIVE, pending, UP_TO_DATE } from '../src/badges/badge-status.policy.ts';

describe('badgeStatus (the status badge, from the repo’s configs and open pull requests)', () => {
  it('is inactive, grey, without a live update config, whatever else there is', () => {
    expect(badgeStatus({ lastRuns: [], openPullRequests: 0 })).toEqual({ status: 'inactive', colour: 'lightgrey' });
    expect(badgeStatus({ lastRuns: [], openPullRequests: 3 })).toBe(INACTIVE);
  });

  it('is failing, red, when any config’s last finished run failed, before pending pull requests', () => {
    expect(badgeStatus({ lastRuns: ['done', 'failed'], openPullRequests: 0 })).toEqual({ status: 'failing', colour: 'red' });
    expect(badgeStatus({ lastRuns: ['failed', null], openPullRequests: 4 })).toBe(FAILING);
  });

  it('counts the open update pull requests, yellow, with the singular for one', () => {
    expect(badgeStatus({ lastRuns: ['done'], openPullRequests: 1 })).toEqual({ status: '1 update pending', colour: 'yellow' });
    expect(badgeStatus({ lastRuns: ['done', null], openPullRequests: 12 })).toEqual({ status: '12 updates pending', colour: 'yellow' });
    expect(pending(2).status).toBe('2 updates pending');
  });

  it('is enabled, green, while a config has not finished a run and nothing is failing or pending', () => {
    expect(badgeStatus({ lastRuns: [null], openPullRequests: 0 })).toEqual({ status: 'enabled', colour: 'green' });
    expect(badgeStatus({ lastRuns: ['done', null], openPullRequests: 0 })).toBe(ENABLED);
  });

  it('is up to date, bright green, when every config’s last run succeeded and no pull request is open', () => {
    expect(badgeStatus({ lastRuns: ['done', 'done'], openPullRequests: 0 })).toEqual({ status: 'up to date', colour: 'brightgreen' });
    expect(badgeStatus({ lastRuns: ['done'], openPullRequests: 0 })).toBe(UP_TO_DATE);
  });
});

describe('the badge’s two forms', () => {
  it('draws an SVG labelled Dependabot with the status in its colour, readable by screen readers', () => {
    const svg = badgeSvg(pending(3));
    expect(svg).toMatch(
      /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="\d+" height="20" role="img" aria-label="Dependabot: 3 updates pending">/,
    );
    expect(svg).toContain('<title>Dependabot: 3 updates pending</title>');
    expect(svg).toContain('fill="#d8b800"'); // badge-maker's yellow
    expect(svg).not.toMatch(/<script|<style|href=/);
    expect(badgeSvg(INACTIVE)).toContain('fill="#939393"'); // lightgrey
  });

  it('writes the original’s JSON, status and colour only', () => {
    expect(JSON.parse(badgeJson(UP_TO_DATE))).toEqual({ status: 'up to date', colour: 'brightgreen' });
  });
});
