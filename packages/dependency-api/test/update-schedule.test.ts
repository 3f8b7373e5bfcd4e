import type { UpdateSchedule } from '@switchyard/contracts';
import { describe, expect, it } from 'vitest';
import { isValidTimeZone, latestSlot, nextSlot, type ScheduleSettings, slotKey, type Weekday } from '../src/index.ts';

const settings = (timeZone: string, updateRunTime = '05:00', weeklyUpdateRunDay: Weekday = 'monday'): ScheduleSettings => ({
  updateRunTime,
  weeklyUpdateRunDay,
  timeZone,
});

const next = (schedule: UpdateSchedule, s: ScheduleSettings, now: string) => nextSlot(schedule, s, new Date(now))?.toISOString();
const latest = (schedule: UpdateSchedule, s: ScheduleSettings, now: string) => latestSlot(schedule, s, new Date(now))?.toISOString();

/** The next `count` slots after `from`, each found from the one before. */
function slotsFrom(schedule: UpdateSchedule, s: ScheduleSettings, from: string, count: number): string[] {
  const slots: string[] = [];
  let now = new Date(from);
  for (let i = 0; i < count; i++) {
    const slot = nextSlot(schedule, s, now);
    if (!slot) throw new Error('no slot');
    slots.push(slot.toISOString());
    now = slot;
  }
  return slots;
}

