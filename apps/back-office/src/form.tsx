import { useState } from 'preact/hooks';
import type { InputHTMLAttributes } from 'preact';
import { ApiError } from './api.js';

type FieldProps = InputHTMLAttributes & { type?: string; label: string; name: string; hint?: string; problem?: string | null };

/** A labelled input with its hint, and what is wrong with it (the API's words for this field) beside it, read by screen readers with the field. */
export function Field({ label, name, hint, problem, ...input }: FieldProps) {
  const hintId = hint ? `${name}-hint` : undefined;
  const problemId = problem ? `${name}-problem` : undefined;
  return (
    <label class="field">
      <span>{label}</span>
      <input
        name={name}
        aria-describedby={[problemId, hintId].filter(Boolean).join(' ') || undefined}
        aria-invalid={problem ? true : undefined}
        {...input}
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

/** What went wrong, in the API's words, announced as it appears. */
export function Problem({ problem }: { problem: string | null }) {
  return (
    <p class="problem" role="alert">
      {problem ?? ''}
    </p>
  );
}

/** A form's submit: busy while it runs, and the API's refusal (or any failure) as one sentence. */
export function useSubmit(action: (form: FormData) => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      await action(new FormData(event.currentTarget as HTMLFormElement));
    } catch (error) {
      setProblem(describe(error));
    } finally {
      setBusy(false);
    }
  };
  return { submit, busy, problem };
}

/** What the page itself refuses, in words for the person at it. */
export class Refusal extends Error {}

export function describe(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Refusal) return error.message;
  return 'Something went wrong on this page. Reload it and try again.';
}
