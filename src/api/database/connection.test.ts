import { describe, expect, it } from 'vitest';
import { socketDirectoryIn } from './connection';

describe('socketDirectoryIn', () => {
  it("takes libpq's ?host=/directory out of the URL, keeping the other parameters", () => {
    expect(socketDirectoryIn('postgres://app@localhost:5433/workbench?host=/var/run/postgresql')).toEqual({
      url: 'postgres://app@localhost:5433/workbench',
      socketDirectory: '/var/run/postgresql',
    });
    expect(
      socketDirectoryIn('postgres://app@localhost/w?sslmode=disable&host=%2Ftmp&max_pipeline=10'),
    ).toEqual({
      url: 'postgres://app@localhost/w?sslmode=disable&max_pipeline=10',
      socketDirectory: '/tmp',
    });
  });

  it('leaves a URL without it, or with a host name there, as it is', () => {
    for (const url of [
      'postgres://app:secret@db.example.com:5432/workbench',
      'postgres://app@localhost/w?sslmode=require',
      'postgres://app@localhost/w?host=db.internal',
    ]) {
      expect(socketDirectoryIn(url)).toEqual({ url, socketDirectory: null });
    }
  });
});
