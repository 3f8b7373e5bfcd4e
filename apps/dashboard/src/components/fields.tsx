import { Field } from './common.tsx';

/** What every labelled field takes: its id, label, an optional hint, and the API's messages about it. */
interface FieldProps {
  id: string;
  label: string;
  hint?: string | undefined;
  errors?: string[];
  disabled?: boolean;
}

/** A labelled text input (or `time`, `url`, `password` …) with its hint and the API's messages tied to it. */
export function TextField({
  id,
  label,
  hint,
  errors = [],
  disabled,
  value,
  onValue,
  type = 'text',
  required = false,
  autocomplete = 'off',
}: FieldProps & {
  value: string;
  onValue: (value: string) => void;
  type?: 'text' | 'time' | 'url' | 'password' | 'search';
  required?: boolean;
  autocomplete?: string;
}) {
  return (
    <Field id={id} label={label} errors={errors} {...(hint ? { hint } : {})}>
      {(describedBy, invalid) => (
        <input
          id={id}
          // One input whose type follows the field (the union is wider than preact's per-type props allow).
          type={type as 'text'}
          required={required}
          disabled={disabled}
          autocomplete={autocomplete}
          spellcheck={false}
          value={value}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          onInput={(event) => onValue(event.currentTarget.value)}
        />
      )}
    </Field>
  );
}

/** A labelled select of `options` (each shown as itself) with its hint and the API's messages tied to it. */
export function SelectField({
  id,
  label,
  hint,
  errors = [],
  disabled,
  value,
  onValue,
  options,
}: FieldProps & { value: string; onValue: (value: string) => void; options: readonly string[] }) {
  return (
    <Field id={id} label={label} errors={errors} {...(hint ? { hint } : {})}>
      {(describedBy, invalid) => (
        <select
          id={id}
          value={value}
          disabled={disabled}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          onChange={(event) => onValue(event.currentTarget.value)}
        >
          {options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
