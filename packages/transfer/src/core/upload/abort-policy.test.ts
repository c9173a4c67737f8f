import { describe, expect, it } from 'vitest';
import { AbortPolicy } from './abort-policy';

function policyAt() {
  let now = 0;
  const policy = new AbortPolicy(() => now);
  return {
    policy,
    answer: (status: number, times = 1) => {
      for (let i = 0; i < times; i++) policy.observe(status);
    },
    at: (ms: number) => {
      now = ms;
    },
  };
}

describe('the abort policy', () => {
  it('judges every 2.5 s, and not on fewer than 10 answers', () => {
    const { policy, answer, at } = policyAt();
    answer(503, 9);
    at(2500);
    expect(policy.check()).toBeNull();
    answer(503);
    at(4000);
    expect(policy.check()).toBeNull();
    at(5000);
    expect(policy.check()).toBe('transient');
  });

  it('stops at ten passing errors for each success, not at nine', () => {
    const nine = policyAt();
    nine.answer(503, 9);
    nine.answer(201);
    nine.at(2500);
    expect(nine.policy.check()).toBeNull();
    const ten = policyAt();
    ten.answer(0, 5);
    ten.answer(429, 5);
    ten.answer(201);
    ten.at(2500);
    expect(ten.policy.check()).toBe('transient');
  });

  it('stops at 1 % of answers refusing access', () => {
    const { policy, answer, at } = policyAt();
    answer(201, 100);
    answer(403);
    at(2500);
    expect(policy.check()).toBeNull();
    answer(401);
    at(5000);
    expect(policy.check()).toBe('critical');
  });

  it('stops at 100 errors whatever their share', () => {
    const { policy, answer, at } = policyAt();
    answer(201, 900);
    answer(500, 99);
    at(2500);
    expect(policy.check()).toBeNull();
    answer(500);
    at(5000);
    expect(policy.check()).toBe('too-many-errors');
  });

  it('forgets answers older than five minutes, and all of them on reset', () => {
    const { policy, answer, at } = policyAt();
    answer(503, 50);
    at(5 * 60_000 + 2500);
    answer(201, 10);
    expect(policy.check()).toBeNull();
    answer(503, 20);
    policy.reset();
    answer(201, 10);
    at(10 * 60_000);
    expect(policy.check()).toBeNull();
  });
});
