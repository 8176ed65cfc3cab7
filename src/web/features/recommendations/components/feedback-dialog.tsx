import { zodResolver } from '@hookform/resolvers/zod';
import { Star } from 'lucide-react';
import { Controller, useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Field, Select, Textarea } from '@/components/ui/field';
import { cn } from '@/lib/cn';
import { whyDisabled } from '@/lib/strings';
import {
  FEEDBACK_ACTIONS,
  FEEDBACK_MAX_LENGTH,
  type RecommendationFeedbackInput,
  recommendationFeedbackSchema,
} from '../../../../domain/workflow-recommendations';
import { recommendations as strings } from '../strings';

const t = strings.feedback;

export type FeedbackInput = RecommendationFeedbackInput;

/** The form; mounted afresh each time the dialog opens, so it always starts empty. */
function FeedbackForm({
  onSubmit,
  onCancel,
  submitting,
}: {
  onSubmit: (input: FeedbackInput) => void;
  onCancel: () => void;
  submitting: boolean;
}) {
  const form = useForm({
    resolver: zodResolver(recommendationFeedbackSchema),
    defaultValues: { rating: 5, feedback: '' },
    mode: 'onChange',
  });

  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={form.handleSubmit(({ feedback, ...input }) =>
        onSubmit({ ...input, ...(feedback ? { feedback } : {}) }),
      )}
    >
      <Field id="feedback-action" label={t.action}>
        <Controller
          control={form.control}
          name="action"
          render={({ field }) => (
            <Select
              id="feedback-action"
              {...field}
              // No action until the user picks one.
              value={field.value ?? ''}
              data-testid="feedback-action"
            >
              <option value="" disabled>
                {t.chooseAction}
              </option>
              {FEEDBACK_ACTIONS.map((value) => (
                <option key={value} value={value}>
                  {t.actions[value]}
                </option>
              ))}
            </Select>
          )}
        />
      </Field>
      <Controller
        control={form.control}
        name="rating"
        render={({ field }) => (
          <fieldset className="flex flex-col gap-1.5">
            <legend className="mb-1.5 text-sm font-medium text-slate-700">{t.rating}</legend>
            <div className="flex gap-1">
              {[1, 2, 3, 4, 5].map((n) => (
                <button
                  key={n}
                  type="button"
                  onClick={() => field.onChange(n)}
                  aria-label={t.star(n)}
                  aria-pressed={n <= field.value}
                  className="cursor-pointer rounded p-0.5 focus-visible:outline-2 focus-visible:outline-indigo-500"
                  data-testid={`feedback-star-${n}`}
                >
                  <Star
                    className={cn(
                      'h-6 w-6',
                      n <= field.value ? 'fill-amber-400 text-amber-400' : 'text-slate-300',
                    )}
                  />
                </button>
              ))}
            </div>
          </fieldset>
        )}
      />
      <Field id="feedback-comment" label={t.comment}>
        <Textarea
          {...form.register('feedback')}
          placeholder={t.commentPlaceholder}
          maxLength={FEEDBACK_MAX_LENGTH}
          id="feedback-comment"
          data-testid="feedback-comment"
        />
      </Field>
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={onCancel}>
          {t.cancel}
        </Button>
        <Button
          type="submit"
          disabled={submitting}
          disabledReason={!form.formState.isValid && whyDisabled.chooseAction}
          data-testid="feedback-submit"
        >
          {submitting ? t.submitting : t.submit}
        </Button>
      </div>
    </form>
  );
}

/** An action must be chosen before submitting; the rating is 1 to 5 stars; a comment is optional. */
export function FeedbackDialog({
  open,
  onOpenChange,
  onSubmit,
  submitting,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSubmit: (input: FeedbackInput) => void;
  submitting: boolean;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={t.title} closeLabel={strings.close} data-testid="feedback-dialog">
        {open ? (
          <FeedbackForm onSubmit={onSubmit} onCancel={() => onOpenChange(false)} submitting={submitting} />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
