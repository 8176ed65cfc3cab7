import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../domain/errors';
import { entityTagOf, ifMatchOf, notModified, requireVersion, versionMismatchMessage } from './entity-tags';

const requestWith = (headers: Record<string, string | string[]>) =>
  ({ headers }) as unknown as FastifyRequest;

describe('entity tags of stream versions', () => {
  it('quotes the version: a strong tag', () => {
    expect(entityTagOf(7)).toBe('"7"');
  });

  it('If-None-Match holds the current tag: *, or one in a list, weak or strong (weak comparison)', () => {
    const at7 = (value: string | string[]) => notModified(requestWith({ 'if-none-match': value }), 7);
    expect(at7('"7"')).toBe(true);
    expect(at7('*')).toBe(true);
    expect(at7('"5", W/"7"')).toBe(true);
    expect(at7(['"5"', '"7"'])).toBe(true);
    expect(at7('"6"')).toBe(false);
    expect(at7('"77"')).toBe(false);
    expect(at7('7')).toBe(false);
    expect(notModified(requestWith({}), 7)).toBe(false);
  });

  it('If-Match: no condition without it; * matches; a listed strong tag matches, a weak one never', () => {
    expect(ifMatchOf(requestWith({}))).toBeUndefined();
    expect(ifMatchOf(requestWith({ 'if-match': ' ' }))).toBeUndefined();
    const matches = (value: string, version: number) =>
      ifMatchOf(requestWith({ 'if-match': value }))!(version);
    expect(matches('*', 3)).toBe(true);
    expect(matches('"3"', 3)).toBe(true);
    expect(matches('"1", "3"', 3)).toBe(true);
    expect(matches('"2"', 3)).toBe(false);
    expect(matches('W/"3"', 3)).toBe(false);
    // Malformed: it names no version, so it matches none (the write is refused, not made unconditionally).
    expect(matches('3', 3)).toBe(false);
  });

  it('refuses a version the condition does not accept with a version_mismatch naming the current version', () => {
    expect(() => requireVersion(undefined, 4)).not.toThrow();
    expect(() => requireVersion((version) => version === 4, 4)).not.toThrow();
    let refusal: unknown;
    try {
      requireVersion((version) => version === 3, 4);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({ kind: 'version_mismatch', currentVersion: 4 });
    // In the product's language, as every refusal is.
    expect((refusal as Error).message).toBe(
      'Flow đã được thay đổi ở nơi khác sau khi bạn mở và đang ở version 4: hãy tải lại rồi sửa trên version đó.',
    );
    expect((refusal as Error).message).toBe(versionMismatchMessage(4));
  });
});
