import { describe, expect, it } from 'vitest';
import { FileReports, type FileReportRow } from './file-reports';
import { ApiError } from '@filerunner/protocol';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A batch of `count` files named `<name>/<i>`. */
const batch = (name: string, count = 10): FileReportRow[] =>
  Array.from({ length: count }, (_, i) => ({
    object_path: `prefix/${name}-${i}`,
    size_bytes: 10,
    user_path: `${name}/${i}`,
  }));

/** An `updatefiles` that answers when told, keeping each call's files. */
function scriptedCalls() {
  const calls: { paths: string[]; answer: (error?: unknown) => void }[] = [];
  const send = (rows: FileReportRow[]) =>
    new Promise<void>((resolve, reject) => {
      calls.push({
        paths: rows.map((r) => r.user_path),
        answer: (error) => (error ? reject(error) : resolve()),
      });
    });
  const batchesOf = (i: number) => [...new Set(calls[i]!.paths.map((p) => p.split('/')[0]))];
  return { calls, send, batchesOf };
}

describe('FileReports', () => {
  it('joins the batches stored while calls are under way into the next call, up to its limit', async () => {
    const { calls, send, batchesOf } = scriptedCalls();
    const reports = new FileReports(send, 30);
    const signal = new AbortController().signal;
    const reported: string[] = [];
    const report = (name: string) =>
      reports.report(batch(name), signal).then(() => reported.push(name));

    const first = ['a', 'b'].map(report);
    await settle();
    // Two calls at once, each with what was waiting when it started.
    expect(calls.map((_, i) => batchesOf(i))).toEqual([['a'], ['b']]);
    const later = ['c', 'd', 'e', 'f'].map(report);
    await settle();
    expect(calls).toHaveLength(2);

    calls[0]!.answer();
    await settle();
    expect(reported).toEqual(['a']);
    // At most 30 files in one call: three batches of ten.
    expect(batchesOf(2)).toEqual(['c', 'd', 'e']);
    calls[1]!.answer();
    await settle();
    expect(batchesOf(3)).toEqual(['f']);
    calls[2]!.answer();
    calls[3]!.answer();
    await Promise.all([...first, ...later]);
    expect(reported.sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });

  it('makes a refused joint call again batch by batch, so only the bad batch fails', async () => {
    const { calls, send, batchesOf } = scriptedCalls();
    const reports = new FileReports(send);
    const signal = new AbortController().signal;
    const blocker = reports.report(batch('x'), signal);
    const other = reports.report(batch('y'), signal);
    const outcomes = ['good', 'bad', 'fine'].map((name) =>
      reports.report(batch(name), signal).then(
        () => `${name} reported`,
        (error: ApiError) => `${name} failed: ${error.status}`,
      ),
    );
    await settle();
    calls[0]!.answer();
    await settle();
    expect(batchesOf(2)).toEqual(['good', 'bad', 'fine']);
    calls[2]!.answer(
      new ApiError(
        'HTTP_ERROR',
        400,
        { detail: 'Error updating package files' },
        'POST /updatefiles/',
      ),
    );
    await settle();
    expect(calls.slice(3).map((_, i) => batchesOf(3 + i))).toEqual([['good'], ['bad'], ['fine']]);
    calls[3]!.answer();
    calls[4]!.answer(new ApiError('HTTP_ERROR', 400, {}, 'POST /updatefiles/'));
    calls[5]!.answer();
    expect(await Promise.all(outcomes)).toEqual([
      'good reported',
      'bad failed: 400',
      'fine reported',
    ]);
    calls[1]!.answer();
    await Promise.all([blocker, other]);
  });

  it('leaves a waiting batch out once its upload stops, and rejects it', async () => {
    const { calls, send, batchesOf } = scriptedCalls();
    const reports = new FileReports(send);
    const session = new AbortController();
    const running = ['a', 'b'].map((name) => reports.report(batch(name), session.signal));
    const waiting = reports.report(batch('c'), session.signal);
    await settle();
    session.abort(new Error('paused'));
    await expect(waiting).rejects.toThrow('paused');
    calls[0]!.answer();
    calls[1]!.answer();
    await Promise.all(running);
    const next = reports.report(batch('d'), new AbortController().signal);
    await settle();
    expect(calls.map((_, i) => batchesOf(i))).toEqual([['a'], ['b'], ['d']]);
    calls[2]!.answer();
    await next;
  });
});
