import type { ComponentChildren, JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { Action } from './ui.js';

interface FieldProps {
  id: string;
  label: string;
  error?: string | null;
  hint?: string;
}

/** A labelled input whose error names the field and is tied to it for screen readers. */
export function Field(props: FieldProps & { children: (aria: Record<string, string | boolean | undefined>) => ComponentChildren }) {
  const describedBy = [props.hint ? `${props.id}-hint` : '', props.error ? `${props.id}-error` : ''].filter(Boolean).join(' ') || undefined;
  // Hint and error sit outside the <label>: the field's name stays its label, they are its description.
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      {props.children({ id: props.id, 'aria-invalid': props.error ? 'true' : undefined, 'aria-describedby': describedBy })}
      {props.hint && <small id={`${props.id}-hint`}>{props.hint}</small>}
      {props.error && (
        <small id={`${props.id}-error`} class="field-error">
          {props.error}
        </small>
      )}
    </div>
  );
}

/** A Field holding one <input>; `onValue` is given the text typed, other props are the input's own. */
export function InputField({ id, label, error, hint, onValue, ...input }: FieldProps & { onValue?: (value: string) => void } & JSX.IntrinsicElements['input']) {
  const typed = onValue && ((e: Event) => onValue((e.target as HTMLInputElement).value));
  return (
    <Field id={id} label={label} error={error} hint={hint}>
      {(aria) => <input {...aria} {...input} onInput={typed ?? input.onInput} />}
    </Field>
  );
}

/** A form's submit button, busy (and not pressable again) while the form's call runs. */
export function SubmitButton({ action, children }: { action: Action; children: ComponentChildren }) {
  return (
    <button type="submit" aria-busy={action.busy} disabled={action.busy}>
      {children}
    </button>
  );
}

/** A form of text inputs and their errors, by name; `field(name, id)` gives an InputField its id, value, error and setter. */
export function useFields<F extends Record<string, string>>(initial: F) {
  const [form, setForm] = useState(initial);
  const [errors, setErrors] = useState<Partial<F>>({});
  const field = (name: keyof F, id: string) => ({ id, value: form[name], error: errors[name], onValue: (value: string) => setForm({ ...form, [name]: value }) });
  return { form, setForm, errors, setErrors, field };
}
