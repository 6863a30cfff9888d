import { describe, expect, it } from 'vitest';
import { fileSize } from './file-size';

describe('fileSize', () => {
  it('says kilobytes, megabytes or gigabytes, never zero', () => {
    expect(fileSize(200)).toBe('1 KB');
    expect(fileSize(348_160)).toBe('340 KB');
    expect(fileSize(3 * 1024 * 1024 + 200_000)).toBe('3.2 MB');
    expect(fileSize(12.5 * 1024 * 1024)).toBe('12.5 MB');
    expect(fileSize(1.25 * 1024 * 1024 * 1024)).toBe('1.3 GB');
  });
});
