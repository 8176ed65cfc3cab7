import { describe, expect, it } from 'vitest';
import {
  IMPROVEMENT_MAX_LENGTH,
  improveDescription,
  offlineDescriptionImprovement,
} from './description-improvement';
import { ModelCallError, type ModelProvider, type ModelRequest } from './model-provider';
import { createModelStream } from './model-stream';
import { createOfflineProvider } from './offline-provider';

/** A model that answers every request with `text` and keeps the requests it got. */
function modelAnswering(text: string) {
  const requests: ModelRequest[] = [];
  const provider: ModelProvider = {
    kind: 'gemini',
    model: 'gemini-test',
    stream(request) {
      requests.push(request);
      return createModelStream(request.signal, async (emit) => {
        emit(text);
        return null;
      });
    },
  };
  return { provider, requests };
}

describe('improveDescription with the offline model', () => {
  const description =
    'Viết bài blog về trà xanh cho người mới uống trà. Giọng văn thân thiện, khoảng 800 từ.';

  it('lays the description out as goal, input, stages and output, in Vietnamese for a Vietnamese text', async () => {
    const improvement = await improveDescription(createOfflineProvider(), description);
    expect(improvement).toBe(offlineDescriptionImprovement(description));
    const lines = improvement.split('\n');
    expect(lines[0]).toBe('[Offline model] Mô tả đã được làm rõ (model offline, dựng theo khuôn mẫu):');
    expect(lines[1]).toBe('Mục tiêu: Viết bài blog về trà xanh cho người mới uống trà.');
    // What else was asked is kept word for word.
    expect(lines[2]).toBe('Yêu cầu thêm: Giọng văn thân thiện, khoảng 800 từ.');
    expect(lines).toContain('Các giai đoạn:');
    expect(lines.filter((line) => /^\d\. /.test(line))).toHaveLength(3);
    expect(improvement).toContain('"Viết bài blog về trà xanh cho người mới uống trà"');
    expect(lines.at(-1)).toBe('Kết quả mong muốn: một tài liệu rõ ràng, có cấu trúc, dùng được ngay.');
  });

  it('is the same for the same description and answers English in English, saying what it is in Vietnamese', () => {
    const english = 'Plan a weekly newsletter for a bicycle repair shop! Friendly tone.';
    const first = offlineDescriptionImprovement(english);
    expect(offlineDescriptionImprovement(english)).toBe(first);
    expect(first.split('\n').slice(0, 2)).toEqual([
      '[Offline model] Mô tả đã được làm rõ (model offline, dựng theo khuôn mẫu):',
      'Goal: Plan a weekly newsletter for a bicycle repair shop.',
    ]);
    expect(first.split('\n')[2]).toBe('Further requirements: Friendly tone.');
    expect(first).toContain('Stages:');
  });
});

describe('improveDescription with a model', () => {
  it('asks the model to rewrite the description and answers its text, trimmed', async () => {
    const { provider, requests } = modelAnswering('\n  Goal: a blog post about green tea.\nStages: ...  \n');
    const improvement = await improveDescription(provider, 'blog about tea');
    expect(improvement).toBe('Goal: a blog post about green tea.\nStages: ...');
    expect(requests).toHaveLength(1);
    expect(requests[0]!.prompt).toBe('blog about tea');
    expect(requests[0]!.system).toContain('Rewrite their');
    expect(requests[0]!.json).toBeUndefined();
  });

  it('cuts an overlong answer and refuses an empty one', async () => {
    const long = await improveDescription(
      modelAnswering('x'.repeat(IMPROVEMENT_MAX_LENGTH + 50)).provider,
      'a',
    );
    expect(long).toHaveLength(IMPROVEMENT_MAX_LENGTH);
    const empty = improveDescription(modelAnswering('   ').provider, 'a');
    await expect(empty).rejects.toBeInstanceOf(ModelCallError);
    await expect(empty).rejects.toMatchObject({ retryable: true });
  });
});
