import type { TextareaHTMLAttributes } from 'preact';

type TextAreaFieldProps = TextareaHTMLAttributes & { label: string; name: string; hint?: string; problem?: string | null };

/**
 * A labelled textarea, as form.tsx's Field is an input: its hint, and what is wrong with it beside it, both
 * read by screen readers with the field. `name` must be unique on the page: the hint's and the problem's ids
 * are made from it.
 */
export function TextAreaField({ label, name, hint, problem, ...textarea }: TextAreaFieldProps) {
  const hintId = hint ? `${name}-hint` : undefined;
  const problemId = problem ? `${name}-problem` : undefined;
  return (
    <label class="field">
      <span>{label}</span>
      <textarea
        name={name}
        spellcheck={false}
        autoComplete="off"
        aria-describedby={[problemId, hintId].filter(Boolean).join(' ') || undefined}
        aria-invalid={problem ? true : undefined}
        {...textarea}
      />
      {problem && (
        <small id={problemId} class="field-problem">
          {problem}
        </small>
      )}
      {hint && (
        <small id={hintId} class="hint">
          {hint}
        </small>
      )}
    </label>
  );
}
