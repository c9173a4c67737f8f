import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { receiptFileName } from './receipt-file';

// The receipt's name is built by the command from the server's download name, and whatever that
// name holds, the file lands in the output folder itself.

describe('receiptFileName', () => {
  it("is the package's name with .receipt.jws", () => {
    expect(receiptFileName('Ep 104 conform.tar')).toBe('Ep 104 conform.receipt.jws');
    expect(receiptFileName('Ep 104 conform.tar', 2)).toBe('Ep 104 conform.receipt-2.jws');
  });

  it('never leaves the folder, hides itself or names a device', () => {
    const hostile = [
      '../../../escaped/evil',
      '..\\..\\AppData\\Roaming\\evil.tar',
      '/etc/passwd',
      'C:\\Windows\\evil.tar',
      '..',
      '.bashrc',
      'CON.tar',
      'nul',
      'a\u0000b\nc.tar',
      '',
    ];
    const folder = path.resolve('/tmp/received');
    for (const name of hostile) {
      const made = receiptFileName(name);
      expect(made, name).toMatch(/^[^/\\.][^/\\]*\.receipt\.jws$/);
      expect(
        [...made].every((c) => c >= ' '),
        name,
      ).toBe(true);
      expect(path.dirname(path.resolve(folder, made)), name).toBe(folder);
      expect(made.split('.')[0]!.toLowerCase(), name).not.toMatch(/^(con|nul)$/);
    }
    expect(receiptFileName('')).toBe('package.receipt.jws');
    expect(receiptFileName('CON.tar')).toBe('_CON.receipt.jws');
    expect(receiptFileName('aux.log.tar')).toBe('_aux.log.receipt.jws');
  });
});