/** The local date and time of `iso` in `timeZone`, as `YYYY-MM-DD HH:MM` with the weekday's short name. */
function local(iso: string, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      weekday: 'short',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(new Date(iso))
      .map((part) => [part.type, part.value]),
  );
  return `${parts.weekday} ${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

describe('daily', () => {
  it('runs Monday to Friday at the run time; a Friday slot is followed by Monday', () => {
    // 2026-11-26 is a Thursday.
    expect(slotsFrom('daily', settings('UTC'), '2026-11-26T00:00:00Z', 4)).toEqual([
      '2026-11-26T05:00:00.000Z',
      '2026-11-27T05:00:00.000Z',
      '2026-11-30T05:00:00.000Z',
      '2026-12-01T05:00:00.000Z',
    ]);
    expect(next('daily', settings('UTC'), '2026-11-27T05:00:00Z')).toBe('2026-11-30T05:00:00.000Z');
  });

  it('over a weekend, the latest slot is Friday', () => {
    expect(latest('daily', settings('UTC'), '2026-11-30T04:59:59.999Z')).toBe('2026-11-27T05:00:00.000Z');
    expect(latest('daily', settings('UTC'), '2026-11-29T12:00:00Z')).toBe('2026-11-27T05:00:00.000Z');
  });
});

describe('weekly', () => {
  it('runs on the weekly run day at the run time', () => {
    const s = settings('UTC', '09:15', 'wednesday');
    expect(slotsFrom('weekly', s, '2026-11-25T09:15:00Z', 3)).toEqual([
      '2026-12-02T09:15:00.000Z',
      '2026-12-09T09:15:00.000Z',
      '2026-12-16T09:15:00.000Z',
    ]);
    expect(latest('weekly', s, '2026-12-01T23:59:00Z')).toBe('2026-11-25T09:15:00.000Z');
  });

  it('reads every weekday name', () => {
    const days: Weekday[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
    // 2026-11-30 is a Monday.
    const slots = days.map((day) => next('weekly', settings('UTC', '05:00', day), '2026-11-29T23:00:00Z'));
    expect(slots).toEqual(['30', '01', '02', '03', '04', '05', '06'].map((d, i) => `2026-${i === 0 ? '11' : '12'}-${d}T05:00:00.000Z`));
  });
});

describe('monthly', () => {
  it('runs on the first of the month at the run time, across the year boundary', () => {
    expect(slotsFrom('monthly', settings('UTC'), '2026-11-15T00:00:00Z', 3)).toEqual([
      '2026-12-01T05:00:00.000Z',
      '2027-01-01T05:00:00.000Z',
      '2027-02-01T05:00:00.000Z',
    ]);
    expect(latest('monthly', settings('UTC'), '2027-01-31T23:59:59Z')).toBe('2027-01-01T05:00:00.000Z');
    expect(latest('monthly', settings('UTC'), '2027-01-01T04:59:59Z')).toBe('2026-12-01T05:00:00.000Z');
  });

  it('runs on the first in every month of a year, whatever weekday it falls on', () => {
    const slots = slotsFrom('monthly', settings('Europe/Berlin', '00:00'), '2025-12-31T12:00:00Z', 12);
    expect(slots.map((slot) => local(slot, 'Europe/Berlin').slice(4))).toEqual(
      Array.from({ length: 12 }, (_, i) => `2026-${String(i + 1).padStart(2, '0')}-01 00:00`),
    );
  });
});

describe('time zones', () => {
  it('reads the run time in America/New_York (UTC-5 in winter, UTC-4 in summer)', () => {
    const s = settings('America/New_York');
    expect(next('daily', s, '2026-12-01T00:00:00Z')).toBe('2026-12-01T10:00:00.000Z');
    expect(next('daily', s, '2026-07-01T00:00:00Z')).toBe('2026-07-01T09:00:00.000Z');
  });

  it('reads the run time in Asia/Kolkata (UTC+05:30), where the slot falls on the day before in UTC', () => {
    const s = settings('Asia/Kolkata', '05:00');
    // Friday 2027-01-01 05:00 IST, then Monday 2027-01-04.
    expect(slotsFrom('daily', s, '2026-12-31T12:00:00Z', 2)).toEqual(['2026-12-31T23:30:00.000Z', '2027-01-03T23:30:00.000Z']);
    expect(next('monthly', s, '2026-12-15T00:00:00Z')).toBe('2026-12-31T23:30:00.000Z');
    // Monday 2026-11-30 05:00 IST is Sunday 23:30 UTC.
    expect(next('weekly', s, '2026-11-28T00:00:00Z')).toBe('2026-11-29T23:30:00.000Z');
  });

  it('reads the run time in Pacific/Chatham (UTC+12:45, UTC+13:45 in summer)', () => {
    const s = settings('Pacific/Chatham', '09:00');
    expect(next('monthly', s, '2026-06-15T00:00:00Z')).toBe('2026-06-30T20:15:00.000Z');
    expect(next('monthly', s, '2026-12-15T00:00:00Z')).toBe('2026-12-31T19:15:00.000Z');
    // Monday 2026-11-30 09:00 local is Sunday 19:15 UTC.
    expect(next('weekly', s, '2026-11-28T00:00:00Z')).toBe('2026-11-29T19:15:00.000Z');
  });

  it('places the time zone’s midnight of the first of the month on the last day of the month before in UTC', () => {
    expect(next('monthly', settings('America/New_York', '23:30'), '2026-11-25T00:00:00Z')).toBe('2026-12-02T04:30:00.000Z');
    expect(next('monthly', settings('Asia/Kolkata', '00:00'), '2026-11-25T00:00:00Z')).toBe('2026-11-30T18:30:00.000Z');
  });
});

describe('daylight saving time', () => {
  // Europe/Berlin: 2026-03-29 02:00 CET → 03:00 CEST (01:00Z); 2026-10-25 03:00 CEST → 02:00 CET (01:00Z).
  // America/New_York: 2026-03-08 02:00 EST → 03:00 EDT (07:00Z); 2026-11-01 02:00 EDT → 01:00 EST (06:00Z).
  it('runs a time the clock skips (spring forward) once, when the clock jumps: 02:30 in Europe/Berlin at 03:00 CEST', () => {
    const s = settings('Europe/Berlin', '02:30', 'sunday');
    expect(slotsFrom('weekly', s, '2026-03-20T00:00:00Z', 3)).toEqual([
      '2026-03-22T01:30:00.000Z',
      '2026-03-29T01:00:00.000Z',
      '2026-04-05T00:30:00.000Z',
    ]);
    expect(latest('weekly', s, '2026-03-29T01:00:00Z')).toBe('2026-03-29T01:00:00.000Z');
    expect(latest('weekly', s, '2026-03-29T00:59:59.999Z')).toBe('2026-03-22T01:30:00.000Z');
    expect(latest('weekly', s, '2026-03-29T01:29:00Z')).toBe('2026-03-29T01:00:00.000Z');
    expect(next('weekly', s, '2026-03-29T00:59:59.999Z')).toBe('2026-03-29T01:00:00.000Z');
  });

  it('runs a time the clock skips at the jump in America/New_York, for every schedule', () => {
    // 2026-03-08 is a Sunday; 2026-03-09 a Monday. A monthly gap day: America/Santiago below.
    expect(next('weekly', settings('America/New_York', '02:30', 'sunday'), '2026-03-07T12:00:00Z')).toBe('2026-03-08T07:00:00.000Z');
    expect(next('weekly', settings('America/New_York', '02:00', 'sunday'), '2026-03-07T12:00:00Z')).toBe('2026-03-08T07:00:00.000Z');
    expect(next('weekly', settings('America/New_York', '03:00', 'sunday'), '2026-03-07T12:00:00Z')).toBe('2026-03-08T07:00:00.000Z');
    expect(next('weekly', settings('America/New_York', '01:59', 'sunday'), '2026-03-07T12:00:00Z')).toBe('2026-03-08T06:59:00.000Z');
    expect(slotsFrom('daily', settings('America/New_York', '02:30'), '2026-03-06T00:00:00Z', 2)).toEqual([
      '2026-03-06T07:30:00.000Z',
      '2026-03-09T06:30:00.000Z',
    ]);
  });

  it('runs a time that happens twice (fall back) once, at its first occurrence', () => {
    const berlin = settings('Europe/Berlin', '02:30', 'sunday');
    expect(slotsFrom('weekly', berlin, '2026-10-17T00:00:00Z', 3)).toEqual([
      '2026-10-18T00:30:00.000Z',
      '2026-10-25T00:30:00.000Z',
      '2026-11-01T01:30:00.000Z',
    ]);
    // Between and after the two occurrences, the latest slot is the first one, and the next is a week on.
    for (const now of ['2026-10-25T00:30:00Z', '2026-10-25T01:00:00Z', '2026-10-25T01:30:00Z', '2026-10-25T01:31:00Z']) {
      expect(latest('weekly', berlin, now)).toBe('2026-10-25T00:30:00.000Z');
      expect(next('weekly', berlin, now)).toBe('2026-11-01T01:30:00.000Z');
    }
    const newYork = settings('America/New_York', '01:30', 'sunday');
    expect(slotsFrom('weekly', newYork, '2026-10-31T00:00:00Z', 2)).toEqual(['2026-11-01T05:30:00.000Z', '2026-11-08T06:30:00.000Z']);
    expect(latest('weekly', newYork, '2026-11-01T06:30:00Z')).toBe('2026-11-01T05:30:00.000Z');
  });

  it('keeps daily slots once a weekday across both changes in Europe/Berlin', () => {
    const s = settings('Europe/Berlin', '02:30');
    expect(slotsFrom('daily', s, '2026-03-26T00:00:00Z', 3)).toEqual([
      '2026-03-26T01:30:00.000Z',
      '2026-03-27T01:30:00.000Z',
      '2026-03-30T00:30:00.000Z',
    ]);
    expect(slotsFrom('daily', s, '2026-10-22T00:00:00Z', 3)).toEqual([
      '2026-10-22T00:30:00.000Z',
      '2026-10-23T00:30:00.000Z',
      '2026-10-26T01:30:00.000Z',
    ]);
  });

  it('handles changes at midnight, half-hour changes and changes on the first of the month', () => {
    // America/Santiago: 2026-09-06 00:00 → 01:00 (04:00Z); 2026-04-05 00:00 → 2026-04-04 23:00 (03:00Z).
    expect(next('weekly', settings('America/Santiago', '00:30', 'sunday'), '2026-09-01T00:00:00Z')).toBe('2026-09-06T04:00:00.000Z');
    expect(latest('weekly', settings('America/Santiago', '00:30', 'sunday'), '2026-09-12T00:00:00Z')).toBe('2026-09-06T04:00:00.000Z');
    expect(next('weekly', settings('America/Santiago', '23:30', 'saturday'), '2026-04-01T00:00:00Z')).toBe('2026-04-05T02:30:00.000Z');
    // Australia/Lord_Howe: 2026-10-04 02:00 → 02:30 (+10:30 → +11, 15:30Z on the 3rd).
    expect(next('weekly', settings('Australia/Lord_Howe', '02:15', 'sunday'), '2026-10-01T00:00:00Z')).toBe('2026-10-03T15:30:00.000Z');
    // Pacific/Chatham: 2026-09-27 02:45 → 03:45 (+12:45 → +13:45, 14:00Z on the 26th).
    expect(next('weekly', settings('Pacific/Chatham', '03:00', 'sunday'), '2026-09-24T00:00:00Z')).toBe('2026-09-26T14:00:00.000Z');
    // Europe/Berlin and America/New_York never change on the first of a month; America/Havana did, on 2012-04-01
    // 00:00 → 01:00 (05:00Z).
    expect(next('monthly', settings('America/Havana', '00:30'), '2012-03-15T00:00:00Z')).toBe('2012-04-01T05:00:00.000Z');
    expect(latest('monthly', settings('America/Havana', '00:30'), '2012-04-15T00:00:00Z')).toBe('2012-04-01T05:00:00.000Z');
  });

  it.each([
    ['Europe/Berlin', '02:30'],
    ['America/New_York', '01:30'],
    ['America/New_York', '02:30'],
    ['Australia/Lord_Howe', '01:45'],
    ['Pacific/Chatham', '02:50'],
  ])('fires each slot exactly once per weekday, week and month through 2026 in %s at %s', (timeZone, runTime) => {
    const cases: [UpdateSchedule, number, (slot: string) => string][] = [
      ['daily', 261, (slot) => local(slot, timeZone).slice(4, 14)],
      ['weekly', 52, (slot) => local(slot, timeZone).slice(4, 14)],
      ['monthly', 12, (slot) => local(slot, timeZone).slice(4, 11)],
    ];
    const s = settings(timeZone, runTime, 'sunday');
    for (const [schedule, count, period] of cases) {
      const slots = slotsFrom(schedule, s, '2025-12-25T00:00:00Z', count + 10).filter(
        (slot) => local(slot, timeZone).slice(4, 8) === '2026',
      );
      expect(slots).toHaveLength(count);
      expect(new Set(slots.map(period)).size).toBe(count);
      if (schedule === 'daily') expect(slots.every((slot) => !/^(Sat|Sun)/.test(local(slot, timeZone)))).toBe(true);
      if (schedule === 'weekly') expect(slots.every((slot) => local(slot, timeZone).startsWith('Sun'))).toBe(true);
      if (schedule === 'monthly') expect(slots.every((slot) => local(slot, timeZone).slice(12, 14) === '01')).toBe(true);
      // Walking backwards with latestSlot finds the same slots.
      for (let i = 1; i < slots.length; i++) {
        expect(latestSlot(schedule, s, new Date(new Date(slots[i] ?? '').getTime() - 1))?.toISOString()).toBe(slots[i - 1]);
      }
      expect(local(next(schedule, s, slots[count - 1] ?? '') ?? '', timeZone).slice(4, 8)).toBe('2027');
    }
  });
});

describe('slots at now', () => {
  it('takes a slot exactly at now as the latest, and the one after as the next', () => {
    // Tuesday 2026-12-01 05:00 IST is a daily, weekly (Tuesdays) and monthly slot.
    const s = settings('Asia/Kolkata', '05:00', 'tuesday');
    for (const schedule of ['daily', 'weekly', 'monthly'] as const) {
      expect(latest(schedule, s, '2026-11-30T23:30:00Z')).toBe('2026-11-30T23:30:00.000Z');
      expect(next(schedule, s, '2026-11-30T23:29:59.999Z')).toBe('2026-11-30T23:30:00.000Z');
    }
    expect(next('daily', s, '2026-11-30T23:30:00Z')).toBe('2026-12-01T23:30:00.000Z');
    expect(next('weekly', s, '2026-11-30T23:30:00Z')).toBe('2026-12-07T23:30:00.000Z');
    expect(next('monthly', s, '2026-11-30T23:30:00Z')).toBe('2026-12-31T23:30:00.000Z');
    expect(latest('daily', s, '2026-11-30T23:29:59.999Z')).toBe('2026-11-29T23:30:00.000Z');
    expect(latest('weekly', s, '2026-11-30T23:29:59.999Z')).toBe('2026-11-23T23:30:00.000Z');
    expect(latest('monthly', s, '2026-11-30T23:29:59.999Z')).toBe('2026-10-31T23:30:00.000Z');
  });
});

describe('live', () => {
  it('has no slots', () => {
    expect(latestSlot('live', settings('UTC'), new Date('2026-11-25T12:00:00Z'))).toBeNull();
    expect(nextSlot('live', settings('Europe/Berlin'), new Date('2026-11-25T12:00:00Z'))).toBeNull();
  });
});

describe('slotKey', () => {
  it('names a slot by its schedule and UTC instant', () => {
    expect(slotKey('weekly', new Date('2026-11-30T05:00:00+01:00'))).toBe('weekly@2026-11-30T04:00:00.000Z');
    expect(() => slotKey('weekly', new Date('not a date'))).toThrow(RangeError);
  });
});

describe('invalid input', () => {
  const now = new Date('2026-11-25T12:00:00Z');

  it('rejects an unknown time zone with a RangeError naming it', () => {
    for (const timeZone of ['Mars/Olympus_Mons', 'Europe/Berlin ', '', 'UTC+5']) {
      expect(() => nextSlot('daily', settings(timeZone), now)).toThrow(RangeError);
    }
    expect(() => latestSlot('weekly', settings('Mars/Olympus_Mons'), now)).toThrow(
      'time-zone "Mars/Olympus_Mons" must be an IANA time zone name, e.g. Europe/Paris',
    );
    expect(() => latestSlot('live', settings('Mars/Olympus_Mons'), now)).toThrow(RangeError);
  });

  it('rejects a malformed run time with a RangeError', () => {
    for (const runTime of ['5:00', '24:00', '05:60', '05:00:00', 'noon', '']) {
      expect(() => nextSlot('daily', settings('UTC', runTime), now)).toThrow(RangeError);
    }
    expect(() => latestSlot('monthly', settings('UTC', '25:00'), now)).toThrow(
      'update-run-time "25:00" must be a time HH:MM, from 00:00 to 23:59',
    );
  });

  it('rejects an unknown weekday, schedule or an invalid now with a RangeError', () => {
    expect(() => nextSlot('weekly', settings('UTC', '05:00', 'Monday' as Weekday), now)).toThrow(
      /weekly-update-run-day "Monday" must be one of monday, /,
    );
    expect(() => nextSlot('hourly' as UpdateSchedule, settings('UTC'), now)).toThrow(
      'update-schedule "hourly" must be one of live, daily, weekly, monthly',
    );
    expect(() => nextSlot('daily', settings('UTC'), new Date(Number.NaN))).toThrow('now must be a valid date');
  });
});

describe('isValidTimeZone', () => {
  it('accepts IANA names the runtime knows and rejects others', () => {
    for (const name of ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham']) {
      expect(isValidTimeZone(name)).toBe(true);
    }
    for (const name of ['Mars/Olympus_Mons', 'Europe/Berlin ', '', '+05:30', 'x'.repeat(65)]) {
      expect(isValidTimeZone(name)).toBe(false);
    }
  });
});
