import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { failureToastOf } from './failure-toast';

const serverError = new ApiError(409, '409: A run is already in progress');

/** The toast a failed mutation shows, as its meta words it. */
describe('failureToastOf', () => {
  it("says 'Lỗi' and the failure's own text when the mutation declares nothing", () => {
    expect(failureToastOf(serverError)).toEqual({
      title: 'Lỗi',
      description: '409: A run is already in progress',
    });
  });

  it("shows the server's message, or the screen's text when the failure has none", () => {
    const toast = { title: 'Lưu thất bại', messageOr: 'Không thể lưu thay đổi' };
    expect(failureToastOf(serverError, toast)).toEqual({
      title: 'Lưu thất bại',
      description: '409: A run is already in progress',
    });
    expect(failureToastOf(new Error(''), toast)).toEqual({
      title: 'Lưu thất bại',
      description: 'Không thể lưu thay đổi',
    });
  });

  it("keeps the screen's text whatever the server said", () => {
    expect(failureToastOf(serverError, { description: 'Không thể tạo session' })).toEqual({
      title: 'Lỗi',
      description: 'Không thể tạo session',
    });
  });

  it('lets the failure choose, and says nothing when the screen tells the failure itself', () => {
    const byFailure = (error: Error) =>
      error instanceof ApiError ? false : { description: 'Không thể xóa' };
    expect(failureToastOf(serverError, byFailure)).toBeNull();
    expect(failureToastOf(new Error('offline'), byFailure)).toEqual({
      title: 'Lỗi',
      description: 'Không thể xóa',
    });
    expect(failureToastOf(serverError, false)).toBeNull();
  });

  it('shows a size limit the server names, whatever the screen would say', () => {
    const tooLarge = new ApiError(
      413,
      '413: result sẽ dài 500,001 ký tự; giới hạn (MAX_TEXT_CHARS) là 500,000.',
    );
    expect(failureToastOf(tooLarge, { description: 'Không thể lưu' })).toEqual({
      title: 'Lỗi',
      description: '413: result sẽ dài 500,001 ký tự; giới hạn (MAX_TEXT_CHARS) là 500,000.',
    });
  });
});
