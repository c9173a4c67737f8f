import { describe, expect, it, vi } from 'vitest';
import {
  BASE_HEADERS,
  createUser,
  PASSWORD,
  uniqueEmail,
  useTestServer,
  type TestServer,
} from '../../../test/harness';

const LIMIT = 10;

let server: TestServer;
useTestServer((t) => ({ server } = t), { LOGIN_RATE_LIMIT: String(LIMIT) });

let addresses = 0;
/** A fresh caller address per use, so one test's counts never reach another's. */
const newAddress = () => `10.44.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`;

const attempt = (email: string, password: string, from: string) =>
  server.app.inject({
    method: 'POST',
    url: '/api/authenticate/',
    headers: BASE_HEADERS,
    payload: { email, password },
    remoteAddress: from,
  });

/** How many answers had each status, e.g. `{ 400: 10, 429: 90 }`. */
function statusCounts(answers: { statusCode: number }[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { statusCode } of answers) counts[statusCode] = (counts[statusCode] ?? 0) + 1;
  return counts;
}

describe('login limits under parallel guesses', () => {
  it('checks at most the limit of passwords for one account from one address', async () => {
    const user = await createUser(server);
    const from = newAddress();
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => attempt(user.email, 'Wrong-pass1!', from)),
    );
    // 400 is the checked-and-wrong answer; 429 is refused before any password is compared.
    expect(statusCounts(answers)).toEqual({ 400: LIMIT, 429: 100 - LIMIT });
  });

  it('checks at most 5x the limit of passwords from one address across accounts', async () => {
    const from = newAddress();
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => attempt(uniqueEmail('spray'), 'Wrong-pass1!', from)),
    );
    expect(statusCounts(answers)).toEqual({ 400: 5 * LIMIT, 429: 100 - 5 * LIMIT });
  });
});

describe('login limits under parallel correct logins', () => {
  it('lets in every correct login at once after earlier ones, and still limits the failures', async () => {
    const user = await createUser(server);
    const from = newAddress();
    for (let i = 0; i < 3 * LIMIT; i++) {
      expect((await attempt(user.email, PASSWORD, from)).statusCode).toBe(200);
    }
    const together = (password: string, count: number) =>
      Promise.all(Array.from({ length: count }, () => attempt(user.email, password, from)));
    expect(statusCounts(await together(PASSWORD, 3 * LIMIT))).toEqual({ 200: 3 * LIMIT });
    // None of those used up a guess: the failures are limited as ever, and then lock the address
    // out of the account, the right password included.
    expect(statusCounts(await together('Wrong-pass1!', 2 * LIMIT))).toEqual({
      400: LIMIT,
      429: LIMIT,
    });
    expect(statusCounts(await together(PASSWORD, 12))).toEqual({ 429: 12 });
    expect((await attempt(user.email, PASSWORD, newAddress())).statusCode).toBe(200);
  });
});

describe('login limits per address and account', () => {
  it("an attacker's address is refused for the account while its owner logs in elsewhere", async () => {
    const user = await createUser(server);
    const attacker = newAddress();
    for (let i = 0; i < LIMIT; i++) {
      expect((await attempt(user.email, 'Wrong-pass1!', attacker)).statusCode).toBe(400);
    }
    expect((await attempt(user.email, 'Wrong-pass1!', attacker)).statusCode).toBe(429);
    // Even the right password: that address has used up its guesses for this account.
    expect((await attempt(user.email, PASSWORD, attacker)).statusCode).toBe(429);
    expect((await attempt(user.email, PASSWORD, newAddress())).statusCode).toBe(200);
    // The attacker's address may still log in to other accounts.
    const other = await createUser(server);
    expect((await attempt(other.email, PASSWORD, attacker)).statusCode).toBe(200);
  });

  it('failures from many addresses lock the account everywhere at 5x the limit', async () => {
    const user = await createUser(server);
    const attackers = Array.from({ length: 5 }, newAddress);
    const answers = await Promise.all(
      attackers.flatMap((from) =>
        Array.from({ length: LIMIT }, () => attempt(user.email, 'Wrong-pass1!', from)),
      ),
    );
    expect(statusCounts(answers)).toEqual({ 400: 5 * LIMIT });
    expect((await attempt(user.email, 'Wrong-pass1!', newAddress())).statusCode).toBe(429);
    expect((await attempt(user.email, PASSWORD, newAddress())).statusCode).toBe(429);
  });

  it('a successful login forgives the failures of its address for that account', async () => {
    const user = await createUser(server);
    const from = newAddress();
    for (let i = 0; i < LIMIT - 1; i++) await attempt(user.email, 'Wrong-pass1!', from);
    expect((await attempt(user.email, PASSWORD, from)).statusCode).toBe(200);
    for (let i = 0; i < LIMIT; i++) {
      expect((await attempt(user.email, 'Wrong-pass1!', from)).statusCode).toBe(400);
    }
    expect((await attempt(user.email, 'Wrong-pass1!', from)).statusCode).toBe(429);
  });

  it('successful logins do not count against the address or the account', async () => {
    const user = await createUser(server);
    const from = newAddress();
    for (let i = 0; i < 5 * LIMIT + 2; i++) {
      expect((await attempt(user.email, PASSWORD, from)).statusCode).toBe(200);
    }
  });
});

describe('login limits when an attempt ends in an error', () => {
  /**
   * Makes the last guess under the limit fail with `fault` on, then expects the owner's login
   * from the same address at once: the place the errored attempt held was given back.
   */
  async function lastPlaceFreedAfter(fault: () => { mockRestore(): void }) {
    const user = await createUser(server);
    const from = newAddress();
    for (let i = 0; i < LIMIT - 1; i++) await attempt(user.email, 'Wrong-pass1!', from);
    const spy = fault();
    try {
      expect((await attempt(user.email, 'Wrong-pass1!', from)).statusCode).toBe(500);
    } finally {
      spy.mockRestore();
    }
    const started = Date.now();
    expect((await attempt(user.email, PASSWORD, from)).statusCode).toBe(200);
    expect(Date.now() - started).toBeLessThan(2_000);
  }

  it('gives back the places of a failure the database could not count', async () => {
    await lastPlaceFreedAfter(() =>
      vi.spyOn(server.ctx.limiter, 'hit').mockRejectedValueOnce(new Error('connection lost')),
    );
  });

  it('gives back the places of an attempt whose password check failed', async () => {
    // The account lookup is the check's only query; the database drops it.
    await lastPlaceFreedAfter(() =>
      vi.spyOn(server.ctx.db, 'select').mockImplementation(() => {
        throw new Error('connection lost');
      }),
    );
  });
});

describe('forgot password timing', () => {
  it('answers a known address without waiting for its reset link to be made', async () => {
    const user = await createUser(server);
    const { mailbox } = server.ctx;
    const queue = mailbox.queue.bind(mailbox);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const spy = vi.spyOn(mailbox, 'queue').mockImplementation(async (tx, mail) => {
      await held;
      return queue(tx, mail);
    });
    try {
      const answer = server.app.inject({
        method: 'POST',
        url: '/api/user/forgot_password/',
        headers: BASE_HEADERS,
        payload: { email: user.email },
        remoteAddress: newAddress(),
      });
      const first = await Promise.race([
        answer,
        new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), 3000)),
      ]);
      expect(first).not.toBe('still waiting');
    } finally {
      release();
      await server.ctx.pendingWork.settled();
      spy.mockRestore();
    }
    const mail = await server.waitForMail((m) => JSON.stringify(m.to).includes(user.email));
    expect(mail.subject).toMatch(/reset/i);
  });
});
